import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * Plans, orders and payments (docs/economy.md#plans, #payments-stripe, #orders). Prices are in minor
 * units of their currency (cents, fen): {usd: 999} is 9.99 USD.
 */

export const VipPeriodSchema = z.enum(['month', 'year']);
export type VipPeriod = z.infer<typeof VipPeriodSchema>;

/** The free plan's id in the public package list (it is no stored package). */
export const FREE_VIP_PACKAGE_ID = 'free';

/** GET /api/Vip/GetVipLevelList: a plan level (0 Free, 1 Standard, 2 Advanced, 3 Super), named in the caller's language. */
export const VipLevelItemSchema = z.object({ level: z.number().int(), name: z.string() });
export type VipLevelItem = z.infer<typeof VipLevelItemSchema>;
export const VipLevelListSchema = z.array(VipLevelItemSchema);

/** GET /api/Vip/GetVipDateTypeList: a billing period a package can be sold for, named in the caller's language. */
export const VipDateTypeSchema = z.object({ period: VipPeriodSchema, months: z.number().int(), name: z.string() });
export type VipDateType = z.infer<typeof VipDateTypeSchema>;
export const VipDateTypeListSchema = z.array(VipDateTypeSchema);

/** An ISO 4217 currency code, lower case as Stripe writes it (usd, cny, eur). */
export const CurrencySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{3}$/, 'currencyInvalid');

const PriceMapSchema = z.record(CurrencySchema, z.number().int().min(0).max(100_000_000));

/** One package of the public list, priced in the asked currency. The free plan is level 0, price 0. */
export const VipPackageSchema = z.object({
  vipPackageId: z.string(),
  name: z.string(),
  /** 0 Free, 1 Standard, 2 Advanced, 3 Super. */
  level: z.number().int(),
  levelName: z.string(),
  period: VipPeriodSchema,
  currency: z.string(),
  /** Minor units of `currency`. */
  price: z.number().int(),
  /** Points each month of the plan gives. */
  monthlyPoints: z.number().int(),
  /** Points a paid period grants at once: monthlyPoints times the period's months. */
  periodPoints: z.number().int(),
  bestDeal: z.boolean(),
  sort: z.number().int(),
});
export type VipPackage = z.infer<typeof VipPackageSchema>;

export const VipPackageListQuerySchema = z.object({ currency: CurrencySchema.optional() });

export const VipPackageListSchema = z.object({
  currency: z.string(),
  /** Payments are set up (Stripe): CreateCheckout can be called. */
  checkoutAvailable: z.boolean(),
  /** The free allowance every account gets each day (FREE_DAILY_POINTS). */
  freeDailyPoints: z.number().int(),
  /** Where the caller is (ISO 3166-1 alpha-2, as IsChina answers; null when unknown): what paymentMethods was chosen for. */
  country: z.string().nullable().default(null),
  /**
   * The ways to pay shown to this caller, decided by the server in one place (services/plans/plans.ts
   * paymentMethodsFor): today a card through Stripe Checkout, everywhere, when payments are set up.
   */
  paymentMethods: z.array(z.enum(['card'])).default([]),
  /** The free plan first, then the online packages priced in `currency`, by sort. */
  list: z.array(VipPackageSchema),
});
export type VipPackageList = z.infer<typeof VipPackageListSchema>;

/** A package as operators see and save it. */
export const AdminVipPackageSchema = z.object({
  vipPackageId: z.string(),
  name: z.string(),
  level: z.number().int(),
  period: VipPeriodSchema,
  prices: z.record(z.string(), z.number().int()),
  stripePriceIds: z.record(z.string(), z.string()),
  monthlyPoints: z.number().int(),
  bestDeal: z.boolean(),
  online: z.boolean(),
  sort: z.number().int(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminVipPackage = z.infer<typeof AdminVipPackageSchema>;

/** Letters, digits, - and _: the id travels in Stripe's metadata and in URLs. */
const PackageIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'vipPackageIdInvalid');

/** POST /api/admin/Vip/SavePackage: creates the package, or replaces the one with this id. */
export const SaveVipPackageSchema = z
  .object({
    /** Absent: a new package with an id made up from its level and period. */
    vipPackageId: PackageIdSchema.optional(),
    /** Absent: the level's name (Standard, Advanced, Super). */
    name: z.string().trim().min(1).max(100).optional(),
    level: z.number().int().min(1).max(3),
    period: VipPeriodSchema,
    prices: PriceMapSchema.refine((p) => Object.keys(p).length > 0, 'vipPackagePriceRequired'),
    stripePriceIds: z.record(CurrencySchema, z.string().trim().regex(/^price_[A-Za-z0-9_]{1,200}$/, 'stripePriceIdInvalid')).default({}),
    monthlyPoints: z.number().int().min(0).max(10_000_000).default(0),
    bestDeal: z.boolean().default(false),
    online: z.boolean().default(true),
    sort: z.number().int().min(-100_000).max(100_000).default(0),
  })
  .refine((p) => Object.keys(p.stripePriceIds).every((c) => c in p.prices), { message: 'stripePriceWithoutPrice', path: ['stripePriceIds'] });
export type SaveVipPackage = z.infer<typeof SaveVipPackageSchema>;

export const VipPackageIdBodySchema = z.object({ vipPackageId: IdSchema });

/** POST /api/admin/Vip/ExtendEndTime: plan days granted by an operator, once per requestId. */
export const ExtendEndTimeSchema = z.object({
  userId: IdSchema,
  level: z.number().int().min(1).max(3),
  days: z.number().int().min(1).max(3660),
  requestId: z.string().trim().min(8).max(64),
});
export type ExtendEndTime = z.infer<typeof ExtendEndTimeSchema>;

export const ExtendEndTimeResultSchema = z.object({
  /** False: this requestId was applied before; the order it made is answered. */
  applied: z.boolean(),
  vipOrderId: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});

/** POST /api/Vip/CreateCheckout. */
export const CreateCheckoutSchema = z.object({
  vipPackageId: IdSchema,
  currency: CurrencySchema,
  /** A coupon code (docs/economy.md#coupons), else a Stripe promotion code; absent: Checkout offers its own coupon field. */
  couponCode: z.string().trim().max(100).optional(),
});
export type CreateCheckout = z.infer<typeof CreateCheckoutSchema>;

/** Where to send the browser: Stripe's checkout page or its customer portal. */
export const RedirectUrlSchema = z.object({ url: z.string() });

export const SubscriptionChangeSchema = z.object({
  cancelAtPeriodEnd: z.boolean(),
  /** The end of the paid period (ISO): the plan runs until then. */
  endTime: z.string().nullable(),
});

/** The caller's subscription (the latest one), or null when there never was one. */
export const SubscriptionSchema = z.object({
  subscriptionId: z.string(),
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, ... */
  status: z.string(),
  level: z.number().int(),
  packageName: z.string(),
  period: VipPeriodSchema,
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** The customer portal can be opened (CreatePortalSession). */
  portalAvailable: z.boolean(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** The statuses of a subscription that still runs, and bills: a user has at most one such at a time. */
export const RUNNING_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];
export const isRunningSubscription = (status: string | null | undefined): boolean => !!status && RUNNING_SUBSCRIPTION_STATUSES.includes(status);

export const VipOrderStatusSchema = z.enum(['paid', 'refunded', 'granted']);

/** One order of the user's list: what it gave, from when to when, and what was paid. */
export const VipOrderSchema = z.object({
  vipOrderId: z.string(),
  vipPackageId: z.string().nullable(),
  packageName: z.string(),
  level: z.number().int(),
  period: VipPeriodSchema.nullable(),
  /** stripe (paid), redeem (a code), admin (an operator's grant), grant (older grants). */
  source: z.string(),
  /** paid, refunded (a full refund ended it), granted (a code or an operator). */
  status: VipOrderStatusSchema,
  /** Minor units of `currency`; null for granted orders. */
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  points: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  /** It has started and not ended. */
  active: z.boolean(),
  createTime: z.string(),
});
export type VipOrder = z.infer<typeof VipOrderSchema>;

export const VipOrderIdQuerySchema = z.object({ vipOrderId: IdSchema });
export const VipOrderIdBodySchema = z.object({ vipOrderId: IdSchema });

/** The webhook's answer: received, and whether this delivery changed anything (false: a replay, or an event type not used). */
export const WebhookResultSchema = z.object({ received: z.boolean(), applied: z.boolean() });
