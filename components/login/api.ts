import type { ResetPassword } from '../../shared/contracts/password-reset.ts';
import { apiPost } from '../../shared/api/request.ts';

/** Sets a new password with a reset link's token; an unknown, used or expired token fails (10401, resetTokenInvalid). */
export async function resetPassword(body: ResetPassword): Promise<void> {
  await apiPost('/api/Account/ResetPassword', body);
}
