import { z } from 'zod';
import { IdSchema } from './common.ts';
import { CurrencySchema, VipPeriodSchema } from './plans.ts';

/**
 * Coupons (docs/economy.md#coupons): discounts an operator defines, applied at checkout through
 * Stripe. Unlike redeem codes they are not secret: anyone may ask what a code gives.
 */

/** Trimmed and upper case (codes are case-insensitive); 4 to 32 of A–Z, 0–9 and -. */
export const CouponCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9-]{4,32}$/, 'couponCodeInvalid');

export const CouponDurationSchema = z.enum(['once', 'forever']);

const DateTimeSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** POST /api/admin/Coupons/Save: creates a coupon, or replaces the one with couponId. */
export const SaveCouponSchema = z
  .object({
    /** Absent: a new coupon. */
    couponId: IdSchema.optional(),
    code: CouponCodeSchema,
    /** 1 to 100; or amountOff with its currency. */
    percentOff: z.number().int().min(1).max(100).nullish(),
    /** Minor units of `currency` (cents, fen). */
    amountOff: z.number().int().min(1).max(100_000_000).nullish(),
    currency: CurrencySchema.nullish(),
    /** The packages it applies to; empty: all. */
    vipPackageIds: z.array(IdSchema).max(100).default([]),
    /** The periods it applies to; empty: both. */
    periods: z.array(VipPeriodSchema).max(2).default([]),
    /** ISO date-times with their offset, or dates alone (their start, UTC); absent: no bound. */
    validFrom: DateTimeSchema.nullish(),
    validTo: DateTimeSchema.nullish(),
    /** Redemptions allowed in all; absent: no limit. */
    maxRedemptions: z.number().int().min(1).max(10_000_000).nullish(),
    /** once: the first invoice; forever: every invoice of the subscription. */
    duration: CouponDurationSchema.default('once'),
    disabled: z.boolean().default(false),
  })
  .refine((c) => (c.percentOff == null) !== (c.amountOff == null), 'couponDiscountRequired')
  .refine((c) => (c.amountOff == null ? c.currency == null : c.currency != null), { message: 'couponCurrencyRequired', path: ['currency'] })
  .refine((c) => !c.validFrom || !c.validTo || Date.parse(c.validFrom) < Date.parse(c.validTo), { message: 'couponDatesInvalid', path: ['validTo'] });
export type SaveCoupon = z.infer<typeof SaveCouponSchema>;

/** A coupon as operators see it. */
export const AdminCouponSchema = z.object({
  couponId: z.string(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().int().nullable(),
  currency: z.string().nullable(),
  vipPackageIds: z.array(z.string()),
  periods: z.array(VipPeriodSchema),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  maxRedemptions: z.number().int().nullable(),
  /** Redemptions counted against maxRedemptions. */
  timesRedeemed: z.number().int(),
  /** Checkouts holding a use now (not paid yet, not lapsed). */
  reserved: z.number().int(),
  /** Invoices paid with it after its last use was gone (honoured, not counted): see docs/economy.md#coupons. */
  overLimit: z.number().int(),
  duration: CouponDurationSchema,
  disabled: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminCoupon = z.infer<typeof AdminCouponSchema>;

/** POST /api/admin/Coupons/Disable: disabled false enables it again. */
export const DisableCouponSchema = z.object({ couponId: IdSchema, disabled: z.boolean() });

/** GET /api/Coupons/CheckCoupon. */
export const CheckCouponQuerySchema = z.object({
  code: z.string().max(100),
  /** The package about to be bought; absent: any package it applies to. */
  vipPackageId: IdSchema.optional(),
  /** The currency about to be paid in (an amount off is in one currency only). */
  currency: CurrencySchema.optional(),
});

export const CheckCouponResultSchema = z.object({
  valid: z.boolean(),
  /** Present when the coupon exists: its terms. */
  percentOff: z.number().int().optional(),
  amountOff: z.number().int().optional(),
  currency: z.string().optional(),
  duration: CouponDurationSchema.optional(),
  /** The packages on sale it applies to (ids of GetVipPackageList); empty when it does not exist. */
  appliesTo: z.array(z.string()),
  validTo: z.string().nullable(),
  /** What it gives, or why it cannot be used, in the caller's language. */
  message: z.string(),
});
export type CheckCouponResult = z.infer<typeof CheckCouponResultSchema>;

/** POST /api/User/CheckPromoCode. */
export const CheckPromoCodeBodySchema = z.object({ code: z.string().max(200) });

/**
 * coupon: one of the coupons here (CheckCoupon tells what it gives); redeem: a redeem code that can
 * be redeemed now (RedeemCode redeems it); unknown: anything else, alike, so codes cannot be probed.
 */
export const CheckPromoCodeResultSchema = z.object({ kind: z.enum(['coupon', 'redeem', 'unknown']) });
export type PromoCodeKind = z.infer<typeof CheckPromoCodeResultSchema>['kind'];
