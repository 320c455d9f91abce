import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../shared/contracts/admin-stats.ts';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { aiDeployments, aiModels } from '../../server/db/schema/models.ts';
import { stripeSubscriptions } from '../../server/db/schema/plans.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { upstreamFailures } from '../../server/db/schema/usage.ts';
import { users, vipOrders } from '../../server/db/schema/users.ts';
import { foldUsage } from '../../server/services/system/usage-rollup.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * The dashboard's figures (GET /api/admin/Statistic/GetDashboard) on seeded records, compared with
 * values worked out by hand: before the rollups ran (all live), after a fold (rollups), with an
 * answer that finished after the fold, in UTC, in Asia/Shanghai (+8: days shift) and in Asia/Kolkata
 * (+5:30: read without the hourly rollups). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const at = (iso: string) => new Date(iso);

const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let plain: TestUser;
const [u1, u2, u3] = ['stats-u1', 'stats-u2', 'stats-u3'];

const askDashboard = async (who: TestUser, query: Record<string, string>) => {
  const res = await api(t.app, who).get(`/api/admin/Statistic/GetDashboard?${new URLSearchParams(query)}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { Code: number; Msg: string; Data: Dashboard };
};
const dashboard = async (timeZone: string, from = '2026-03-01', to = '2026-03-03') => {
  const body = await askDashboard(admin, { from, to, timeZone });
  expect(body.Code).toBe(10000);
  return body.Data;
};
const message = (id: string, userId: string, createdAt: string, o: Partial<typeof chatMessages.$inferInsert> = {}) => ({
  id,
  sessionId: `s-${userId}`,
  userId,
  inputMessage: 'hi',
  requestedModelId: 'm-a',
  aiModelId: 'm-a',
  finishReason: 'stop',
  createdAt: at(createdAt),
  finishedAt: new Date(at(createdAt).getTime() + 1000),
  ...o,
});

beforeAll(async () => {
  const db = t.database.db;
  plain = await createUser(t.app);
  await db.insert(users).values([
    { id: u1, email: 'u1@stats.test', passwordHash: 'x', userName: 'u1', createdAt: at('2026-03-01T00:00:00Z') },
    { id: u2, email: 'u2@stats.test', passwordHash: 'x', userName: 'u2', createdAt: at('2026-02-28T20:00:00Z') },
    { id: u3, email: 'u3@stats.test', passwordHash: 'x', userName: 'u3', createdAt: at('2026-03-03T23:59:59.999Z') },
  ]);
  await db.insert(chatSessions).values([u1, u2, u3].map((u) => ({ id: `s-${u}`, userId: u, title: 't' })));
  await db.insert(aiModels).values({ id: 'm-a', name: 'Model A' });
  await db.insert(aiDeployments).values({ id: 'dep-a1', aiModelId: 'm-a', provider: 'openai-compatible', upstreamModelId: 'up-a1' });
  const a1 = { deploymentId: 'dep-a1' };
  await db.insert(chatMessages).values([
    message('msg-1', u1, '2026-03-01T10:00:00Z', { ...a1, inputTokens: 100, outputTokens: 50, firstTokenMs: 200 }),
    message('msg-2', u2, '2026-03-01T20:00:00Z', { ...a1, inputTokens: 10, outputTokens: 5, firstTokenMs: 400, tokensEstimated: true }),
    message('msg-3', u1, '2026-03-02T05:00:00Z', { aiModelId: 'm-b', deploymentId: 'dep-b1', inputTokens: 1, outputTokens: 2 }),
    message('msg-4', u3, '2026-03-02T23:59:59Z', { ...a1, inputTokens: 1000, outputTokens: 1, firstTokenMs: 100 }),
    message('msg-5', u3, '2026-02-28T23:30:00Z', { ...a1, inputTokens: 20, outputTokens: 30, firstTokenMs: 300 }),
    message('msg-6', u2, '2026-03-03T18:00:00Z', { aiModelId: 'm-b', deploymentId: 'dep-b1', inputTokens: 3, outputTokens: 4 }),
    // Still streaming: not counted until it ends.
    message('msg-7', u1, '2026-03-02T12:00:00Z', { finishReason: null, finishedAt: null }),
    // Failed before any deployment answered: a message, without tokens or deployment.
    message('msg-8', u2, '2026-03-02T13:00:00Z', { finishReason: 'error' }),
  ]);
  const entry = (id: string, userId: string, createdAt: string, reason: string, delta: number, allowance = 0) => ({
    id,
    userId,
    reason,
    delta,
    allowance,
    idempotencyKey: `stats:${id}`,
    createdAt: at(createdAt),
  });
  await db.insert(pointLedger).values([
    entry('l-1', u1, '2026-03-01T09:00:00Z', 'message', -3, 2),
    entry('l-2', u1, '2026-03-01T21:00:00Z', 'checkin', 10),
    entry('l-3', u2, '2026-03-02T10:00:00Z', 'refund', 3),
    entry('l-4', u3, '2026-03-03T01:00:00Z', 'admin', -7),
    entry('l-5', u3, '2026-03-03T02:00:00Z', 'plan', 100),
    entry('l-6', u1, '2026-03-03T20:00:00Z', 'draw', -4),
  ]);
  const order = (id: string, userId: string, createdAt: string, o: Partial<typeof vipOrders.$inferInsert>) => ({
    id,
    userId,
    packageLevel: 1,
    packageName: 'Standard',
    startTime: at(createdAt),
    endTime: at('2099-01-01T00:00:00Z'),
    createdAt: at(createdAt),
    ...o,
  });
  await db.insert(vipOrders).values([
    order('o-1', u1, '2026-03-01T12:00:00Z', { source: 'stripe', amount: 999, currency: 'usd' }),
    order('o-2', u2, '2026-03-02T12:00:00Z', { source: 'stripe', amount: 500, currency: 'USD', refundedAt: at('2026-03-02T13:00:00Z') }),
    order('o-3', u3, '2026-03-02T13:00:00Z', { source: 'stripe', amount: 6800, currency: 'cny', endTime: at('2026-04-01T00:00:00Z') }),
    order('o-4', u3, '2026-03-02T14:00:00Z', { source: 'redeem', packageLevel: 2 }),
  ]);
  await db.insert(stripeSubscriptions).values([
    { id: 'sub_1', userId: u1, packageId: 'p', status: 'active' },
    { id: 'sub_2', userId: u2, packageId: 'p', status: 'trialing' },
    { id: 'sub_3', userId: u3, packageId: 'p', status: 'canceled' },
  ]);
  const failure = (id: string, deploymentId: string, createdAt: string, failedOver: boolean, aiModelId = 'm-a') => ({
    id,
    deploymentId,
    aiModelId,
    error: 'busy 503: overloaded',
    failedOver,
    createdAt: at(createdAt),
  });
  await db.insert(upstreamFailures).values([
    failure('f-1', 'dep-a1', '2026-03-02T08:00:00Z', true),
    failure('f-2', 'dep-a1', '2026-03-02T09:00:00Z', false),
    failure('f-3', 'dep-c1', '2026-03-03T08:00:00Z', true, 'm-c'),
    failure('f-4', 'dep-a1', '2026-03-05T08:00:00Z', true),
  ]);
});

const day = (d: string, signUps: number, messages: number, inputTokens: number, outputTokens: number, pointsSpent: number, pointsGranted: number) => ({
  day: d,
  signUps,
  messages,
  inputTokens,
  outputTokens,
  pointsSpent,
  pointsGranted,
});

const expectUtc = (d: Dashboard, lateAnswer = false) => {
  // A late answer: created on 03-01 at 11:00, finished after the fold, 5 in and 6 out.
  const late = lateAnswer ? 1 : 0;
  expect(d).toMatchObject({ from: '2026-03-01', to: '2026-03-03', timeZone: 'UTC' });
  expect(d.days).toEqual([
    day('2026-03-01', 1, 2 + late, 110 + 5 * late, 55 + 6 * late, 5, 10),
    day('2026-03-02', 0, 3, 1001, 3, -3, 0),
    day('2026-03-03', 1, 1, 3, 4, 4, 100),
  ]);
  expect(d.totals).toEqual({ signUps: 2, messages: 6 + late, inputTokens: 1114 + 5 * late, outputTokens: 62 + 6 * late, pointsSpent: 6, pointsGranted: 110 });
  expect(d.modelDays).toEqual([
    { day: '2026-03-01', aiModelId: 'm-a', messages: 2 + late, inputTokens: 110 + 5 * late, outputTokens: 55 + 6 * late },
    { day: '2026-03-02', aiModelId: 'm-a', messages: 2, inputTokens: 1000, outputTokens: 1 },
    { day: '2026-03-02', aiModelId: 'm-b', messages: 1, inputTokens: 1, outputTokens: 2 },
    { day: '2026-03-03', aiModelId: 'm-b', messages: 1, inputTokens: 3, outputTokens: 4 },
  ]);
  expect(d.models).toEqual([
    {
      aiModelId: 'm-a',
      modelName: 'Model A',
      messages: 4 + late,
      inputTokens: 1110 + 5 * late,
      outputTokens: 56 + 6 * late,
      estimatedMessages: 1,
      // (200 + 400 + 100) / 3, and the late answer's 50 ms.
      avgFirstTokenMs: lateAnswer ? 188 : 233,
    },
    // Not in the catalogue (deleted since): named by its id.
    { aiModelId: 'm-b', modelName: 'm-b', messages: 2, inputTokens: 4, outputTokens: 6, estimatedMessages: 0, avgFirstTokenMs: null },
  ]);
  expect(d.deployments).toEqual([
    { deploymentId: 'dep-a1', aiModelId: 'm-a', provider: 'openai-compatible', upstreamModelId: 'up-a1', messages: 3 + late, errors: 2, failovers: 1 },
    { deploymentId: 'dep-b1', aiModelId: 'm-b', provider: null, upstreamModelId: null, messages: 2, errors: 0, failovers: 0 },
    { deploymentId: 'dep-c1', aiModelId: 'm-c', provider: null, upstreamModelId: null, messages: 0, errors: 1, failovers: 1 },
  ]);
  // 30 days to 03-03 hold u1, u2, u3 (msg-5 on 02-28 too); 03-03 only u2.
  expect(d.activeUsers).toEqual({ day: 1, week: 3, month: 3 });
  expect(d.revenue).toEqual([
    { currency: 'cny', amount: 6800, orders: 1 },
    { currency: 'usd', amount: 999, orders: 1 },
  ]);
  expect(d.revenueDays).toEqual([
    { day: '2026-03-02', currency: 'cny', amount: 6800, orders: 1 },
    { day: '2026-03-01', currency: 'usd', amount: 999, orders: 1 },
  ]);
  // sub_1 and sub_2; u1 (o-1) and u3 (o-4) hold plans now.
  expect(d.activeSubscriptions).toBe(2);
  expect(d.activePlans).toBe(2);
};

const expectShanghai = (d: Dashboard) => {
  expect(d.days).toEqual([
    // msg-5 (02-28 23:30 UTC) and msg-1; sign-ups u2 (02-28 20:00 UTC) and u1.
    day('2026-03-01', 2, 2, 120, 80, 5, 0),
    day('2026-03-02', 0, 3, 11, 7, -3, 10),
    day('2026-03-03', 0, 1, 1000, 1, 0, 100),
  ]);
  expect(d.totals).toMatchObject({ signUps: 2, messages: 6, pointsSpent: 2, pointsGranted: 110 });
  // 03-03 in Shanghai holds msg-4 (u3) only; msg-6 falls on 03-04.
  expect(d.activeUsers).toEqual({ day: 1, week: 3, month: 3 });
  expect(d.revenueDays.map((r) => [r.day, r.currency])).toEqual([
    ['2026-03-02', 'cny'],
    ['2026-03-01', 'usd'],
  ]);
};

const expectKolkata = (d: Dashboard) => {
  expect(d.days.map((x) => [x.day, x.messages, x.inputTokens, x.outputTokens])).toEqual([
    ['2026-03-01', 2, 120, 80],
    ['2026-03-02', 3, 11, 7],
    ['2026-03-03', 2, 1003, 5],
  ]);
  expect(d.activeUsers).toEqual({ day: 2, week: 3, month: 3 });
};

describe('dashboard statistics: the figures, from records and from rollups', () => {
  it('computes every figure from the records alone, before the rollups ran', async () => {
    expectUtc(await dashboard('UTC'));
    expectShanghai(await dashboard('Asia/Shanghai'));
    expectKolkata(await dashboard('Asia/Kolkata'));
  });

  it('gives the same figures from the rollups, and counts an answer that finished after the fold once', async () => {
    expect(await foldUsage(t.database.db, new Date())).toBe(true);
    expectUtc(await dashboard('UTC'));
    expectShanghai(await dashboard('Asia/Shanghai'));
    expectKolkata(await dashboard('Asia/Kolkata'));

    // Sent on 03-01, finished only now: after the watermark, read live until the next fold.
    await t.database.db
      .insert(chatMessages)
      .values(message('msg-late', u1, '2026-03-01T11:00:00Z', { deploymentId: 'dep-a1', inputTokens: 5, outputTokens: 6, firstTokenMs: 50, finishedAt: new Date() }));
    expectUtc(await dashboard('UTC'), true);
    expect(await foldUsage(t.database.db, new Date())).toBe(true);
    expectUtc(await dashboard('UTC'), true);
    // A second fold with nothing new changes nothing.
    expect(await foldUsage(t.database.db, new Date())).toBe(true);
    expectUtc(await dashboard('UTC'), true);
  });

  it('keeps counting answers of a deleted chat once they were folded (history)', async () => {
    await foldUsage(t.database.db, new Date());
    await t.database.db.delete(chatSessions).where(eq(chatSessions.id, `s-${u1}`));
    expect(await t.database.db.select().from(chatMessages).where(inArray(chatMessages.id, ['msg-1', 'msg-3']))).toEqual([]);
    expectUtc(await dashboard('UTC'), true);
  });

  it('lists every day of the range, with zeros, and defaults to the 30 days to today in UTC', async () => {
    const d = await dashboard('UTC', '2026-02-27', '2026-02-27');
    expect(d.days).toEqual([day('2026-02-27', 0, 0, 0, 0, 0, 0)]);
    expect(d.models).toEqual([]);
    const body = await askDashboard(admin, {});
    expect(body.Code).toBe(10000);
    expect(body.Data.timeZone).toBe('UTC');
    expect(body.Data.days).toHaveLength(30);
    expect(body.Data.to).toBe(new Date().toISOString().slice(0, 10));
  });
});

describe('dashboard statistics: refusals and concurrent folds', () => {
  it('refuses non-admins and bad ranges with a message to act on', async () => {
    expect((await askDashboard(plain, {})).Code).toBe(10403);
    const unknownZone = await askDashboard(admin, { timeZone: 'Mars/Olympus' });
    expect(unknownZone.Code).toBe(10400);
    const reversed = await askDashboard(admin, { from: '2026-03-04', to: '2026-03-01' });
    expect(reversed.Code).toBe(10400);
    const long = await askDashboard(admin, { from: '2020-01-01', to: '2026-03-01' });
    expect(long).toMatchObject({ Code: 10400, Msg: 'The date range is too long: choose at most 732 days.' });
    const notDate = await askDashboard(admin, { from: '2026-02-30' });
    expect(notDate.Code).toBe(10400);
    const nul = await askDashboard(admin, { timeZone: 'UTC\u0000' });
    expect(nul.Code).toBe(10400);
  });

  it('folds once across concurrent callers (one holds the lock, the other skips)', async () => {
    const results = await Promise.all([foldUsage(t.database.db, new Date()), foldUsage(t.database.db, new Date())]);
    expect(results).toContain(true);
    expectUtc(await dashboard('UTC'), true);
  });
});
