import type { FastifyInstance } from 'fastify';
import { ResetPasswordSchema } from '../../shared/contracts/password-reset.ts';
import { addRoute } from '../http/route.ts';
import { resetPassword } from '../services/accounts/password-reset.ts';

/** The public half of a password reset: the link an operator sent (docs/api.md#password-reset). */
export function registerPasswordResetRoutes(app: FastifyInstance): void {
  // Guessing tokens is hopeless (256 bits), but the attempts cost a password hash each: limited like login.
  const rateLimit = { max: app.ctx.config.AUTH_RATE_LIMIT, timeWindow: app.ctx.config.AUTH_RATE_WINDOW_SECONDS * 1000 };
  addRoute(app, {
    method: 'POST',
    url: '/api/Account/ResetPassword',
    auth: 'public',
    summary: "Set a new password with a reset link's token; every login of the account is revoked. A used, expired or unknown token answers 10401",
    body: ResetPasswordSchema,
    rateLimit,
    handler: async ({ ctx, body }) => {
      await resetPassword(ctx, body.token, body.password);
      return null;
    },
  });
}
