import { z } from 'zod';
import { LanguageSchema } from './common.ts';

export const VipOrderSchema = z.object({
  vipOrderId: z.string(),
  vipPackageLevel: z.number().int(),
  vipPackageName: z.string(),
  endTime: z.string(),
});
export type VipOrder = z.infer<typeof VipOrderSchema>;

export const UserInfoSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  /** null for free users. */
  vipOrder: VipOrderSchema.nullable(),
  /**
   * The user's picture: a path on the server (GET /api/Account/GetHeadImg?headImgId=…), a new one each
   * time it changes; null without one. Absent from servers older than pictures.
   */
  headImg: z.string().nullable().optional(),
  /** The phone number the user gave (normalised), null without one. Absent from servers older than it. */
  phone: z.string().nullable().optional(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const TempKeyQuerySchema = z.object({ tempKey: z.string().trim().min(1).max(200) });

/** GET /api/User/GetTokenForTest (test runs only, TEST_TOKEN_ROUTE): the account to sign in as. */
export const TestTokenQuerySchema = z.object({ email: z.email().max(254) });

/**
 * The user's points of one kind (docs/economy.md#the-ledger). `integralValue` is what can be spent
 * now: `kept` plus `freeLeft`. The parts are absent from servers older than them.
 */
export const IntegralEntrySchema = z.object({
  integralType: z.number().int(),
  integralValue: z.number().int(),
  /** Points spent so far, free allowance included, less refunds. */
  useIntegral: z.number().int(),
  /** Today's free allowance left: spent first, refilled each day, never carried over. */
  freeLeft: z.number().int().optional(),
  /** The free allowance of each day (FREE_DAILY_POINTS); 0 when there is none. */
  freeDaily: z.number().int().optional(),
  /** When the free allowance is refilled next, an ISO instant (midnight of the server's day). */
  freeResetsAt: z.string().optional(),
  /** Points that do not reset each day: earned, bought, granted (the balance of the ledger). */
  kept: z.number().int().optional(),
});
export type IntegralEntry = z.infer<typeof IntegralEntrySchema>;

export const UpdateNickNameRequestSchema = z.object({
  userName: z.string().trim().min(1, 'nicknameRequired').max(50),
});

const Text500 = z.string().max(500);

/** The user's settings document; every field optional so older documents stay valid. */
export const UserSettingSchema = z
  .object({
    language: LanguageSchema,
    sendShortcut: z.enum(['enter', 'ctrlEnter']),
    defaultModelId: z.string().max(64),
    /** The sidebar floating icon on web pages. */
    showFloatingIcon: z.boolean(),
    /** The personalization form: occupation, desired assistant traits, other info. */
    personalization: z.object({ occupation: Text500, traits: Text500, otherInfo: Text500 }).partial().strict(),
  })
  .partial()
  .strict();
export type UserSetting = z.infer<typeof UserSettingSchema>;
