import type { FastifyInstance } from 'fastify';
import { AddClientErrorBodySchema, SavedClientErrorsSchema } from '../../shared/contracts/client-error-log.ts';
import { addRoute } from '../http/route.ts';
import { saveClientErrors } from '../services/system/client-error-log.ts';

/** Per visitor (account, or address when signed out): a page in an error loop cannot flood the log. */
export const CLIENT_ERROR_RATE_LIMIT = { max: 12, timeWindow: 60_000 };

/** The surfaces report their uncaught errors (docs/api.md#client-error-log). */
export function registerLogRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/Log/AddClientError',
    auth: 'optional',
    summary:
      'Stores a batch (1 to 10) of uncaught client errors: message, stack, surface, app version, browser, page path. Texts are cut to their limits and scrubbed (e-mail addresses, tokens, query strings); each counts into its group (message + top frame).',
    body: AddClientErrorBodySchema,
    data: SavedClientErrorsSchema,
    bodyLimit: 64 * 1024,
    rateLimit: CLIENT_ERROR_RATE_LIMIT,
    handler: ({ ctx, body }) => saveClientErrors(ctx, body),
  });
}
