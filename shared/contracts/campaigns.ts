import { z } from 'zod';
import { IdSchema, pagedSchema, PageQuerySchema } from './common.ts';

/**
 * Campaigns (MarketActivity, docs/api.md#campaigns): cards an operator shows to an audience for a
 * while, optionally with a reward each user claims once (points, or a coupon's code for checkout).
 */

export const CampaignLanguageSchema = z.enum(['all', 'en', 'zh']);
export const CampaignRewardTypeSchema = z.enum(['none', 'points', 'coupon']);
export type CampaignRewardType = z.infer<typeof CampaignRewardTypeSchema>;

const DateTimeSchema = z.iso.datetime({ offset: true });

/** A picture uploaded with UploadImage, by the address it answered (relative: the client prefixes its server). */
export const CAMPAIGN_IMAGE_PATH = '/api/MarketActivity/GetImage?imageId=';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PictureUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .regex(new RegExp(`^(https://\\S+|/api/MarketActivity/GetImage\\?imageId=${UUID})$`, 'i'), 'campaignImageInvalid');

/** GET /api/MarketActivity/GetImage. */
export const CampaignImageQuerySchema = z.object({ imageId: z.string().trim().regex(new RegExp(`^${UUID}$`)) });
/** POST /api/admin/MarketActivity/UploadImage: the stored picture's id and its address, for imageUrl. */
export const CampaignImageSchema = z.object({ imageId: z.string(), imageUrl: z.string() });
/** The upload's limits: as a chat image; stored as WebP at most this wide. */
export const CAMPAIGN_IMAGE = { maxBytes: 10 * 1024 * 1024, width: 1200 } as const;

/** POST /api/admin/MarketActivity/Save: creates a campaign, or replaces the one with campaignId. */
export const SaveCampaignSchema = z
  .object({
    /** Absent: a new campaign. */
    campaignId: IdSchema.optional(),
    titleEn: z.string().trim().min(1).max(100),
    titleZh: z.string().trim().min(1).max(100),
    bodyEn: z.string().trim().max(2000).default(''),
    bodyZh: z.string().trim().max(2000).default(''),
    /** The picture: an https:// address, or one UploadImage answered; null or absent: none. */
    imageUrl: PictureUrlSchema.nullish(),
    startTime: DateTimeSchema,
    endTime: DateTimeSchema,
    /** Plan levels shown to (0 = free accounts, 1 to 3 = plans); empty: everyone. */
    planLevels: z.array(z.number().int().min(0).max(3)).max(4).default([]),
    language: CampaignLanguageSchema.default('all'),
    /** Only accounts made within this many days; absent: any account. */
    newUserDays: z.number().int().min(1).max(3650).nullish(),
    rewardType: CampaignRewardTypeSchema.default('none'),
    /** With rewardType points: points each claim credits. */
    rewardPoints: z.number().int().min(1).max(10_000_000).nullish(),
    /** With rewardType coupon: the coupon (Coupons/GetList) whose code a claim hands out. */
    rewardCouponId: IdSchema.nullish(),
    /** Claims allowed in all; absent: no limit. */
    maxClaims: z.number().int().min(1).max(10_000_000).nullish(),
  })
  .refine((c) => Date.parse(c.startTime) < Date.parse(c.endTime), { message: 'campaignDatesInvalid', path: ['endTime'] })
  .refine((c) => (c.rewardType === 'points' ? c.rewardPoints != null : c.rewardPoints == null), { message: 'campaignRewardPointsInvalid', path: ['rewardPoints'] })
  .refine((c) => (c.rewardType === 'coupon' ? c.rewardCouponId != null : c.rewardCouponId == null), { message: 'campaignRewardCouponInvalid', path: ['rewardCouponId'] })
  .refine((c) => c.rewardType !== 'none' || c.maxClaims == null, { message: 'campaignMaxClaimsWithoutReward', path: ['maxClaims'] });
export type SaveCampaign = z.infer<typeof SaveCampaignSchema>;

export const CampaignIdBodySchema = z.object({ campaignId: IdSchema });
export const CampaignIdQuerySchema = z.object({ campaignId: IdSchema });

/** What a claim gave: points (credited to the balance) or a coupon's code to type at checkout. */
export const CampaignClaimResultSchema = z.object({
  rewardType: z.enum(['points', 'coupon']),
  points: z.number().int().nullable(),
  couponCode: z.string().nullable(),
  /** The points balance after a points claim; null for a coupon. */
  balance: z.number().int().nullable(),
  claimTime: z.string(),
});
export type CampaignClaimResult = z.infer<typeof CampaignClaimResultSchema>;

/** A campaign as a user sees it, in the caller's language. */
export const CampaignSchema = z.object({
  campaignId: z.string(),
  title: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  rewardType: CampaignRewardTypeSchema,
  rewardPoints: z.number().int().nullable(),
  /** With a coupon reward: what the coupon takes off, in words. */
  rewardText: z.string().nullable(),
  /** Claims left under the budget; null: no limit. */
  claimsLeft: z.number().int().nullable(),
  dismissed: z.boolean(),
  /** The caller's claim, when made. */
  claim: CampaignClaimResultSchema.nullable(),
});
export type Campaign = z.infer<typeof CampaignSchema>;

/** GET /api/MarketActivity/GetList: all: also the campaigns the caller dismissed (the campaigns page). */
export const CampaignListQuerySchema = z.object({ all: z.enum(['true', 'false']).default('false').transform((v) => v === 'true') });
export const CampaignListSchema = z.array(CampaignSchema);

export const CampaignViewResultSchema = z.object({ counted: z.boolean() });

/** A campaign as operators see it, with its views, claims and cost. */
export const AdminCampaignSchema = z.object({
  campaignId: z.string(),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  imageUrl: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  planLevels: z.array(z.number().int()),
  language: CampaignLanguageSchema,
  newUserDays: z.number().int().nullable(),
  rewardType: CampaignRewardTypeSchema,
  rewardPoints: z.number().int().nullable(),
  rewardCouponId: z.string().nullable(),
  /** The reward coupon's code, when there is one. */
  rewardCouponCode: z.string().nullable(),
  maxClaims: z.number().int().nullable(),
  /** scheduled, active or ended, now. */
  status: z.enum(['scheduled', 'active', 'ended']),
  /** Users who saw it (each counted once). */
  views: z.number().int(),
  dismissals: z.number().int(),
  claims: z.number().int(),
  /** Points credited by its claims, from the ledger. */
  pointsCost: z.number().int(),
  /** Paid invoices of claimants that used the reward coupon, and what they took off (minor units, per currency). */
  couponRedemptions: z.number().int(),
  couponDiscounts: z.record(z.string(), z.number().int()),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminCampaign = z.infer<typeof AdminCampaignSchema>;

export const AdminCampaignPageSchema = pagedSchema(AdminCampaignSchema);

export const AdminCampaignClaimQuerySchema = PageQuerySchema.extend({ campaignId: IdSchema });
export const AdminCampaignClaimSchema = z.object({
  userId: z.string(),
  email: z.string(),
  userName: z.string(),
  rewardType: z.enum(['points', 'coupon']),
  points: z.number().int().nullable(),
  couponCode: z.string().nullable(),
  claimTime: z.string(),
});
export type AdminCampaignClaim = z.infer<typeof AdminCampaignClaimSchema>;
export const AdminCampaignClaimPageSchema = pagedSchema(AdminCampaignClaimSchema);
