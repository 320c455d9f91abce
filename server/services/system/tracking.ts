import { desc, eq, inArray, lt } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Paged } from '../../../shared/contracts/common.ts';
import type {
  BrowserEvent,
  BrowserListQuery,
  BrowserRecord,
  RequestTimeEntry,
} from '../../../shared/contracts/tracking.ts';
import type { AppContext } from '../../context.ts';
import { browserRecords, requestTimes } from '../../db/schema/system.ts';
import { pageOf } from '../../db/list-query.ts';
import { sweepTranslationRequests } from '../translate/request-ids.ts';
import { sweepClientErrors } from './client-error-log.ts';

/** Who sent a tracking call: the user when logged in, the client's DriverId header, the address. */
export type TrackingSource = { userId: string | null; driverId: string | null; ip: string | null };

const MAX_INT4 = 2_147_483_647;

/** Epoch ms from a number, a number as text, or a date as text; null when none of these. */
function epochMs(value: number | string): number | null {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Date.parse(trimmed);
  return Number.isFinite(ms) ? ms : null;
}

/** The duration when both times are readable and in order; clock skew gives negatives, dropped. */
export function durationMs(start: number | string, end: number | string): number | null {
  const a = epochMs(start);
  const b = epochMs(end);
  if (a === null || b === null) return null;
  const d = Math.round(b - a);
  return d >= 0 && d <= MAX_INT4 ? d : null;
}

/**
 * Records get time-ordered ids (UUIDv7, increasing within this process): the console lists them by
 * (created_at, id), and the records of one batch, or of one millisecond, share created_at.
 */
export async function saveRequestTimes(ctx: AppContext, entries: RequestTimeEntry[], source: TrackingSource) {
  await ctx.db.insert(requestTimes).values(
    entries.map((e) => ({
      id: uuidv7(),
      userId: source.userId,
      driverId: source.driverId,
      requestId: e.RequestId,
      clientRequestTime: String(e.ClientRequestTime),
      clientResponseTime: String(e.ClientResponseTime),
      durationMs: durationMs(e.ClientRequestTime, e.ClientResponseTime),
      errMsg: e.ClientResponseErrMsg ?? null,
    })),
  );
  return { saved: entries.length };
}

export async function saveBrowserRecords(ctx: AppContext, events: BrowserEvent[], source: TrackingSource) {
  await ctx.db.insert(browserRecords).values(
    events.map((e) => ({
      id: uuidv7(),
      userId: source.userId,
      driverId: source.driverId,
      eventType: e.event.eventType,
      payload: e.payload,
      ip: source.ip,
    })),
  );
  return { saved: events.length };
}

export async function listBrowserRecords(ctx: AppContext, query: BrowserListQuery): Promise<Paged<BrowserRecord>> {
  const where = query.eventType ? eq(browserRecords.eventType, query.eventType) : undefined;
  const { rows, total } = await pageOf(ctx.db, browserRecords, where, [desc(browserRecords.createdAt), desc(browserRecords.id)], query);
  return {
    list: rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      payload: r.payload as Record<string, unknown>,
      userId: r.userId,
      driverId: r.driverId,
      ip: r.ip,
      createTime: r.createdAt.toISOString(),
    })),
    total,
  };
}

/** Rows deleted per statement by the sweep: a large backlog goes in short transactions, not one long one. */
const SWEEP_BATCH = 5000;
const SWEEP_EVERY_MS = 3_600_000;
/** The first sweep after a start: soon, but not among the start-up's own work. */
const FIRST_SWEEP_MS = 60_000;

/**
 * Deletes the request times and browser records older than TRACKING_RETENTION_DAYS (none when it
 * is 0): these tables take a row per client report and would otherwise grow for ever. Several
 * instances may sweep at once: a row is deleted once, and what one stops short of, the next sweep
 * takes. Returns what this call deleted.
 */
export async function sweepTrackingRecords(ctx: AppContext, now = new Date()): Promise<{ requestTimes: number; browserRecords: number }> {
  const days = ctx.config.TRACKING_RETENTION_DAYS;
  if (!days) return { requestTimes: 0, browserRecords: 0 };
  const before = new Date(now.getTime() - days * 86_400_000);
  const sweep = async (table: typeof requestTimes | typeof browserRecords) => {
    let deleted = 0;
    for (;;) {
      const old = ctx.db.select({ id: table.id }).from(table).where(lt(table.createdAt, before)).limit(SWEEP_BATCH);
      const rows = await ctx.db.delete(table).where(inArray(table.id, old)).returning({ id: table.id });
      deleted += rows.length;
      if (rows.length < SWEEP_BATCH) return deleted;
    }
  };
  return { requestTimes: await sweep(requestTimes), browserRecords: await sweep(browserRecords) };
}

/** Sweeps a minute after the start, then hourly; returns the stop. */
export function startTrackingSweep(ctx: AppContext): () => void {
  const run = async () => {
    try {
      const deleted = await sweepTrackingRecords(ctx);
      if (deleted.requestTimes || deleted.browserRecords) ctx.log.info(deleted, 'old tracking records deleted');
    } catch (err) {
      ctx.log.error({ err }, 'deleting old tracking records failed');
    }
    try {
      // The client error log's groups no one has reported for as long (docs/api.md#client-error-log).
      const groups = await sweepClientErrors(ctx);
      if (groups) ctx.log.info({ clientErrors: groups }, 'old client error groups deleted');
    } catch (err) {
      ctx.log.error({ err }, 'deleting old client error groups failed');
    }
    try {
      // Translation idempotency keys past their 10 minutes (docs/api.md#translation).
      const keys = await sweepTranslationRequests(ctx);
      if (keys) ctx.log.info({ translationRequests: keys }, 'expired translation request ids deleted');
    } catch (err) {
      ctx.log.error({ err }, 'deleting expired translation request ids failed');
    }
  };
  const first = setTimeout(() => void run(), FIRST_SWEEP_MS);
  const timer = setInterval(() => void run(), SWEEP_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
