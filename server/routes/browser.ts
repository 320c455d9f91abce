import type { FastifyInstance } from 'fastify';
import { AddBrowserBodySchema, AddBrowserQuerySchema, SavedCountSchema } from '../../shared/contracts/tracking.ts';
import { addRoute } from '../http/route.ts';
import { saveBrowserRecords } from '../services/system/tracking.ts';
import { TRACKING_RATE_LIMIT, trackingSource } from './system.ts';

export function registerBrowserRoutes(app: FastifyInstance): void {
  const url = '/api/Browser/AddBrowser';
  addRoute(app, {
    method: 'POST',
    url,
    auth: 'optional',
    summary: 'Stores page-view and other browser records: an array (1 to 20) of {event: {eventType}, payload}.',
    body: AddBrowserBodySchema,
    data: SavedCountSchema,
    bodyLimit: 256 * 1024,
    rateLimit: TRACKING_RATE_LIMIT,
    handler: ({ ctx, body, req, user }) => saveBrowserRecords(ctx, body, trackingSource(req, user?.id ?? null)),
  });
  addRoute(app, {
    method: 'GET',
    url,
    auth: 'optional',
    summary: 'Stores one browser record: eventType plus the payload fields as query parameters.',
    query: AddBrowserQuerySchema,
    data: SavedCountSchema,
    rateLimit: TRACKING_RATE_LIMIT,
    handler: ({ ctx, query, req, user }) => {
      const { eventType, ...payload } = query;
      return saveBrowserRecords(ctx, [{ event: { eventType }, payload }], trackingSource(req, user?.id ?? null));
    },
  });
}
