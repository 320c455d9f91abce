import { z } from 'zod';
import { pagedSchema } from './common.ts';

/** Invites (docs/economy.md#invites). The ledger's own contracts are in points.ts. */

/** The caller's own invite code, the link that carries it, and what it has earned so far. */
export const InviteInfoSchema = z.object({
  inviteCode: z.string(),
  /** PUBLIC_URL + '/?inviteCode=' + inviteCode: the sign-up page picks the code up from there. */
  inviteUrl: z.string(),
  /** Accounts that signed up with the code. */
  invitedCount: z.number().int(),
  /** Of those, the ones that earned the caller points (after their first message). */
  creditedCount: z.number().int(),
  pointsEarned: z.number().int(),
  /** What an invite earns now (the public setting invite_points). */
  pointsPerInvite: z.number().int(),
  /** An operator disabled the code: sign-ups with it no longer earn the caller anything. */
  disabled: z.boolean(),
});
export type InviteInfo = z.infer<typeof InviteInfoSchema>;

/** One account the caller invited. The name is masked ("Al***") and the e-mail never shown. */
export const InvitedAccountSchema = z.object({
  userName: z.string(),
  createTime: z.string(),
  credited: z.boolean(),
  /** Points the invite earned (0 until credited). */
  points: z.number().int(),
});
export type InvitedAccount = z.infer<typeof InvitedAccountSchema>;

export const InvitedAccountPageSchema = pagedSchema(InvitedAccountSchema);
