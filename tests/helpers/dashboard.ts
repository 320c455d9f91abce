import type { Dashboard } from '../../shared/contracts/admin-stats.ts';

/** One day of the console's dashboard: nothing happened unless `fields` says so. */
export const dashboardDay = (day: string, fields: Partial<Dashboard['days'][number]> = {}): Dashboard['days'][number] => ({
  day,
  signUps: 0,
  messages: 0,
  inputTokens: 0,
  outputTokens: 0,
  pointsSpent: 0,
  pointsGranted: 0,
  ...fields,
});

type ModelName = { aiModelId: string; modelName: string };

/**
 * The dashboard over `from`–`to` as `GET /api/admin/Statistics/Dashboard` answers it: two busy
 * days, a busy model and a quiet one, and one deployment of the busy model (upstream
 * `<id>-mini`) that failed over.
 */
export function dashboardStats(from: string, to: string, [busy, quiet]: [ModelName, ModelName], previousDay: string): Dashboard {
  return {
    from,
    to,
    timeZone: 'UTC',
    activeUsers: { day: 2, week: 5, month: 9 },
    totals: { signUps: 4, messages: 1234, inputTokens: 10_000, outputTokens: 2_500, pointsSpent: 321, pointsGranted: 1_000 },
    days: [dashboardDay(previousDay, { signUps: 3, messages: 1000 }), dashboardDay(to, { signUps: 1, messages: 234 })],
    modelDays: [
      { day: to, aiModelId: busy.aiModelId, messages: 200, inputTokens: 10, outputTokens: 5 },
      { day: to, aiModelId: quiet.aiModelId, messages: 34, inputTokens: 1, outputTokens: 1 },
    ],
    models: [
      { ...busy, messages: 1200, inputTokens: 9_000, outputTokens: 2_000, estimatedMessages: 3, avgFirstTokenMs: 812.4 },
      { ...quiet, messages: 34, inputTokens: 1_000, outputTokens: 500, estimatedMessages: 0, avgFirstTokenMs: null },
    ],
    deployments: [
      { deploymentId: 'd1', aiModelId: busy.aiModelId, provider: 'openai', upstreamModelId: `${busy.aiModelId}-mini`, messages: 90, errors: 10, failovers: 7 },
    ],
    revenue: [{ currency: 'usd', amount: 123_456, orders: 12 }],
    revenueDays: [],
    activeSubscriptions: 6,
    activePlans: 11,
  };
}
