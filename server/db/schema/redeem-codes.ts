import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** A batch of redeem codes an operator generated (docs/economy.md#redeem-codes). */
export const redeemBatches = pgTable('redeem_batches', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Points each redeem adds (0 when the batch grants plan days only). */
  points: integer('points').notNull().default(0),
  /** Plan days each redeem adds at `planLevel` (0 when the batch grants points only). */
  planDays: integer('plan_days').notNull().default(0),
  planLevel: integer('plan_level').notNull().default(0),
  /** How many redeems each code allows in all; each user may redeem a code once. */
  usesPerCode: integer('uses_per_code').notNull().default(1),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  disabled: boolean('disabled').notNull().default(false),
  createdBy: text('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const redeemCodes = pgTable(
  'redeem_codes',
  {
    /** Stored in its canonical form (upper case, no separators): codes are case-insensitive. */
    code: text('code').primaryKey(),
    batchId: text('batch_id').notNull().references(() => redeemBatches.id, { onDelete: 'cascade' }),
    uses: integer('uses').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('redeem_codes_batch_idx').on(t.batchId)],
);

/** Who redeemed which code: the primary key allows each user one redeem of a code. */
export const redeemUses = pgTable(
  'redeem_uses',
  {
    code: text('code').notNull().references(() => redeemCodes.code, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.code, t.userId] }), index('redeem_uses_user_idx').on(t.userId)],
);
