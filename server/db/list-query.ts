import { and, count, desc, gte, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { PageQuery } from '../../shared/contracts/common.ts';
import type { Db } from './client.ts';

/** What the console's lists share: a date range's bounds, and one page of a table with its total. */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * A range's bounds as instants (the contracts' range bound: an ISO date-time, or a date alone). A
 * date alone is its UTC start for `from`, and the next day's start for `to`: the day is included.
 */
export function rangeOf(q: { from?: string; to?: string }): { from: Date | null; to: Date | null } {
  const bound = (value: string | undefined, end: boolean) => {
    if (!value) return null;
    const dateOnly = DATE_ONLY.test(value);
    const at = new Date(dateOnly ? `${value}T00:00:00Z` : value);
    return dateOnly && end ? new Date(at.getTime() + DAY_MS) : at;
  };
  return { from: bound(q.from, false), to: bound(q.to, true) };
}

/** The conditions that keep `column` within the range: from inclusive, to exclusive (see rangeOf). */
export function inRange(column: PgColumn, q: { from?: string; to?: string }): SQL[] {
  const { from, to } = rangeOf(q);
  return [...(from ? [gte(column, from)] : []), ...(to ? [lt(column, to)] : [])];
}

/** One page of a table's rows matching `where`, in `order`, and how many rows match in all. */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  order: (PgColumn | SQL)[],
  q: PageQuery,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const { rows, total } = await pageOfSelect(
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...order),
    db.select({ total: count() }).from(table as PgTable).where(where),
    q,
  );
  return { rows: rows as T['$inferSelect'][], total };
}

/**
 * Page `q` of `select` (rows already joined, filtered and ordered), and `total`, a count over the
 * same joins and filter: the page of a list that pageOf's single table does not give.
 */
export async function pageOfSelect<R>(
  select: { limit(n: number): { offset(n: number): PromiseLike<R[]> } },
  total: PromiseLike<{ total: number }[]>,
  q: PageQuery,
): Promise<{ rows: R[]; total: number }> {
  const [rows, [counted]] = await Promise.all([select.limit(q.count).offset((q.page - 1) * q.count), total]);
  return { rows, total: counted.total };
}

/**
 * One page of a log-like table, newest first (ties by id), within the range of `q`, its rows put
 * in their wire shape: the console's logs (audit, request times, page views) all list this way.
 */
export async function newestPage<T extends PgTable & { createdAt: PgColumn; id: PgColumn }, R>(
  db: Db,
  table: T,
  conditions: (SQL | undefined)[],
  q: PageQuery & { from?: string; to?: string },
  toWire: (row: T['$inferSelect']) => R,
): Promise<{ total: number; list: R[] }> {
  const where = and(...conditions, ...inRange(table.createdAt, q));
  const { rows, total } = await pageOf(db, table, where, [desc(table.createdAt), desc(table.id)], q);
  return { total, list: rows.map(toWire) };
}
