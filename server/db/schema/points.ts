import { date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Points of integralType 1. `balance` holds earned and bought points; `dailyLeft` is the free daily
 * allowance, valid only on `dailyDay` (a new day starts from FREE_DAILY_POINTS again).
 */
export const pointBalances = pgTable('point_balances', {
  userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  balance: integer('balance').notNull().default(0),
  dailyLeft: integer('daily_left').notNull().default(0),
  dailyDay: date('daily_day'),
  usedTotal: integer('used_total').notNull().default(0),
});

/** Every change of a balance, for audit and refunds. */
export const pointLedger = pgTable(
  'point_ledger',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    refId: text('ref_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('point_ledger_user_idx').on(t.userId, t.createdAt)],
);
