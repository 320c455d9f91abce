import { z } from 'zod';
import { IdSchema, pagedSchema, PageQuerySchema } from './common.ts';

/** Operators' view of invite codes and their uses (docs/economy.md#invites). */

/** GET /api/admin/InviteCode/GetList: keyword finds a code, an owner's e-mail or name. */
export const AdminInviteCodeQuerySchema = PageQuerySchema.extend({
  keyword: z.string().trim().max(200).optional(),
  status: z.enum(['all', 'active', 'disabled']).default('all'),
});

export const AdminInviteCodeSchema = z.object({
  inviteCode: z.string(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  ownerName: z.string(),
  disabled: z.boolean(),
  disabledTime: z.string().nullable(),
  /** Accounts that signed up with it. */
  usedCount: z.number().int(),
  /** Of those, the ones whose invite credited the owner, and the points credited. */
  creditedCount: z.number().int(),
  pointsPaid: z.number().int(),
});
export type AdminInviteCode = z.infer<typeof AdminInviteCodeSchema>;
export const AdminInviteCodePageSchema = pagedSchema(AdminInviteCodeSchema);

/** POST /api/admin/InviteCode/Disable: disabled false enables it again. */
export const DisableInviteCodeSchema = z.object({ ownerId: IdSchema, disabled: z.boolean() });

/** GET /api/admin/InviteCodeUsed/GetList: keyword finds a code, an invitee's or an inviter's e-mail or name. */
export const AdminInviteUseQuerySchema = PageQuerySchema.extend({
  keyword: z.string().trim().max(200).optional(),
  ownerId: IdSchema.optional(),
});

export const AdminInviteUseSchema = z.object({
  inviteCode: z.string(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  inviteeId: z.string(),
  inviteeEmail: z.string(),
  inviteeName: z.string(),
  /** When the invitee signed up. */
  useTime: z.string(),
  /** The reward paid to the owner, from the ledger: null until credited. */
  pointsPaid: z.number().int().nullable(),
  paidTime: z.string().nullable(),
});
export type AdminInviteUse = z.infer<typeof AdminInviteUseSchema>;
export const AdminInviteUsePageSchema = pagedSchema(AdminInviteUseSchema);
