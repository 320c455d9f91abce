import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';

/** What caused a change of points (docs/economy.md#the-ledger). */
export const LedgerKindSchema = z.enum(['message', 'plugin', 'draw', 'checkin', 'redeem', 'invite', 'plan', 'admin', 'refund', 'expiry', 'opening', 'settle', 'campaign', 'translate']);
export type LedgerKind = z.infer<typeof LedgerKindSchema>;

/** One entry of the user's points history. */
export const LedgerEntrySchema = z.object({
  id: z.string(),
  kind: LedgerKindSchema,
  /** Change of the balance (negative when points were taken). */
  delta: z.number().int(),
  /** Points a use took from the free daily allowance, beside `delta`. */
  allowance: z.number().int(),
  /** The balance after this entry; null for entries older than the ledger's record of it. */
  balanceAfter: z.number().int().nullable(),
  note: z.string(),
  refId: z.string().nullable(),
  createTime: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const LedgerListQuerySchema = PageQuerySchema.extend({ kind: LedgerKindSchema.optional() });
export type LedgerListQuery = z.infer<typeof LedgerListQuerySchema>;

/** An operator's change to a balance: a grant (positive) or a deduction (negative), never zero. */
export const PointsChangeSchema = z
  .number()
  .int()
  .min(-10_000_000)
  .max(10_000_000)
  .refine((n) => n !== 0, 'pointsAmountZero');
/** Chosen by the caller once per intended change, so that a retry is applied once. */
export const ChangeRequestIdSchema = z.string().trim().min(8).max(64);

/**
 * An operator grants (positive) or deducts (negative) points. `requestId` is chosen by the caller
 * once per intended change, so a retried request is applied once.
 */
export const AdminAdjustPointsSchema = z.object({
  userId: IdSchema,
  amount: PointsChangeSchema,
  note: z.string().trim().min(1, 'pointsNoteRequired').max(200),
  requestId: ChangeRequestIdSchema,
});
export type AdminAdjustPoints = z.infer<typeof AdminAdjustPointsSchema>;

export const AdminAdjustPointsResultSchema = z.object({ applied: z.boolean(), balance: z.number().int() });

/** Whether `name` is a time zone this runtime knows (an IANA name such as Asia/Shanghai, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The user's time zone: it decides which calendar day a check-in counts for (docs/economy.md#check-in). */
export const TimeZoneSchema = z.string().trim().min(1).max(64).refine(isTimeZone, 'timeZoneInvalid');

/** POST /api/User/UserSignin. */
export const CheckinBodySchema = z.object({ timeZone: TimeZoneSchema });
export type CheckinBody = z.infer<typeof CheckinBodySchema>;

/** GET /api/User/IsUserSignin. */
export const CheckinQuerySchema = z.object({ timeZone: TimeZoneSchema });
export type CheckinQuery = z.infer<typeof CheckinQuerySchema>;

export const CheckinStatusSchema = z.object({
  /** Today's check-in is done. */
  signedIn: z.boolean(),
  /** Consecutive days checked in, ending today (or yesterday while today is not done yet). */
  streak: z.number().int(),
  /** The points today's check-in gives (or gave), a streak bonus included. */
  points: z.number().int(),
  /** The user's calendar day in their time zone, YYYY-MM-DD. */
  today: z.string(),
});
export type CheckinStatus = z.infer<typeof CheckinStatusSchema>;
