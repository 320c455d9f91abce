import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

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

/** What the user is told (docs/economy.md#notifications): payments, plans, points, invites, broadcasts. */
export const userNotifications = pgTable(
  'user_notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Message keys and their parameters, rendered in the reader's language by the client. */
    titleKey: text('title_key').notNull(),
    bodyKey: text('body_key').notNull(),
    params: text('params').notNull().default('{}'),
    /** Where a click leads inside the app (a path such as /subscription), or ''. */
    link: text('link').notNull().default(''),
    /** Names the event, so it notifies once (a replayed webhook, a retried job). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_notifications_user_idx').on(t.userId, t.createdAt)],
);
