import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import {
  VERIFY_EMAIL_PARAM,
  VERIFY_LINK_TTL_HOURS,
  VERIFY_MAILS_PER_HOUR,
  type EmailState,
  type VerifyEmailResult,
} from '../../../shared/contracts/email-verification.ts';
import type { AppContext } from '../../context.ts';
import { emailVerifications } from '../../db/schema/email-verifications.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { maskEmail } from '../../core/log-safety.ts';
import { mailConfigured, sendMail } from '../../providers/mail.ts';
import { creditInviter } from '../points/invites.ts';
import { settingValues } from '../system/settings.ts';
import { readSettings } from './accounts.ts';
import { hashSecret, newSecret } from './auth.ts';

/**
 * Verified e-mail (docs/api.md#verified-e-mail). With SMTP_URL set, an account is mailed a link
 * (PUBLIC_URL/login?verifyEmail=<token>) that proves it owns its address, as password-reset links
 * are made: a random token stored only as a hash, single use, VERIFY_LINK_TTL_HOURS; a new link makes the
 * older ones useless. Verification is what the operator's setting
 * require_verified_email_for_invite_reward waits for before an inviter is credited.
 */

const LINK_TTL_MS = VERIFY_LINK_TTL_HOURS * 60 * 60 * 1000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function getEmailState(ctx: AppContext, userId: string): Promise<EmailState> {
  const [[account], [last]] = await Promise.all([
    ctx.db.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)),
    ctx.db
      .select({ sentAt: emailVerifications.sentAt })
      .from(emailVerifications)
      .where(and(eq(emailVerifications.userId, userId), sql`${emailVerifications.sentAt} is not null`))
      .orderBy(desc(emailVerifications.sentAt))
      .limit(1),
  ]);
  if (!account) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
  return {
    email: account.email,
    verified: !!account.verifiedAt,
    verifiedAt: iso(account.verifiedAt),
    canSend: mailConfigured(ctx.config),
    sentAt: iso(last?.sentAt ?? null),
  };
}

type Issued = { token: string; email: string; lang: Language };

/**
 * Makes a new link for the account, making its older ones useless, under the hourly limit. The
 * account's row is locked first, so two requests at once count each other and the older-links
 * update of one cannot miss the other's link. Null when the account is verified already.
 */
async function issueLink(ctx: AppContext, userId: string, lang: Language, limited: boolean): Promise<Issued | null> {
  return ctx.db.transaction(async (tx) => {
    const [account] = await tx
      .select({ email: users.email, settings: users.settings, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!account) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
    if (account.verifiedAt) return null;
    if (limited) {
      const [recent] = await tx
        .select({
          n: sql<number>`count(*)::int`.mapWith(Number),
          // Until the oldest mail of the hour leaves the window.
          wait: sql<number>`coalesce(extract(epoch from (min(${emailVerifications.createdAt}) + interval '1 hour' - now())), 0)::float8`.mapWith(Number),
        })
        .from(emailVerifications)
        .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, sql`now() - interval '1 hour'`)));
      if (recent.n >= VERIFY_MAILS_PER_HOUR) {
        throw new AppError(Codes.RateLimited, 'emailVerifyTooMany', { max: VERIFY_MAILS_PER_HOUR, seconds: Math.max(1, Math.ceil(recent.wait)) });
      }
    }
    await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt)));
    const token = newSecret();
    await tx.insert(emailVerifications).values({ tokenHash: hashSecret(token), userId, email: account.email, expiresAt: new Date(Date.now() + LINK_TTL_MS) });
    return { token, email: account.email, lang: readSettings(account.settings).language ?? lang };
  });
}

/** Sends the link in the account's language and records when it went out; throws when SMTP refused it. */
async function mailLink(ctx: AppContext, issued: Issued): Promise<void> {
  const link = `${ctx.config.publicUrl}/login?${VERIFY_EMAIL_PARAM}=${encodeURIComponent(issued.token)}`;
  const { product_name: product } = await settingValues(ctx, ['product_name'] as const);
  await sendMail(ctx.config, {
    to: issued.email,
    subject: t(issued.lang, 'emailVerifyMailSubject', { product }),
    text: t(issued.lang, 'emailVerifyMailBody', { product, email: issued.email, link, hours: VERIFY_LINK_TTL_HOURS }),
  });
  await ctx.db.update(emailVerifications).set({ sentAt: sql`now()` }).where(eq(emailVerifications.tokenHash, hashSecret(issued.token)));
}

/**
 * SendVerifyEmail: a new link, mailed before the answer so the user learns whether it went out.
 * 10461 without SMTP_URL, 10409 when verified already, 10429 beyond VERIFY_MAILS_PER_HOUR an hour
 * (sign-up's mail counts), 10502 when the SMTP server refused it.
 */
export async function sendVerificationMail(ctx: AppContext, userId: string, lang: Language): Promise<EmailState> {
  if (!mailConfigured(ctx.config)) throw new AppError(Codes.NotConfigured, 'emailVerifyNotConfigured');
  const issued = await issueLink(ctx, userId, lang, true);
  if (!issued) throw new AppError(Codes.Conflict, 'emailAlreadyVerified');
  try {
    await mailLink(ctx, issued);
  } catch (err) {
    ctx.log.warn({ err, email: maskEmail(issued.email) }, 'e-mailing a verification link failed');
    throw new AppError(Codes.ServiceFailed, 'emailVerifySendFailed');
  }
  return getEmailState(ctx, userId);
}

/** Mails in flight, per server: awaited before it closes (and by tests). */
const inFlight = new WeakMap<AppContext, Set<Promise<void>>>();

/**
 * After a sign-up, with SMTP_URL set: the first link, sent in the background, so the sign-up never
 * waits for a slow SMTP server nor fails with it (a mail that fails is logged; Settings can send another).
 */
export function mailVerificationLater(ctx: AppContext, userId: string, lang: Language): void {
  if (!mailConfigured(ctx.config)) return;
  let set = inFlight.get(ctx);
  if (!set) inFlight.set(ctx, (set = new Set()));
  const running = set;
  const job: Promise<void> = issueLink(ctx, userId, lang, false)
    .then((issued) => (issued ? mailLink(ctx, issued) : undefined))
    .catch((err: unknown) => ctx.log.warn({ err, userId }, 'e-mailing a verification link after sign-up failed'))
    .finally(() => running.delete(job));
  running.add(job);
}

export async function settleVerificationMails(ctx: AppContext): Promise<void> {
  await Promise.all([...(inFlight.get(ctx) ?? [])]);
}

/**
 * VerifyEmail: consumes the token and marks the address verified in one transaction, so two uses at
 * once verify once (the second finds the token used). A link proves only the address it was sent
 * to. Then the invitee's inviter is credited if all else is met: the ledger's key for the invite makes
 * that exactly once, whoever calls it (this, a message, two verifications at once).
 */
export async function verifyEmail(ctx: AppContext, token: string): Promise<VerifyEmailResult> {
  const verified = await ctx.db.transaction(async (tx) => {
    const [used] = await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailVerifications.tokenHash, hashSecret(token)), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, sql`now()`)))
      .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
    if (!used) throw new AppError(Codes.BadRequest, 'emailVerifyTokenInvalid');
    const [account] = await tx
      .update(users)
      // The first verification's time stays.
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(and(eq(users.id, used.userId), sql`lower(${users.email}) = lower(${used.email})`))
      .returning({ userId: users.id, email: users.email, verifiedAt: users.emailVerifiedAt, invitedBy: users.invitedBy });
    if (!account?.verifiedAt) throw new AppError(Codes.BadRequest, 'emailVerifyTokenInvalid');
    return account;
  });
  if (verified.invitedBy) {
    // The address is verified either way; a credit that fails now is tried again at the next message.
    await creditInviter(ctx, verified.userId).catch((err: unknown) => ctx.log.error({ err, inviteeId: verified.userId }, 'crediting an invite at verification failed'));
  }
  return { email: verified.email, verifiedAt: verified.verifiedAt!.toISOString() };
}
