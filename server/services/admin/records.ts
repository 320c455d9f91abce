import { eq, gte, sql } from 'drizzle-orm';
import type { PageViewListQuery, RequestTimeListQuery } from '../../../shared/contracts/admin-records.ts';
import type { AppContext } from '../../context.ts';
import { escapeLike } from '../../db/like.ts';
import { newestPage } from '../../db/list-query.ts';
import { browserRecords, requestTimes } from '../../db/schema/system.ts';

/** The console's records: client request times and page views, filtered, newest first. */

export async function listRequestTimes(ctx: AppContext, q: RequestTimeListQuery) {
  const t = requestTimes;
  const conditions = [
    q.path ? sql`${t.requestId} ilike ${`%${escapeLike(q.path)}%`}` : undefined,
    q.userId ? eq(t.userId, q.userId) : undefined,
    q.minDurationMs !== undefined ? gte(t.durationMs, q.minDurationMs) : undefined,
  ];
  return newestPage(ctx.db, t, conditions, q, (r) => ({
    id: r.id,
    userId: r.userId,
    driverId: r.driverId,
    requestId: r.requestId,
    durationMs: r.durationMs,
    errMsg: r.errMsg,
    createTime: r.createdAt.toISOString(),
  }));
}

const field = (payload: unknown, key: string): string | null => {
  const v = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : null;
};

/** The page views the web app and the extension report (AddBrowser, eventType pageView). */
export async function listPageViews(ctx: AppContext, q: PageViewListQuery) {
  const t = browserRecords;
  const conditions = [
    eq(t.eventType, 'pageView'),
    q.url ? sql`${t.payload} ->> 'currentUrl' ilike ${`%${escapeLike(q.url)}%`}` : undefined,
    q.userId ? eq(t.userId, q.userId) : undefined,
  ];
  return newestPage(ctx.db, t, conditions, q, (r) => ({
    id: r.id,
    userId: r.userId,
    driverId: r.driverId,
    ip: r.ip,
    currentUrl: field(r.payload, 'currentUrl'),
    referer: field(r.payload, 'referer'),
    clientFrom: field(r.payload, 'clientFrom'),
    userAgent: field(r.payload, 'platformUserAgent'),
    language: field(r.payload, 'platformBrowserLanguage'),
    createTime: r.createdAt.toISOString(),
  }));
}
