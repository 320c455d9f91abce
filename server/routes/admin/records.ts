import type { FastifyInstance } from 'fastify';
import {
  PageViewListQuerySchema,
  PageViewPageSchema,
  RequestTimeListQuerySchema,
  RequestTimePageSchema,
} from '../../../shared/contracts/admin-records.ts';
import { addRoute } from '../../http/route.ts';
import { listPageViews, listRequestTimes } from '../../services/admin/records.ts';

/** Records for operators: what clients measured and which pages they viewed. */
export function registerAdminRecordRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Records/GetRequestTimes',
    auth: 'admin',
    summary: 'Client request times, newest first; filters: path (part of the timed request), userId, minDurationMs, from/to',
    query: RequestTimeListQuerySchema,
    data: RequestTimePageSchema,
    handler: ({ ctx, query }) => listRequestTimes(ctx, query),
  });
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Records/GetPageViews',
    auth: 'admin',
    summary: 'Page views (browser records of type pageView), newest first; filters: url (part of the page address), userId, from/to',
    query: PageViewListQuerySchema,
    data: PageViewPageSchema,
    handler: ({ ctx, query }) => listPageViews(ctx, query),
  });
}
