import { z } from 'zod';
import { AddUserRequestSchema } from './account.ts';

/**
 * POST /api/Account/ResetPassword: sets a new password with the single-use token of a reset link
 * (/login?reset=<token>). Revokes every login of the account. An unknown, used or expired token is
 * answered 10401 (resetTokenInvalid).
 */
export const ResetPasswordSchema = z.object({
  token: z.string().trim().min(16).max(200),
  // The same rule as at sign-up.
  password: AddUserRequestSchema.shape.password,
});
export type ResetPassword = z.infer<typeof ResetPasswordSchema>;
