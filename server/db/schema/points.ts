import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Points of integralType 1, as the ledger leaves them: `balance` is the sum of the user's ledger
 * `delta`s (earned, bought, granted, spent, refunded), updated in the same statement as each entry.
 * `dailyLeft` is the free daily allowance, valid only on `dailyDay` (a new day starts from
 * FREE_DAILY_POINTS again); what a charge takes from it is recorded in the entry's `allowance`.
 * `usedTotal` is what the user has spent, allowance included, less refunds (useIntegral).
 */
export const pointBalances = pgTable('point_balances', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  balance: integer('balance').notNull().default(0),
  dailyLeft: integer('daily_left').notNull().default(0),
  dailyDay: date('daily_day'),
  usedTotal: integer('used_total').notNull().default(0),
});

/**
 * The append-only ledger: one entry per change of a balance (docs/economy.md#the-ledger). `reason` is
 * the kind (message, plugin, draw, checkin, redeem, invite, plan, admin, refund, expiry, opening);
 * `idempotencyKey` names the event that caused it, so a retried request, a duplicated webhook or two
 * tabs at once can apply it only once.
 */
export const pointLedger = pgTable(
  'point_ledger',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** Change of `balance`: negative for a debit. */
    delta: integer('delta').notNull(),
    /** Points a charge took from the free daily allowance (not part of `balance`). */
    allowance: integer('allowance').notNull().default(0),
    /** The balance right after this entry (null for entries written before the ledger kept it). */
    balanceAfter: integer('balance_after'),
    reason: text('reason').notNull(),
    refId: text('ref_id'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** Why, in words: an operator's reason for an adjustment, a code, a plan. */
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('point_ledger_user_idx').on(t.userId, t.createdAt),
    // The dashboard's rollup folds entries by time and reads those after its last fold live (usage-rollup.ts).
    index('point_ledger_created_idx').on(t.createdAt),
  ],
);

/**
 * Daily check-ins (docs/economy.md#check-in): one row per user per calendar day in the user's time
 * zone, so the primary key makes a second check-in of the same day impossible.
 */
export const userCheckins = pgTable(
  'user_checkins',
  {
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    /** Consecutive days up to and including this one. */
    streak: integer('streak').notNull(),
    points: integer('points').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
