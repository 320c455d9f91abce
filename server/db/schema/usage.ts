import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the dashboard counts (server/services/admin/stats.ts, docs/admin-stats.md).
 *
 * `upstream_failures`: one row per failed attempt of a deployment (the next one was tried, or the
 * answer failed). Failures are rare, so this costs nothing on the usual path; ids are kept as text
 * without foreign keys so the history outlives a deleted deployment, model or chat.
 *
 * The hourly rollups are folded by a periodic job (server/services/system/usage-rollup.ts) from rows that
 * are final: answers that finished, ledger entries. Each table's watermark (`stats_watermarks`) says
 * up to when it is folded; the dashboard reads the rollup before it and the live rows after it.
 * Hours, not days, so one rollup serves every whole-hour time zone.
 */
export const upstreamFailures = pgTable(
  'upstream_failures',
  {
    id: text('id').primaryKey(),
    deploymentId: text('deployment_id').notNull(),
    aiModelId: text('ai_model_id').notNull(),
    messageId: text('message_id'),
    /** The failure's kind and the provider's message (scrubbed, never a key). */
    error: text('error').notNull(),
    /** Another deployment was tried after this one. */
    failedOver: boolean('failed_over').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('upstream_failures_created_idx').on(t.createdAt)],
);

/** Finished answers per hour (of the user's message), model and deployment ('' when none answered). */
export const usageHourly = pgTable(
  'usage_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    aiModelId: text('ai_model_id').notNull(),
    deploymentId: text('deployment_id').notNull(),
    messages: integer('messages').notNull(),
    estimatedMessages: integer('estimated_messages').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    firstTokenMsSum: bigint('first_token_ms_sum', { mode: 'number' }).notNull(),
    firstTokenCount: integer('first_token_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.aiModelId, t.deploymentId] })],
);

/** Who sent a message (counted once its answer ended) in each hour: distinct users over any range of hours. */
export const activeUsersHourly = pgTable(
  'active_users_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.userId] })],
);

/** Points spent and granted per hour (the ledger's definitions: admin-stats.ts). */
export const pointsHourly = pgTable('points_hourly', {
  hour: timestamp('hour', { withTimezone: true }).primaryKey(),
  spent: bigint('spent', { mode: 'number' }).notNull(),
  granted: bigint('granted', { mode: 'number' }).notNull(),
});

/** Up to when (exclusive) each rollup is folded: 'usage' by finished_at, 'points' by created_at. */
export const statsWatermarks = pgTable('stats_watermarks', {
  name: text('name').primaryKey(),
  watermark: timestamp('watermark', { withTimezone: true }).notNull(),
});
