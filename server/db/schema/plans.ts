import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Plans and payments (docs/economy.md#plans, docs/economy.md#payments-stripe). What a user holds is
 * still a row of `vip_orders` (server/db/schema/users.ts), whichever way it came: a paid invoice, a
 * redeem code, an operator's grant. These tables hold what is sold and what Stripe told us.
 */

/** A package on sale: a plan level for a month or a year, with its prices. Level 0 (free) is not a row. */
export const vipPackages = pgTable('vip_packages', {
  /** Chosen by the operator or made up ('super-year'); it names the package in Stripe's metadata. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** 1 Standard, 2 Advanced, 3 Super. */
  level: integer('level').notNull(),
  period: text('period', { enum: ['month', 'year'] }).notNull(),
  /** Currency (ISO 4217, lower case) → price in minor units: {usd: 999, cny: 6800}. */
  prices: jsonb('prices').$type<Record<string, number>>().notNull().default({}),
  /** Currency → a Stripe Price id; without one, checkout sends the price inline. */
  stripePriceIds: jsonb('stripe_price_ids').$type<Record<string, string>>().notNull().default({}),
  /** Points per month of the plan; a paid period grants this times its months. */
  monthlyPoints: integer('monthly_points').notNull().default(0),
  bestDeal: boolean('best_deal').notNull().default(false),
  online: boolean('online').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  /**
   * Deleted by an operator: listed nowhere, but kept, because the subscriptions already sold name it
   * and keep renewing at its level.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The Stripe customer of a user, made once at the user's first checkout. */
export const stripeCustomers = pgTable('stripe_customers', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A Stripe subscription as its events left it. */
export const stripeSubscriptions = pgTable(
  'stripe_subscriptions',
  {
    /** Stripe's id (sub_...). */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id'),
    packageId: text('package_id').notNull(),
    /** Stripe's status: active, trialing, past_due, canceled, incomplete, unpaid, ... */
    status: text('status').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** `created` (Unix seconds) of the subscription event that set the state: an older event does not undo a newer one. */
    stateAt: bigint('state_at', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stripe_subscriptions_user_idx').on(t.userId)],
);

/**
 * What Stripe told us about the money of one paid invoice, kept whether or not its order exists yet
 * (docs/economy.md#refunds-and-disputes): a full refund or a lost dispute that arrives before its
 * `invoice.paid` is recorded here and applied to the order when the invoice arrives.
 */
export const stripeInvoiceOutcomes = pgTable('stripe_invoice_outcomes', {
  invoiceId: text('invoice_id').primaryKey(),
  /** The money went back: `refund` (a full refund) or `dispute` (a lost dispute, or its funds withdrawn). */
  reversal: text('reversal', { enum: ['refund', 'dispute'] }),
  reversedAt: timestamp('reversed_at', { withTimezone: true }),
  disputeId: text('dispute_id'),
  /** open, won or lost: a closed dispute (won or lost) is not reopened by an older event arriving late. */
  disputeStatus: text('dispute_status', { enum: ['open', 'won', 'lost'] }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every Stripe event applied, inserted in the same transaction as its effects: a replayed event, or
 * the same event delivered twice at once, finds its id here (or waits on the first delivery's insert)
 * and changes nothing.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** When Stripe made the event (Unix seconds). */
  eventCreated: bigint('event_created', { mode: 'number' }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
