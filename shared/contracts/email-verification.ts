import { z } from 'zod';

/**
 * Verified e-mail (docs/api.md#verified-e-mail): with SMTP set up, an account is sent a link that
 * proves it owns its e-mail. GET /api/Account/GetEmailState tells where the account stands;
 * SendVerifyEmail sends a new link (older ones stop working); VerifyEmail consumes a link's token.
 */

/** Mails one account may ask for (sign-up's included) in any hour. */
export const VERIFY_MAILS_PER_HOUR = 5;
/** How long a link works. */
export const VERIFY_LINK_TTL_HOURS = 24;
/** The login page's query parameter that carries a link's token (PUBLIC_URL/login?verifyEmail=<token>). */
export const VERIFY_EMAIL_PARAM = 'verifyEmail';

/** GET /api/Account/GetEmailState; also the answer of SendVerifyEmail. */
export const EmailStateSchema = z.object({
  email: z.string(),
  verified: z.boolean(),
  /** When the account verified its e-mail (ISO 8601); null while it has not. */
  verifiedAt: z.string().nullable(),
  /** Whether this server can send e-mail (SMTP_URL set): without it no link can be sent. */
  canSend: z.boolean(),
  /** When the last verification mail went out (ISO 8601); null when none did. */
  sentAt: z.string().nullable(),
});
export type EmailState = z.infer<typeof EmailStateSchema>;

/** POST /api/Account/VerifyEmail (public): the token of a verification link. */
export const VerifyEmailRequestSchema = z.object({ token: z.string().trim().min(1).max(200) });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequestSchema>;

export const VerifyEmailResultSchema = z.object({ email: z.string(), verifiedAt: z.string() });
export type VerifyEmailResult = z.infer<typeof VerifyEmailResultSchema>;
