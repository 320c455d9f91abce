import { verify } from '@node-rs/argon2';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { UpdateUserPasswordRequest } from '../../../shared/contracts/account.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { maskEmail } from '../../core/log-safety.ts';
import { mailConfigured, sendMail } from '../../providers/mail.ts';
import { settingValues } from '../system/settings.ts';
import { hashPassword, readSettings } from './accounts.ts';
import { announceLoginsEnded, endLogins, hashSecret } from './auth.ts';
import { blockedSecondsSql, clearFailedLogins, recordFailedLogin } from './login-backoff.ts';

/**
 * A signed-in user changes their own password (docs/api.md#changing-ones-password). The current
 * password is checked as a login checks it, under the same per-account back-off (a wrong one counts
 * toward LOGIN_BACKOFF_AFTER, and a held account is refused before the hash is checked); the new one
 * follows sign-up's rule (the contract). The new hash and the end of every other login of the account
 * commit together; the login that asked stays valid (its token is not re-issued). With SMTP_URL the
 * account is told by e-mail, in its language; without it, or when the mail fails, nothing else does.
 */
export async function changePassword(
  ctx: AppContext,
  userId: string,
  currentToken: string,
  input: UpdateUserPasswordRequest,
  lang: Language,
): Promise<void> {
  const [account] = await ctx.db
    .select({ email: users.email, passwordHash: users.passwordHash, settings: users.settings, blockedSeconds: blockedSecondsSql })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
  if (account.blockedSeconds > 0) throw new AppError(Codes.RateLimited, 'passwordChangeBlocked', { seconds: account.blockedSeconds });
  const oldPassword = input.oldPassword ?? '';
  // An account made through a sign-in provider sets its first password without a current one.
  if (account.passwordHash !== null) {
    if (!oldPassword) throw new AppError(Codes.BadRequest, 'badRequest', { detail: `oldPassword: ${t(lang, 'currentPasswordRequired')}` });
    const ok = await verify(account.passwordHash, oldPassword).catch(() => false);
    if (!ok) {
      await recordFailedLogin(ctx.db, userId);
      throw new AppError(Codes.LoginFailed, 'currentPasswordWrong');
    }
    await clearFailedLogins(ctx.db, userId);
    if (input.newPassword === oldPassword) throw new AppError(Codes.BadRequest, 'passwordUnchanged');
  }

  const passwordHash = await hashPassword(input.newPassword);
  const changed = await ctx.db.transaction(async (tx) => {
    // Only over the hash that was checked: a change that landed meanwhile made the current password another.
    const rows = await tx
      .update(users)
      .set({ passwordHash, failedLogins: 0, loginBlockedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), account.passwordHash === null ? isNull(users.passwordHash) : eq(users.passwordHash, account.passwordHash)))
      .returning({ id: users.id });
    if (!rows.length) return false;
    await endLogins(tx, userId, hashSecret(currentToken));
    return true;
  });
  if (!changed) throw new AppError(Codes.LoginFailed, 'currentPasswordWrong');
  await announceLoginsEnded(ctx, userId);
  await mailPasswordChanged(ctx, account.email, readSettings(account.settings).language ?? lang);
}

/**
 * "Your password was changed", sent in the background: the answer does not wait for a slow SMTP
 * server, and a mail that cannot be sent is only logged (the password is changed either way).
 */
async function mailPasswordChanged(ctx: AppContext, email: string, lang: Language): Promise<void> {
  if (!mailConfigured(ctx.config)) return;
  const { product_name: product } = await settingValues(ctx, ['product_name'] as const);
  const time = new Date().toISOString().slice(0, 16).replace('T', ' ');
  sendMail(ctx.config, {
    to: email,
    subject: t(lang, 'passwordChangedMailSubject', { product }),
    text: t(lang, 'passwordChangedMailBody', { product, email, time }),
  }).catch((err: unknown) => ctx.log.warn({ err, email: maskEmail(email) }, 'e-mailing a password-change notice failed'));
}
