import { z } from 'zod';
import { AuditRangeBoundSchema } from './audit.ts';
import { IdSchema, PageQuerySchema } from './common.ts';

/**
 * The console's money pages (orders, Stripe subscriptions, invite statistics). Plans and prices,
 * redeem codes and coupons keep their own contracts (plans.ts, redeem-codes.ts, coupons.ts).
 * Every figure here is aggregated by the database.
 */

/** `from` inclusive; `to` exclusive for a date-time, a date alone included whole (AuditRangeBoundSchema). */
const dateRange = {
  from: AuditRangeBoundSchema.optional(),
  to: AuditRangeBoundSchema.optional(),
};

/** Paging with an optional user filter: userId exactly, or a part of the e-mail. */
const userFilter = {
  userId: IdSchema.optional(),
  email: z.string().trim().min(1).max(200).optional(),
};

// ---- orders (vip_orders: plan time a user holds, whatever its source) ----

/** Derived, not stored: refunded wins; else scheduled (not started), active, or ended by the clock. */
export const ORDER_STATUSES = ['active', 'scheduled', 'ended', 'refunded'] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

export const ORDER_SOURCES = ['stripe', 'redeem', 'admin', 'grant'] as const;
export const OrderSourceSchema = z.enum(ORDER_SOURCES);

/** GET /api/admin/Vip/GetOrderList: newest first; the date range applies to the order's creation time. */
export const AdminOrderListQuerySchema = PageQuerySchema.extend({
  status: OrderStatusSchema.optional(),
  source: OrderSourceSchema.optional(),
  ...userFilter,
  ...dateRange,
});
export type AdminOrderListQuery = z.infer<typeof AdminOrderListQuerySchema>;

export const AdminOrderSchema = z.object({
  vipOrderId: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  /** 1 Standard, 2 Advanced, 3 Super. */
  packageLevel: z.number().int(),
  packageName: z.string(),
  packageId: z.string().nullable(),
  period: z.enum(['month', 'year']).nullable(),
  source: OrderSourceSchema,
  status: OrderStatusSchema,
  /** What was paid, in minor units of currency (paid orders only). */
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  createTime: z.string(),
  refundTime: z.string().nullable(),
  /** A chargeback of the order's payment: open, won or lost (a lost one also ended the order: refunded). */
  dispute: z.enum(['open', 'won', 'lost']).nullable(),
  stripeInvoiceId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  /** Plan points the order granted, and how many were taken back (refund, expiry). */
  pointsGranted: z.number().int(),
  pointsTaken: z.number().int(),
  /** The user removed it from their own list (an order in force stays in force). */
  hiddenByUser: z.boolean(),
});
export type AdminOrder = z.infer<typeof AdminOrderSchema>;

export const AdminOrderIdQuerySchema = z.object({ vipOrderId: IdSchema });

// ---- Stripe subscriptions ----

/** Stripe's statuses; others Stripe may add are still listed (unfiltered). */
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused'] as const;
export const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);

/** GET /api/admin/Vip/GetSubscriptionList: most recently changed first. */
export const AdminSubscriptionListQuerySchema = PageQuerySchema.extend({
  status: SubscriptionStatusSchema.optional(),
  ...userFilter,
});
export type AdminSubscriptionListQuery = z.infer<typeof AdminSubscriptionListQuerySchema>;

export const AdminSubscriptionSchema = z.object({
  /** Stripe's id (sub_...). */
  subscriptionId: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  customerId: z.string().nullable(),
  packageId: z.string(),
  /** The package's current name and terms; null when the package row is gone. */
  packageName: z.string().nullable(),
  level: z.number().int().nullable(),
  period: z.enum(['month', 'year']).nullable(),
  status: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminSubscription = z.infer<typeof AdminSubscriptionSchema>;

// ---- invite statistics ----

/** GET /api/admin/InviteCode/GetStatistics: sign-ups with an inviter and invite credits in the range. */
export const InviteStatisticsQuerySchema = z.object({
  ...dateRange,
  /** How many top inviters (by invitees in the range, then points). */
  top: z.coerce.number().int().min(1).max(100).default(20),
});
export type InviteStatisticsQuery = z.infer<typeof InviteStatisticsQuerySchema>;

export const InviterStatSchema = z.object({
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  /** Accounts that signed up with this inviter's code in the range. */
  invitees: z.number().int(),
  /** Invite credits the inviter received in the range (one per invitee who sent a first message). */
  credited: z.number().int(),
  /** Points those credits granted. */
  pointsGranted: z.number().int(),
});
export type InviterStat = z.infer<typeof InviterStatSchema>;

export const InviteStatisticsSchema = z.object({
  /** The range as applied (ISO date-times; from inclusive, to exclusive); null: unbounded. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  totals: z.object({
    /** Sign-ups with an inviter. */
    invitees: z.number().int(),
    /** Distinct accounts with at least one invitee signing up. */
    inviters: z.number().int(),
    /** Invite credits on the ledger, and their points. */
    credited: z.number().int(),
    pointsGranted: z.number().int(),
  }),
  /** Per UTC day with any activity, oldest first. */
  days: z.array(z.object({ day: z.string(), invitees: z.number().int(), credited: z.number().int(), pointsGranted: z.number().int() })),
  top: z.array(InviterStatSchema),
});
export type InviteStatistics = z.infer<typeof InviteStatisticsSchema>;
