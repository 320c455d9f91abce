import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PageViewListQuery, RequestTimeListQuery } from '../../shared/contracts/admin-records.ts';
import type { AppContext } from '../context.ts';
import { escapeLike } from '../db/like.ts';
import { browserRecords, requestTimes } from '../db/schema/system.ts';
import { endOf, rangeStart } from './audit.ts';

/** The console's records: client request times and page views, filtered, newest first. */

export async function listRequestTimes(ctx: AppContext, q: RequestTimeListQuery) {
  const t = requestTimes;
  const where = and(
    ...([
      q.path ? sql`${t.requestId} ilike ${`%${escapeLike(q.path)}%`}` : undefined,
      q.userId ? eq(t.userId, q.userId) : undefined,
      q.minDurationMs !== undefined ? gte(t.durationMs, q.minDurationMs) : undefined,
      q.from ? gte(t.createdAt, rangeStart(q.from)) : undefined,
      q.to ? lt(t.createdAt, endOf(q.to)) : undefined,
    ] as (SQL | undefined)[]),
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(t)
      .where(where)
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(t).where(where),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      driverId: r.driverId,
      requestId: r.requestId,
      durationMs: r.durationMs,
      errMsg: r.errMsg,
      createTime: r.createdAt.toISOString(),
    })),
  };
}

const field = (payload: unknown, key: string): string | null => {
  const v = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : null;
};

/** The page views the web app and the extension report (AddBrowser, eventType pageView). */
export async function listPageViews(ctx: AppContext, q: PageViewListQuery) {
  const t = browserRecords;
  const where = and(
    ...([
      eq(t.eventType, 'pageView'),
      q.url ? sql`${t.payload} ->> 'currentUrl' ilike ${`%${escapeLike(q.url)}%`}` : undefined,
      q.userId ? eq(t.userId, q.userId) : undefined,
      q.from ? gte(t.createdAt, rangeStart(q.from)) : undefined,
      q.to ? lt(t.createdAt, endOf(q.to)) : undefined,
    ] as (SQL | undefined)[]),
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(t)
      .where(where)
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(t).where(where),
  ]);
  return {
    total,
    list: rows.map((r) => ({
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
    })),
  };
}
