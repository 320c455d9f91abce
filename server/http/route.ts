import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Language } from '../../shared/contracts/common.ts';
import type { AppContext } from '../context.ts';
import { routeResponses, type RawAnswer } from './api-doc.ts';
import { authenticate, authenticateCached, bearerOf, type AuthUser } from '../services/auth.ts';
import { AppError } from './errors.ts';
import { isMessageKey, languageOf, t, zodLocale } from './i18n.ts';

/**
 * public: anyone. optional: anyone, with the user when a valid token is sent. user: logged in
 * (10402 otherwise). admin: logged in with the admin role (10403 otherwise).
 */
export type RouteAuth = 'public' | 'optional' | 'user' | 'admin';

export type RouteTableEntry = { method: string; url: string; auth: RouteAuth };

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

export type RouteSpec<Q, B, A extends RouteAuth> = {
  method: 'GET' | 'POST';
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
  rateLimit?: { max: number; timeWindow: number };
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

async function resolveUser(call: { req: FastifyRequest; reply: FastifyReply; ctx: AppContext }, auth: RouteAuth, cached: boolean) {
  if (auth === 'public') return null;
  const token = bearerOf(call.req.headers.authorization);
  const policy = { ttlDays: call.ctx.config.TOKEN_TTL_DAYS, renewAfterSeconds: call.ctx.config.TOKEN_RENEW_AFTER_SECONDS };
  const found = !token ? null : cached ? await authenticateCached(call.ctx, token, policy) : await authenticate(call.ctx.db, token, policy);
  if (found?.renewedToken) call.reply.header('Authorization', found.renewedToken);
  if (!found) {
    if (auth === 'optional') return null;
    throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
  }
  if (auth === 'admin' && found.user.role !== 'admin') throw new AppError(Codes.Forbidden, 'forbidden');
  return found.user;
}

/** Registers a route of the API: auth first, then input validation, then the handler; answers the envelope. */
export function addRoute<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, A extends RouteAuth>(
  app: FastifyInstance,
  spec: RouteSpec<Q, B, A>,
): void {
  app.routeTable.push({ method: spec.method, url: spec.url, auth: spec.auth });
  const family = spec.url.split('/').filter(Boolean).slice(1, -1).join('/') || 'api';
  app.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit,
    config: spec.rateLimit ? { rateLimit: spec.rateLimit } : {},
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
      const data = await spec.handler({ req, reply, query, body, user: user as RouteCall<Q, B, A>['user'], lang, ctx });
      if (data === RAW) return reply;
      return { Code: Codes.Success, Msg: '', Data: data ?? null };
    },
  });
}
