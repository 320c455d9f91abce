import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';
import { AuditRangeBoundSchema } from './audit.ts';

/** The console's records for operators: client request times and page views, newest first. */

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const text = (max: number) => z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(max).optional());
const range = {
  from: z.preprocess(emptyAsUndefined, AuditRangeBoundSchema.optional()),
  to: z.preprocess(emptyAsUndefined, AuditRangeBoundSchema.optional()),
};

/** GET /api/admin/Records/GetRequestTimes. */
export const RequestTimeListQuerySchema = PageQuerySchema.extend({
  /** A part of the request's name (the client's RequestId: the API path it timed). */
  path: text(200),
  userId: z.preprocess(emptyAsUndefined, IdSchema.optional()),
  /** Only requests that took at least this long (ms). */
  minDurationMs: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(2_147_483_647).optional()),
  ...range,
});
export type RequestTimeListQuery = z.infer<typeof RequestTimeListQuerySchema>;

export const RequestTimeRecordSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  driverId: z.string().nullable(),
  requestId: z.string(),
  /** Null when the client's two times could not be read or were out of order. */
  durationMs: z.number().int().nullable(),
  errMsg: z.string().nullable(),
  createTime: z.string(),
});
export const RequestTimePageSchema = z.object({ list: z.array(RequestTimeRecordSchema), total: z.number().int() });

/** GET /api/admin/Records/GetPageViews: browser records of type pageView. */
export const PageViewListQuerySchema = PageQuerySchema.extend({
  /** A part of the viewed page's address (payload currentUrl). */
  url: text(500),
  userId: z.preprocess(emptyAsUndefined, IdSchema.optional()),
  ...range,
});
export type PageViewListQuery = z.infer<typeof PageViewListQuerySchema>;

export const PageViewRecordSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  driverId: z.string().nullable(),
  ip: z.string().nullable(),
  currentUrl: z.string().nullable(),
  referer: z.string().nullable(),
  clientFrom: z.string().nullable(),
  userAgent: z.string().nullable(),
  language: z.string().nullable(),
  createTime: z.string(),
});
export const PageViewPageSchema = z.object({ list: z.array(PageViewRecordSchema), total: z.number().int() });
