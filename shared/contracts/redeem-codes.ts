import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';

/** Redeem codes (docs/economy.md#redeem-codes): operators generate batches, users redeem codes. */

/** An expiry: an ISO date-time with its offset, or a date alone (its start, in UTC). */
const ExpirySchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** POST /api/admin/RedeemCode/GenerateBatch. */
export const RedeemBatchCreateSchema = z
  .object({
    /** The operator's name for the batch; users see it in their points history. */
    name: z.string().trim().min(1).max(100),
    count: z.number().int().min(1).max(10_000),
    /** Points each redeem adds. */
    points: z.number().int().min(0).max(1_000_000).default(0),
    /** Plan days each redeem adds at planLevel. */
    planDays: z.number().int().min(0).max(3660).default(0),
    /** 1 Standard, 2 Advanced, 3 Super; needed with planDays. */
    planLevel: z.number().int().min(0).max(3).default(0),
    /** Redeems each code allows in all (each user once). */
    usesPerCode: z.number().int().min(1).max(100_000).default(1),
    expiresAt: ExpirySchema.nullish(),
  })
  .refine((b) => b.points > 0 || b.planDays > 0, 'redeemBatchEmpty')
  .refine((b) => b.planDays === 0 || b.planLevel >= 1, { message: 'redeemPlanLevelRequired', path: ['planLevel'] })
  .refine((b) => !b.expiresAt || Date.parse(b.expiresAt) > Date.now(), { message: 'redeemExpiryPast', path: ['expiresAt'] });
export type RedeemBatchCreate = z.infer<typeof RedeemBatchCreateSchema>;

export const RedeemBatchCreatedSchema = z.object({ batchId: z.string(), count: z.number().int() });

export const RedeemBatchSchema = z.object({
  id: z.string(),
  name: z.string(),
  points: z.number().int(),
  planDays: z.number().int(),
  planLevel: z.number().int(),
  usesPerCode: z.number().int(),
  /** ISO date-time, or null: never expires. */
  expiresAt: z.string().nullable(),
  disabled: z.boolean(),
  /** Codes in the batch. */
  codeCount: z.number().int(),
  /** Redeems of the batch's codes so far, all codes together. */
  redeemedCount: z.number().int(),
  createTime: z.string(),
});
export type RedeemBatch = z.infer<typeof RedeemBatchSchema>;

export const RedeemBatchQuerySchema = z.object({ batchId: IdSchema });

export const RedeemCodeListQuerySchema = PageQuerySchema.extend({ batchId: IdSchema });

export const RedeemCodeEntrySchema = z.object({
  /** Shown grouped, XXXX-XXXX-XXXX-XXXX. */
  code: z.string(),
  uses: z.number().int(),
});

/** POST /api/admin/RedeemCode/DisableBatch: disabled false enables the batch again. */
export const RedeemBatchDisableSchema = z.object({ batchId: IdSchema, disabled: z.boolean() });

/** POST /api/User/RedeemCode: case, dashes and spaces do not matter. */
export const RedeemCodeBodySchema = z.object({ code: z.string().max(200) });

export const RedeemResultSchema = z.object({
  kind: z.enum(['points', 'plan', 'both']),
  points: z.number().int(),
  planDays: z.number().int(),
  planLevel: z.number().int(),
  /** The balance after the redeem. */
  balance: z.number().int(),
});
export type RedeemResult = z.infer<typeof RedeemResultSchema>;
