import type { FastifyInstance } from 'fastify';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

/**
 * Guards every API request has in common (docs/security.md#headers-and-edges):
 * - answers carry `X-Content-Type-Options: nosniff`, and the API reference may not be framed;
 * - a NUL character anywhere in the query or a JSON body is bad input, refused once here for every
 *   route (PostgreSQL cannot store it, and a failed statement must not be how we find out);
 * - behind a proxy that TRUST_PROXY does not name, the operator is told once that rate limits see
 *   only the proxy's address.
 */
export function registerSecurityHooks(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    reply.header('x-content-type-options', 'nosniff');
    if (req.url.startsWith('/api/docs')) reply.header('x-frame-options', 'DENY');
  });

  app.addHook('preValidation', async (req) => {
    if (req.url.startsWith('/api/') && (holdsNul(req.query) || holdsNul(req.body))) {
      throw new AppError(Codes.BadRequest, 'nulCharacter');
    }
  });

  if (config.TRUST_PROXY === false) {
    let warned = false;
    app.addHook('onRequest', async (req) => {
      if (warned || req.headers['x-forwarded-for'] === undefined) return;
      warned = true;
      req.log.warn(
        'A request came through a proxy (X-Forwarded-For), but TRUST_PROXY is not set: rate limits see one address, the proxy\'s, for every user. Set TRUST_PROXY to the proxy (see docs/deployment.md#reverse-proxy).',
      );
    });
  }
}

/** Whether any string (value or key) in a parsed JSON value or query holds U+0000; iterative, so depth cannot overflow the stack. */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, inner] of Object.entries(v)) {
        if (k.includes('\0')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}
