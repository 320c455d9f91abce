import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Coupons (docs/economy.md#coupons): discounts an operator defines here, applied at checkout as
 * Stripe coupons. Stripe charges the discounted price; these tables decide who may use a coupon and
 * count its uses.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    /** Canonical: trimmed and upper case (codes are case-insensitive); A–Z, 0–9 and -, 4 to 32 characters. */
    code: text('code').notNull().unique(),
    /** 1 to 100; null for an amount off. */
    percentOff: integer('percent_off'),
    /** Minor units of `currency`; null for a percentage off. */
    amountOff: integer('amount_off'),
    currency: text('currency'),
    /** The packages it applies to; empty: all. */
    packageIds: jsonb('package_ids').$type<string[]>().notNull().default([]),
    /** The periods (month, year) it applies to; empty: both. */
    periods: jsonb('periods').$type<string[]>().notNull().default([]),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    /** Redemptions allowed in all; null: no limit. */
    maxRedemptions: integer('max_redemptions'),
    /** Paid first invoices that carried it, within maxRedemptions (coupon_redemptions counts the others too). */
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    /** once: the first invoice only; forever: every invoice of the subscription. */
    duration: text('duration', { enum: ['once', 'forever'] }).notNull().default('once'),
    disabled: boolean('disabled').notNull().default(false),
    /**
     * Currency → the Stripe coupon made with these terms (made at the first checkout in that
     * currency). Emptied when the terms change: Stripe coupons cannot be changed, so a new one is made.
     */
    stripeCouponIds: jsonb('stripe_coupon_ids').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The count never passes the limit, whatever a caller does (server/services/plans/coupons.ts checks first).
    check('coupons_times_redeemed_limit', sql`${t.timesRedeemed} >= 0 and (${t.maxRedemptions} is null or ${t.timesRedeemed} <= ${t.maxRedemptions})`),
    check('coupons_one_discount', sql`(${t.percentOff} is null) <> (${t.amountOff} is null)`),
  ],
);

/** The coupon and the account a hold or a use is of: both go when either is deleted. */
const couponOfUser = () => ({
  couponId: text('coupon_id')
    .notNull()
    .references(() => coupons.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
});

/**
 * A checkout's hold on one use of a coupon, taken under the coupon's row lock when the checkout is
 * made, so checkouts cannot together be promised more uses than remain. It lapses at `expiresAt`
 * (the Checkout Session's end plus a grace for the webhook) unless the invoice is paid first.
 */
export const couponReservations = pgTable(
  'coupon_reservations',
  {
    id: text('id').primaryKey(),
    ...couponOfUser(),
    packageId: text('package_id').notNull(),
    currency: text('currency').notNull(),
    /** The Checkout Session (cs_...), once Stripe made it. */
    sessionId: text('session_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** checkout.session.completed arrived: held on while the first payment goes through. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('coupon_reservations_coupon_idx').on(t.couponId, t.userId)],
);

/**
 * One use of a coupon: the first paid invoice of a subscription that carried it. The invoice id and
 * the subscription id are both unique, so a replayed invoice and the renewals of a `forever` coupon
 * count nothing more.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    invoiceId: text('invoice_id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().unique(),
    ...couponOfUser(),
    reservationId: text('reservation_id'),
    /** What the invoice took off, in minor units of `currency`. */
    discount: integer('discount').notNull().default(0),
    currency: text('currency'),
    /**
     * Paid when the coupon had no use left (two checkouts raced for the last one, see
     * docs/economy.md#coupons): honoured and recorded, not counted in times_redeemed.
     */
    overLimit: boolean('over_limit').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('coupon_redemptions_coupon_idx').on(t.couponId)],
);
