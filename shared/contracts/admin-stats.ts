import { z } from 'zod';
import { TimeZoneSchema } from './points.ts';

/**
 * The operator's dashboard (GET /api/admin/Statistic/GetDashboard, admins only). Every figure is
 * aggregated by the database (docs/admin-stats.md). Days are calendar days in the operator's time
 * zone; `from` and `to` are both included.
 */

/** Longest range the dashboard reads at once (two years and a day). */
export const STATS_MAX_DAYS = 732;

/** A range reversed or too long is refused by the service (admin-stats.ts), with its own message. */
export const StatsQuerySchema = z.object({
  /** First day (YYYY-MM-DD) in `timeZone`; default 29 days before `to`. */
  from: z.iso.date().optional(),
  /** Last day (YYYY-MM-DD) in `timeZone`, included; default today. */
  to: z.iso.date().optional(),
  /** An IANA time zone name (Europe/Paris, Asia/Shanghai); default UTC. */
  timeZone: TimeZoneSchema.default('UTC'),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

/** One day of the range; every day of the range is listed, with zeros where nothing happened. */
export const StatsDaySchema = z.object({
  /** YYYY-MM-DD in the query's time zone. */
  day: z.string(),
  /** Accounts created that day. */
  signUps: z.number().int(),
  /** Answers finished that day (by the time the user sent the message). */
  messages: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Points used (free daily allowance included) for messages, plugins and drawings, less refunds. */
  pointsSpent: z.number().int(),
  /** Points added: check-ins, codes, invites, plan grants, operators' grants, opening balances. */
  pointsGranted: z.number().int(),
});
export type StatsDay = z.infer<typeof StatsDaySchema>;

/** Messages and tokens of one catalogue model on one day (only days with messages are listed). */
export const StatsModelDaySchema = z.object({
  day: z.string(),
  aiModelId: z.string(),
  messages: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});
export type StatsModelDay = z.infer<typeof StatsModelDaySchema>;

/** One catalogue model over the whole range (models with no message in the range are not listed). */
export const StatsModelSchema = z.object({
  aiModelId: z.string(),
  /** The model's current name; its id when it was deleted since. */
  modelName: z.string(),
  messages: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** Answers whose token counts were estimated because the provider reported none. */
  estimatedMessages: z.number().int(),
  /** Average time from the request to the first text, over answers that produced text; null for none. */
  avgFirstTokenMs: z.number().nullable(),
});
export type StatsModel = z.infer<typeof StatsModelSchema>;

/** One upstream deployment over the whole range (listed when it answered or failed in the range). */
export const StatsDeploymentSchema = z.object({
  deploymentId: z.string(),
  aiModelId: z.string().nullable(),
  /** Null when the deployment was deleted since. */
  provider: z.string().nullable(),
  upstreamModelId: z.string().nullable(),
  /** Answers this deployment gave. */
  messages: z.number().int(),
  /** Attempts that failed (the next deployment was tried, or the answer failed). */
  errors: z.number().int(),
  /** Of `errors`, those after which another deployment was tried. */
  failovers: z.number().int(),
});
export type StatsDeployment = z.infer<typeof StatsDeploymentSchema>;

/** Paid orders' amounts in one currency (minor units, e.g. cents). */
export const StatsRevenueSchema = z.object({
  currency: z.string(),
  amount: z.number().int(),
  orders: z.number().int(),
});
export type StatsRevenue = z.infer<typeof StatsRevenueSchema>;

export const StatsRevenueDaySchema = StatsRevenueSchema.extend({ day: z.string() });
export type StatsRevenueDay = z.infer<typeof StatsRevenueDaySchema>;

export const DashboardSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /**
   * Distinct users who sent a message on `to` (day), in the 7 days ending on `to` (week) and in the
   * 30 days ending on `to` (month).
   */
  activeUsers: z.object({ day: z.number().int(), week: z.number().int(), month: z.number().int() }),
  /** Sums of `days`. */
  totals: StatsDaySchema.omit({ day: true }),
  days: z.array(StatsDaySchema),
  modelDays: z.array(StatsModelDaySchema),
  models: z.array(StatsModelSchema),
  deployments: z.array(StatsDeploymentSchema),
  /** Paid orders created in the range, per currency (refunded orders are not counted). */
  revenue: z.array(StatsRevenueSchema),
  revenueDays: z.array(StatsRevenueDaySchema),
  /** Now, not over the range: Stripe subscriptions active or trialing, and users with a plan in force
   * (any source: paid, redeem code, operator's grant; refunded orders excluded). */
  activeSubscriptions: z.number().int(),
  activePlans: z.number().int(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
