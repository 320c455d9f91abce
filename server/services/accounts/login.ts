import type { AppContext } from '../../context.ts';
import { authenticate, authenticateCached, bearerOf, userIdOfToken } from './auth.ts';

/**
 * The login of a request's Authorization header, for the route helper (http/route.ts, handed in by
 * app.ts): null without a bearer token or for one that is not valid. `cached` trusts a token
 * verified recently from memory (the chat's hot path); a renewed token comes back to be sent.
 */
export function loginOf(ctx: AppContext, authorization: string | undefined, cached: boolean) {
  const token = bearerOf(authorization);
  const policy = { ttlDays: ctx.config.TOKEN_TTL_DAYS, renewAfterSeconds: ctx.config.TOKEN_RENEW_AFTER_SECONDS };
  if (!token) return Promise.resolve(null);
  return cached ? authenticateCached(ctx, token, policy) : authenticate(ctx, token, policy);
}

/** The user id of the header's live token, or null: the key a signed-in route's rate limit counts by. */
export function userIdOf(ctx: AppContext, authorization: string | undefined): Promise<string | null> {
  const token = bearerOf(authorization);
  return token ? userIdOfToken(ctx, token) : Promise.resolve(null);
}
