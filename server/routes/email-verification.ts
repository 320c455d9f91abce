import type { FastifyInstance } from 'fastify';
import { EmailStateSchema, VERIFY_MAILS_PER_HOUR, VerifyEmailRequestSchema, VerifyEmailResultSchema } from '../../shared/contracts/email-verification.ts';
import { addRoute } from '../http/route.ts';
import { getEmailState, sendVerificationMail, settleVerificationMails, verifyEmail } from '../services/accounts/email-verification.ts';

/** Verified e-mail (docs/api.md#verified-e-mail): the state, a new link, and the link's own call. */
export function registerEmailVerificationRoutes(app: FastifyInstance): void {
  // Sign-up's mails still going out are let finish before the server closes.
  app.addHook('preClose', () => settleVerificationMails(app.ctx));

  addRoute(app, {
    method: 'GET',
    url: '/api/Account/GetEmailState',
    auth: 'user',
    summary: "The caller's e-mail, whether and when it was verified, whether this server can send mail (SMTP_URL), and when the last verification mail went out",
    data: EmailStateSchema,
    handler: ({ ctx, user }) => getEmailState(ctx, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/SendVerifyEmail',
    auth: 'user',
    summary: `Mail the caller a new verification link (older links stop working); answers the e-mail state. 10461 without SMTP_URL, 10409 when already verified, 10429 beyond ${VERIFY_MAILS_PER_HOUR} mails an hour per account (sign-up's counts), 10502 when the mail could not be sent`,
    data: EmailStateSchema,
    // The hourly limit per account is the service's (it holds across instances); this one stops a burst.
    rateLimit: { max: 10, timeWindow: 60_000 },
    handler: ({ ctx, user, lang }) => sendVerificationMail(ctx, user.id, lang),
  });

  // Guessing tokens is hopeless (256 bits); limited like login all the same.
  const rateLimit = { max: app.ctx.config.AUTH_RATE_LIMIT, timeWindow: app.ctx.config.AUTH_RATE_WINDOW_SECONDS * 1000 };
  addRoute(app, {
    method: 'POST',
    url: '/api/Account/VerifyEmail',
    auth: 'public',
    summary:
      "Verify an e-mail address with a verification link's token (the login page calls it for PUBLIC_URL/login?verifyEmail=<token>). A used, expired, replaced or unknown token answers 10400",
    body: VerifyEmailRequestSchema,
    data: VerifyEmailResultSchema,
    rateLimit,
    handler: ({ ctx, body }) => verifyEmail(ctx, body.token),
  });
}
