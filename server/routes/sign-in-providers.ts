import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AdminUserProviderListSchema,
  AutoLinkRequestSchema,
  AutoLinkResponseSchema,
  DeleteUserProviderRequestSchema,
  ProviderActionQuerySchema,
  ProviderActionSchema,
  ProviderListSchema,
  UserProviderIdQuerySchema,
  UserProviderListSchema,
  UserProviderSchema,
  UserProvidersByUserQuerySchema,
} from '../../shared/contracts/sign-in-providers.ts';
import { addRoute, RAW } from '../http/route.ts';
import { newSecret } from '../services/accounts/auth.ts';
import {
  CALLBACK_PATH,
  confirmLink,
  finishProviderCallback,
  providerList,
  startProviderAction,
  unlinkProvider,
  userProviderById,
  userProviderList,
  userProvidersByUserId,
} from '../services/accounts/sign-in-providers.ts';
import { visitorCountry } from '../services/system/countries.ts';

/**
 * The browser's cookie that binds a sign-in to the browser that started it: set by
 * GetProviderByAction, read by the callback (a top-level navigation back from the provider, so
 * SameSite=Lax sends it). Only its hash is stored, with each state.
 */
const COOKIE = 'tandem_provider';
const COOKIE_MAX_AGE = 60 * 60;

function cookieOf(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) {
      const value = rest.join('=');
      return /^[A-Za-z0-9_-]{32,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

function browserSecretFor(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const value = cookieOf(req) ?? newSecret();
  reply.header('set-cookie', `${COOKIE}=${value}; Path=/api; Max-Age=${COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
  return value;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Sends the browser on from the callback: a page that refreshes to `location` (a path on this
 * server) at once. Not a 302, so the provider's address with its code is never a Referer
 * (no-referrer), and the answer is never cached.
 */
function sendOn(reply: FastifyReply, location: string): typeof RAW {
  const href = escapeHtml(location);
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', "default-src 'none'")
    .send(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Tandem</title><a href="${href}">Continue</a>`);
  return RAW;
}

/** Sign in with another account (docs/api.md#sign-in-with-another-account). */
export function registerSignInProviderRoutes(app: FastifyInstance): void {
  const rateLimit = { max: app.ctx.config.AUTH_RATE_LIMIT, timeWindow: app.ctx.config.AUTH_RATE_WINDOW_SECONDS * 1000 };
  const secure = app.ctx.config.publicUrl.startsWith('https:');

  addRoute(app, {
    method: 'GET',
    url: '/api/Account/GetProviderListAll',
    auth: 'public',
    summary: 'The sign-in providers to offer on the login page (enabled ones, in order; Google not to visitors in mainland China, by address as IsChina tells it): key, display name, kind (google, github, microsoft, oidc) and icon. Never a secret.',
    data: ProviderListSchema,
    handler: async ({ ctx, req }) => ({ list: await providerList(ctx, await visitorCountry(req.ip)) }),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Account/GetProviderByAction',
    auth: 'optional',
    summary:
      "Starts a sign-in (action=login) or a link of the signed-in account (action=link; 10402 signed out) with provider `providerKey` (10404 when it is not enabled): answers the provider's authorisation address (state, nonce, PKCE S256) to send the browser to, and sets the browser's binding cookie. The state lives 10 minutes, is used once, and only from this browser. returnTo: a path on this server the browser comes back to (default /login).",
    query: ProviderActionQuerySchema,
    data: ProviderActionSchema,
    rateLimit,
    handler: ({ ctx, query, user, req, reply }) => startProviderAction(ctx, query, user?.id ?? null, browserSecretFor(req, reply, secure)),
  });

  addRoute(app, {
    method: 'GET',
    url: CALLBACK_PATH,
    auth: 'public',
    summary:
      "Where the provider sends the browser back (code, state). Checks the state (this browser's, unused, under 10 minutes), trades the code (PKCE; OpenID: the ID token's signature and nonce), then sends the browser to returnTo with providerTempKey (signed in), providerLink + providerEmail + providerName (an account with this verified e-mail exists: confirm with AutoLinkWeb), providerLinked (action link) or providerError (stateInvalid, providerFailed, cancelled, noEmail, emailNotVerified, linkedElsewhere, accountClosed, providerUnavailable).",
    query: z.object({ state: z.string().max(500).optional(), code: z.string().max(4000).optional(), error: z.string().max(200).optional() }).loose(),
    raw: { description: 'A page that sends the browser on at once (meta refresh, no referrer) to returnTo with the outcome.', content: { 'text/html': z.string() } },
    rateLimit,
    handler: async ({ ctx, req, reply }) => {
      const url = new URL(req.url, ctx.config.publicUrl);
      return sendOn(reply, await finishProviderCallback(ctx, url, cookieOf(req)));
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/AutoLinkWeb',
    auth: 'optional',
    summary:
      "Confirms linking a provider identity to the existing account with its verified e-mail (the callback's providerLink, valid 10 minutes, once). Proof of owning the account: being signed in to it, or its password (checked as at login, under the same back-off: 10401, then 10429). Answers a temp key for that account.",
    body: AutoLinkRequestSchema,
    data: AutoLinkResponseSchema,
    rateLimit,
    handler: ({ ctx, body, user }) => confirmLink(ctx, body, user?.id ?? null),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserProviderList',
    auth: 'user',
    summary: "The caller's linked sign-in providers, newest first, and whether the account has a password (hasPassword).",
    data: UserProviderListSchema,
    handler: ({ ctx, user }) => userProviderList(ctx, user.id),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserProviderById',
    auth: 'user',
    summary: "One of the caller's linked providers (10404 for an id that is not the caller's).",
    query: UserProviderIdQuerySchema,
    data: UserProviderSchema,
    handler: ({ ctx, user, query }) => userProviderById(ctx, user.id, query.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/DeleteUserProvider',
    auth: 'user',
    summary: "Unlinks one of the caller's providers. Refused (10409) when it is the last way to sign in: no password and no other provider.",
    body: DeleteUserProviderRequestSchema,
    handler: async ({ ctx, user, body }) => {
      await unlinkProvider(ctx, user.id, body.id);
      return null;
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Account/GetUserProviderByUserId',
    auth: 'admin',
    summary: "An account's linked sign-in providers, for an administrator.",
    query: UserProvidersByUserQuerySchema,
    data: AdminUserProviderListSchema,
    handler: ({ ctx, query }) => userProvidersByUserId(ctx, query.userId),
  });
}
