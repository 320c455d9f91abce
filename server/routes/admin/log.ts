import type { FastifyInstance } from 'fastify';
import {
  ClientErrorGroupSchema,
  ClientErrorListQuerySchema,
  ClientErrorPageSchema,
  ResolveClientErrorBodySchema,
} from '../../../shared/contracts/client-error-log.ts';
import { addRoute } from '../../http/route.ts';
import { getClientError, listClientErrors, resolveClientError } from '../../services/system/client-error-log.ts';

/** Operators read the surfaces' uncaught errors, grouped (docs/api.md#client-error-log). */
export function registerAdminLogRoutes(app: FastifyInstance): void {
  const base = '/api/admin/Log';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetClientErrorList`,
    auth: 'admin',
    summary: 'Client error groups, last seen first; search (message or top frame), surface, state (open by default, resolved, all).',
    query: ClientErrorListQuerySchema,
    data: ClientErrorPageSchema,
    handler: ({ ctx, query }) => listClientErrors(ctx, query),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Resolve`,
    auth: 'admin',
    audit: { target: 'clientError', id: ({ body }) => body.clientErrorId, load: getClientError },
    summary: 'Marks a client error group resolved; it reopens when it is reported again.',
    body: ResolveClientErrorBodySchema,
    data: ClientErrorGroupSchema,
    handler: ({ ctx, body }) => resolveClientError(ctx, body.clientErrorId),
  });
}
