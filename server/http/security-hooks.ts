import type { FastifyInstance } from 'fastify';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { refuseBadInput, UNDECODABLE_QUERY } from './input-guard.ts';

/**
 * Guards every API request has in common (docs/security.md#headers-and-edges):
 * - answers carry `X-Content-Type-Options: nosniff`, and the API reference may not be framed;
 * - the query and a JSON or text body follow one rule for every route (server/http/input-guard.ts):
 *   no NUL, no lone surrogate half, no undecodable query, no number beyond 2^53; refused once here
 *   (a failed statement must not be how we find out);
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
    if (!req.url.startsWith('/api/')) return;
    if ((req.query as Record<symbol, unknown> | undefined)?.[UNDECODABLE_QUERY]) throw new AppError(Codes.BadRequest, 'invalidUtf8');
    refuseBadInput(req.query);
    refuseBadInput(req.body);
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
