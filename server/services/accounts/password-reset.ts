import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import { passwordResets } from '../../db/schema/audit.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { maskEmail } from '../../core/log-safety.ts';
import { t } from '../../core/i18n.ts';
import { mailConfigured, sendMail } from '../../providers/mail.ts';
import { hashPassword, readSettings } from './accounts.ts';
import { hashSecret, newSecret, revokeAllTokens } from './auth.ts';
import { settingValues } from '../system/settings.ts';

/**
 * Password reset by an operator (docs/api.md#password-reset): there is no self-service "forgot
 * password" because the server may have no e-mail; an admin makes a link and passes it on, and the
 * server e-mails it too when SMTP_URL is set. Tokens are random, stored hashed, single-use, one hour;
 * a new link makes the older ones useless.
 */

export const RESET_TTL_MS = 60 * 60 * 1000;

export async function createPasswordReset(
  ctx: AppContext,
  actorId: string,
  userId: string,
): Promise<{ link: string; expireTime: string; emailed: boolean }> {
  const [account] = await ctx.db
    .select({ id: users.id, email: users.email, settings: users.settings })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) throw new AppError(Codes.NotFound, 'notFound');
  const token = newSecret();
  const expiresAt = new Date(Date.now() + RESET_TTL_MS);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({ tokenHash: hashSecret(token), userId, createdBy: actorId, expiresAt });
  });
  const link = `${ctx.config.publicUrl}/login?reset=${encodeURIComponent(token)}`;
  let emailed = false;
  if (mailConfigured(ctx.config)) {
    const lang: Language = readSettings(account.settings).language ?? 'en';
    const { product_name: product } = await settingValues(ctx, ['product_name'] as const);
    try {
      await sendMail(ctx.config, {
        to: account.email,
        subject: t(lang, 'resetMailSubject', { product }),
        text: t(lang, 'resetMailBody', { product, email: account.email, link }),
      });
      emailed = true;
    } catch (err) {
      // The link still works: the operator passes it on by hand.
      ctx.log.warn({ err, email: maskEmail(account.email) }, 'e-mailing a password-reset link failed');
    }
  }
  return { link, expireTime: expiresAt.toISOString(), emailed };
}

/**
 * Sets the password with a reset token: the token is consumed in the same transaction as the new
 * password, so two uses at once change it once; every login of the account is revoked after.
 */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const userId = await ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.tokenHash, hashSecret(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning({ userId: passwordResets.userId });
    if (!used) throw new AppError(Codes.LoginFailed, 'resetTokenInvalid');
    // The new password opens the account at once, even during a login back-off.
    await tx
      .update(users)
      .set({ passwordHash, failedLogins: 0, loginBlockedUntil: null, updatedAt: sql`now()` })
      .where(eq(users.id, used.userId));
    return used.userId;
  });
  await revokeAllTokens(ctx, userId);
}
