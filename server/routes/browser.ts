import type { FastifyInstance } from 'fastify';
import { AddBrowserBodySchema, AddBrowserQuerySchema, SavedCountSchema } from '../../shared/contracts/tracking.ts';
import {
  AddAnalyticsBodySchema,
  AnalyticsForwardedSchema,
  AnalyticsStatusSchema,
  BrowserExceptPageSchema,
  BrowserExceptQuerySchema,
} from '../../shared/contracts/analytics.ts';
import { addRoute } from '../http/route.ts';
import { analyticsStatus, forwardAnalytics, listBrowserExceptions } from '../services/system/analytics.ts';
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
  addRoute(app, {
    method: 'GET',
    url: '/api/Browser/GetGoogleAnalytics',
    auth: 'public',
    summary: 'Whether analytics is on (GA_MEASUREMENT_ID and GA_API_SECRET set) and the measurement id; never the API secret.',
    data: AnalyticsStatusSchema,
    handler: async ({ ctx }) => analyticsStatus(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: '/api/Browser/AddGoogleAnalytics',
    auth: 'optional',
    summary:
      "Forwards one analytics event (the spec's payload: page_referer, current_url, screen sizes, user agent, language, browser_id) to GA4 when analytics is on and consent is true; otherwise sends nothing (forwarded: false).",
    body: AddAnalyticsBodySchema,
    data: AnalyticsForwardedSchema,
    bodyLimit: 16 * 1024,
    rateLimit: TRACKING_RATE_LIMIT,
    handler: ({ ctx, body }) => forwardAnalytics(ctx, body),
  });
  addRoute(app, {
    method: 'GET',
    url: '/api/Browser/GetBrowserByExcept',
    auth: 'admin',
    summary:
      'Browser records that are the exception, newest first: an event type not in `except` (comma-separated, default pageView), an error in the payload, or no visitor identity; each says why (reasons).',
    query: BrowserExceptQuerySchema,
    data: BrowserExceptPageSchema,
    handler: ({ ctx, query }) => listBrowserExceptions(ctx, query),
  });
}
