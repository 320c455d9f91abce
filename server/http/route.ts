import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Language } from '../../shared/contracts/common.ts';
import type { AppContext } from '../context.ts';
import { routeResponses, type RawAnswer } from './api-doc.ts';
import type { AuthUser } from '../services/accounts/auth.ts';
import { AppError } from '../core/errors.ts';
import { isMessageKey, languageOf, t, zodLocale } from '../core/i18n.ts';

/**
 * public: anyone. optional: anyone, with the user when a valid token is sent. user: logged in
 * (10402 otherwise). admin: logged in with the admin role (10403 otherwise).
 */
export type RouteAuth = 'public' | 'optional' | 'user' | 'admin';

export type RouteTableEntry = {
  method: string;
  url: string;
  auth: RouteAuth;
  /** The audited target type of an admin write (every admin POST has one). */
  audit?: string;
};

/** Returned by a handler that wrote the response itself (a stream). */
export const RAW = Symbol('raw');

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteCall<Q, B, A extends RouteAuth> = {
  req: FastifyRequest;
  reply: FastifyReply;
  query: Infer<Q>;
  body: Infer<B>;
  user: A extends 'user' | 'admin' ? AuthUser : AuthUser | null;
  lang: Language;
  ctx: AppContext;
};

/**
 * How an admin write is recorded in the audit log (server/services/admin/audit.ts): what it acts on, and
 * how to read that before and after. The row is written only when the handler succeeded.
 */
export type AuditSpec<Q, B, A extends RouteAuth> = {
  /** The kind of target: user, aiModel, aiModelMap, vipPackage, setting, ... */
  target: string;
  /**
   * The target's id. Called before the handler (data undefined: a create may not know it yet) and
   * after it (data: the handler's answer); undefined when there is no single target.
   */
  id: (call: RouteCall<Q, B, A>, data: unknown) => string | null | undefined;
  /**
   * Reads the target, before and after the write (null when it does not exist). Without it,
   * `before` is null and `after` is the request body. Secrets are redacted either way.
   */
  load?: (ctx: AppContext, id: string) => Promise<unknown>;
};

/**
 * An audit id for a save that may create: the id its answer names (a new target's), else the one
 * the body names (an update's; the only one known before the handler runs).
 */
export const savedId =
  (key: string) =>
  ({ body }: { body: unknown }, data: unknown): string | undefined => {
    const id = fieldOf(data, key) ?? fieldOf(body, key);
    return typeof id === 'string' ? id : undefined;
  };
const fieldOf = (value: unknown, key: string) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

type Method = 'GET' | 'POST';

/** Every admin POST must say how it is audited (checked again at registration, for plain JS callers). */
type AuditField<Q, B, A extends RouteAuth, M extends Method> = [A, M] extends ['admin', 'POST']
  ? { audit: AuditSpec<Q, B, A> }
  : { audit?: never };

export type RouteSpec<Q, B, A extends RouteAuth, M extends Method = Method> = AuditField<Q, B, A, M> & {
  method: M;
  url: string;
  auth: A;
  summary: string;
  query?: Q;
  body?: B;
  /** The schema of Data in a successful answer, for the API reference; absent: Data is null. */
  data?: z.ZodType;
  /** A handler that answers RAW says here what its success is (a stream, bytes), for the API reference. */
  raw?: RawAnswer;
  /**
   * Refusals this route answers with HTTP 400 and the failure envelope instead of 200 (a webhook's
   * bad signature: its sender reads the status, not Code), for the API reference.
   */
  refusedStatus?: 400;
  /** Answers HTTP 503 with the failure envelope when it cannot serve (the health check: a load balancer reads the status). */
  unavailableStatus?: true;
  bodyLimit?: number;
  /**
   * Per account for signed-in callers (per address for anonymous ones); `by: 'address'` keeps it per
   * address for routes whose callers are already limited per account another way (code guessing).
   */
  rateLimit?: { max: number; timeWindow: number; by?: 'address' };
  /** Accept a token verified in the last few seconds without asking the database (hot paths only). */
  cachedAuth?: boolean;
  handler: (call: RouteCall<Q, B, A>) => Promise<unknown>;
};

/** Validation with messages in the caller's language; a schema's own message may be an i18n key. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, lang: Language): z.output<S> {
  const result = schema.safeParse(value, { error: zodLocale[lang] });
  if (result.success) return result.data;
  const detail = result.error.issues
    .slice(0, 3)
    .map((i) => {
      // A limit's own message may name it ({{max}}: attachmentCountExceed).
      const msg = isMessageKey(i.message) ? t(lang, i.message, 'maximum' in i ? { max: Number(i.maximum) } : undefined) : i.message;
      return i.path.length ? `${i.path.join('.')}: ${msg}` : msg;
    })
    .join('; ');
  throw new AppError(Codes.BadRequest, 'badRequest', { detail });
}

/** An audit record as the route helper writes it (services/admin/audit.ts keeps it). */
export type AuditInput = { actor: { id: string; email: string }; action: string; targetType: string; targetId: string | null; before: unknown; after: unknown };

/**
 * What the route helper needs of the services, handed in by app.ts as `app.routeServices`, so that
 * http/ runs no service code of its own: the login of an Authorization header (from the cache of
 * recent logins when `cached`) and the user id a rate limit counts by, and the audit log of the console's changes.
 */
export type RouteServices = {
  login(ctx: AppContext, authorization: string | undefined, cached: boolean): Promise<{ user: AuthUser; renewedToken?: string } | null>;
  /** The user id of an Authorization header's live token, or null: what a per-account rate limit counts by. */
  userIdOf(ctx: AppContext, authorization: string | undefined): Promise<string | null>;
  audit(ctx: AppContext, entry: AuditInput): Promise<unknown>;
};

async function resolveUser(call: { req: FastifyRequest; reply: FastifyReply; ctx: AppContext }, auth: RouteAuth, cached: boolean) {
  if (auth === 'public') return null;
  const found = await call.req.server.routeServices.login(call.ctx, call.req.headers.authorization, cached);
  if (found?.renewedToken) call.reply.header('Authorization', found.renewedToken);
  if (!found) {
    if (auth === 'optional') return null;
    throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
  }
  if (auth === 'admin' && found.user.role !== 'admin') throw new AppError(Codes.Forbidden, 'forbidden');
  return found.user;
}

type RateLimit = { max: number; timeWindow: number; by?: 'address' };

/**
 * Rate limits count people, not addresses (docs/security.md#rate-limits): a route that knows its
 * caller (user, admin, optional with a token) counts per account, keyed by the token's user id, so
 * an office, a school or a carrier's NAT behind one address does not share one allowance. Anonymous
 * calls count per address.
 */
function rateLimitOf(app: FastifyInstance, auth: RouteAuth, { by, ...limit }: RateLimit) {
  if (auth === 'public' || by === 'address') return limit;
  return {
    ...limit,
    keyGenerator: async (req: FastifyRequest) => {
      const userId = await app.routeServices.userIdOf(app.ctx, req.headers.authorization);
      return userId ? `u:${userId}` : `a:${req.ip}`;
    },
  };
}

/**
 * The coarse outer bound per address of a per-account limit, against one machine cycling through
 * many accounts: RATE_LIMIT_ADDRESS_FACTOR times the account's allowance (default 50, so 50 people
 * behind one NAT can each use all of theirs).
 */
function addressBound(app: FastifyInstance, url: string, limit: RateLimit) {
  const max = limit.max * app.ctx.config.RATE_LIMIT_ADDRESS_FACTOR;
  const check = app.createRateLimit({ max, timeWindow: limit.timeWindow, keyGenerator: (req) => `addr:${url}:${req.ip}` });
  return async (req: FastifyRequest) => {
    const result = await check(req);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError(Codes.RateLimited, 'rateLimited', { seconds: Math.max(1, Math.ceil(result.ttl / 1000)) });
    }
  };
}

/** Registers a route of the API: auth first, then input validation, then the handler; answers the envelope. */
export function addRoute<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, A extends RouteAuth, M extends Method>(
  app: FastifyInstance,
  spec: RouteSpec<Q, B, A, M>,
): void {
  const audit = spec.audit as AuditSpec<Q, B, A> | undefined;
  if (spec.auth === 'admin' && spec.method === 'POST' && !audit) throw new Error(`${spec.url}: an admin POST route needs an audit spec`);
  app.routeTable.push({ method: spec.method, url: spec.url, auth: spec.auth, ...(audit ? { audit: audit.target } : {}) });
  const action = spec.url.replace(/^\/api\/(admin\/)?/, '');
  const family = spec.url.split('/').filter(Boolean).slice(1, -1).join('/') || 'api';
  app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit,
    config: spec.rateLimit ? { rateLimit: rateLimitOf(app, spec.auth, spec.rateLimit) } : {},
    ...(spec.rateLimit && spec.auth !== 'public' && !spec.rateLimit.by ? { onRequest: addressBound(app, spec.url, spec.rateLimit) } : {}),
    schema: {
      summary: spec.summary,
      tags: [family],
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: routeResponses(spec),
      ...(spec.auth === 'public' ? {} : { security: [{ bearer: [] }] }),
    },
    handler: async (req, reply) => {
      const ctx = app.ctx;
      const lang = languageOf(req);
      const user = await resolveUser({ req, reply, ctx }, spec.auth, spec.cachedAuth ?? false);
      const query = (spec.query ? parseInput(spec.query, req.query ?? {}, lang) : undefined) as Infer<Q>;
      const body = (spec.body ? parseInput(spec.body, req.body ?? {}, lang) : undefined) as Infer<B>;
      const call: RouteCall<Q, B, A> = { req, reply, query, body, user: user as RouteCall<Q, B, A>['user'], lang, ctx };
      const before = audit && user ? await auditBefore(audit, call) : undefined;
      const data = await spec.handler(call);
      if (audit && user && before) await auditAfter(audit, call, data, before, { user, action });
      if (data === RAW) return reply;
      return { Code: Codes.Success, Msg: '', Data: data ?? null };
    },
  });
}

/** The target's id from the route's audit spec; an id function that cannot tell yet (a create) gives none. */
function auditId<Q, B, A extends RouteAuth>(audit: AuditSpec<Q, B, A>, call: RouteCall<Q, B, A>, data: unknown): string | undefined {
  try {
    const id = audit.id(call, data);
    return id === null || id === undefined || id === '' ? undefined : String(id);
  } catch {
    return undefined;
  }
}

async function loadTarget<Q, B, A extends RouteAuth>(audit: AuditSpec<Q, B, A>, ctx: AppContext, id: string | undefined): Promise<unknown> {
  if (!audit.load || id === undefined) return null;
  try {
    return (await audit.load(ctx, id)) ?? null;
  } catch (err) {
    // A target that does not exist (yet, or any more) is recorded as null.
    if (err instanceof AppError && err.code === Codes.NotFound) return null;
    throw err;
  }
}

async function auditBefore<Q, B, A extends RouteAuth>(audit: AuditSpec<Q, B, A>, call: RouteCall<Q, B, A>) {
  const id = auditId(audit, call, undefined);
  return { id, state: await loadTarget(audit, call.ctx, id) };
}

async function auditAfter<Q, B, A extends RouteAuth>(
  audit: AuditSpec<Q, B, A>,
  call: RouteCall<Q, B, A>,
  data: unknown,
  before: { id: string | undefined; state: unknown },
  who: { user: AuthUser; action: string },
) {
  const id = auditId(audit, call, data === RAW ? undefined : data) ?? before.id;
  const after = audit.load ? await loadTarget(audit, call.ctx, id) : (call.body ?? null);
  await call.req.server.routeServices.audit(call.ctx, {
    actor: { id: who.user.id, email: who.user.email },
    action: who.action,
    targetType: audit.target,
    targetId: id ?? null,
    before: before.state,
    after,
  });
}
