import { createHash } from 'node:crypto';
import { and, desc, eq, ilike, isNull, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { ClientErrorGroup, ClientErrorListQuery, ClientErrorReport } from '../../../shared/contracts/client-error-log.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { pathOnly, scrubText } from '../../../shared/utils/scrub.ts';
import type { AppContext } from '../../context.ts';
import { clientErrors } from '../../db/schema/language-log.ts';
import { pageOf } from '../../db/list-query.ts';
import { escapeLike } from '../../db/like.ts';
import { AppError } from '../../core/errors.ts';

/**
 * The client error log (docs/api.md#client-error-log): the surfaces' uncaught errors, grouped by a
 * fingerprint of the message and the top stack frame, with a count, first and last seen, and a few
 * of the versions, surfaces and browsers it was seen in. Not server/http/client-errors.ts (that maps
 * the server's own failures to answers).
 */

/** How many distinct versions, surfaces and browsers a group keeps (the first seen). */
const KEEP_DISTINCT = 20;

/** The first line of a stack that names a place in code, without the address's origin (it differs between extension and web). */
export function topFrameOf(stack: string | null | undefined): string | null {
  const line = stack
    ?.split('\n')
    .map((l) => l.trim())
    .find((l) => /^at\s|@|:\d+:\d+/.test(l) && /:\d+(:\d+)?\)?$/.test(l));
  return line ? line.replace(/[a-z][a-z0-9+.-]*:\/\/[^/\s)]+/gi, '').slice(0, 300) : null;
}

export function fingerprintOf(message: string, topFrame: string | null): string {
  return createHash('sha256').update(`${message}\n${topFrame ?? ''}`).digest('hex').slice(0, 32);
}

/** Adds `value` to a jsonb list unless it is there or the list is full. */
const addDistinct = (column: SQL, value: string | null) =>
  value === null
    ? column
    : sql`case when ${column} @> ${JSON.stringify([value])}::jsonb or jsonb_array_length(${column}) >= ${KEEP_DISTINCT} then ${column} else ${column} || ${JSON.stringify([value])}::jsonb end`;

const existing = sql.raw('client_errors');

/** Stores one batch: each report scrubbed again, then counted into its group (a resolved group seen again reopens). */
export async function saveClientErrors(ctx: AppContext, reports: ClientErrorReport[]): Promise<{ saved: number }> {
  for (const r of reports) {
    const message = scrubText(r.message).trim() || '(no message)';
    const stack = r.stack ? scrubText(r.stack) : null;
    const topFrame = topFrameOf(stack);
    const version = r.version?.trim() || null;
    const browser = r.browser?.trim() || null;
    const path = r.path ? scrubText(pathOnly(r.path)) : null;
    const now = new Date();
    await ctx.db
      .insert(clientErrors)
      .values({
        id: uuidv7(),
        fingerprint: fingerprintOf(message, topFrame),
        message,
        topFrame,
        stack,
        surfaces: [r.surface],
        versions: version ? [version] : [],
        browsers: browser ? [browser] : [],
        lastPath: path,
        count: r.count,
        firstSeenAt: now,
        lastSeenAt: now,
      })
      .onConflictDoUpdate({
        target: clientErrors.fingerprint,
        set: {
          count: sql`least(${existing}.count + excluded.count, 2000000000)`,
          lastSeenAt: now,
          stack: sql`coalesce(excluded.stack, ${existing}.stack)`,
          lastPath: sql`coalesce(excluded.last_path, ${existing}.last_path)`,
          surfaces: addDistinct(sql`${existing}.surfaces`, r.surface),
          versions: addDistinct(sql`${existing}.versions`, version),
          browsers: addDistinct(sql`${existing}.browsers`, browser),
          resolvedAt: null,
        },
      });
  }
  return { saved: reports.length };
}

type Row = typeof clientErrors.$inferSelect;

const toGroup = (r: Row): ClientErrorGroup => ({
  clientErrorId: r.id,
  fingerprint: r.fingerprint,
  message: r.message,
  topFrame: r.topFrame,
  stack: r.stack,
  surfaces: r.surfaces,
  versions: r.versions,
  browsers: r.browsers,
  lastPath: r.lastPath,
  count: r.count,
  firstSeen: r.firstSeenAt.toISOString(),
  lastSeen: r.lastSeenAt.toISOString(),
  resolvedTime: r.resolvedAt?.toISOString() ?? null,
});

/** The groups, last seen first; open ones by default. */
export async function listClientErrors(ctx: AppContext, query: ClientErrorListQuery): Promise<Paged<ClientErrorGroup>> {
  const filters: (SQL | undefined)[] = [];
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    filters.push(or(ilike(clientErrors.message, pattern), ilike(clientErrors.topFrame, pattern)));
  }
  if (query.surface) filters.push(sql`${clientErrors.surfaces} @> ${JSON.stringify([query.surface])}::jsonb`);
  if (query.state === 'open') filters.push(isNull(clientErrors.resolvedAt));
  if (query.state === 'resolved') filters.push(isNotNull(clientErrors.resolvedAt));
  const { rows, total } = await pageOf(ctx.db, clientErrors, and(...filters), [desc(clientErrors.lastSeenAt), desc(clientErrors.id)], query);
  return { list: rows.map(toGroup), total };
}

export async function getClientError(ctx: AppContext, id: string): Promise<ClientErrorGroup | null> {
  const [row] = await ctx.db.select().from(clientErrors).where(eq(clientErrors.id, id));
  return row ? toGroup(row) : null;
}

/** Marks a group resolved; it reopens when it is reported again. */
export async function resolveClientError(ctx: AppContext, id: string): Promise<ClientErrorGroup> {
  const [row] = await ctx.db.update(clientErrors).set({ resolvedAt: new Date() }).where(eq(clientErrors.id, id)).returning();
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toGroup(row);
}

/**
 * Deletes the groups no one has reported for TRACKING_RETENTION_DAYS (none when it is 0), with the
 * tracking records' hourly sweep (tracking.ts): messages that carry ids make new groups for ever.
 */
export async function sweepClientErrors(ctx: AppContext, now = new Date()): Promise<number> {
  const days = ctx.config.TRACKING_RETENTION_DAYS;
  if (!days) return 0;
  const before = new Date(now.getTime() - days * 86_400_000);
  const rows = await ctx.db.delete(clientErrors).where(lt(clientErrors.lastSeenAt, before)).returning({ id: clientErrors.id });
  return rows.length;
}
