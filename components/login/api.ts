import type { ResetPassword } from '../../shared/contracts/password-reset.ts';
import { VerifyEmailResultSchema, type VerifyEmailRequest, type VerifyEmailResult } from '../../shared/contracts/email-verification.ts';
import { apiPost } from '../../shared/api/request.ts';

/** Sets a new password with a reset link's token; an unknown, used or expired token fails (10401, resetTokenInvalid). */
export async function resetPassword(body: ResetPassword): Promise<void> {
  await apiPost('/api/Account/ResetPassword', body);
}

/** Verifies an e-mail address with a verification link's token; a used, expired or unknown token fails (10400). */
export function verifyEmail(body: VerifyEmailRequest): Promise<VerifyEmailResult> {
  return apiPost('/api/Account/VerifyEmail', body, { data: VerifyEmailResultSchema });
}
