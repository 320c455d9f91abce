import { and, count, desc, eq, gte, ilike, isNotNull, isNull, lt, lte, gt, sql, type SQL } from 'drizzle-orm';
import type {
  AdminOrder,
  AdminOrderListQuery,
  AdminSubscription,
  AdminSubscriptionListQuery,
  InviteStatistics,
  InviteStatisticsQuery,
  OrderStatus,
} from '../../../shared/contracts/admin-money.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { escapeLike } from '../../db/like.ts';
import { pageOfSelect, rangeOf } from '../../db/list-query.ts';
import { stripeSubscriptions, vipPackages } from '../../db/schema/plans.ts';
import { pointLedger } from '../../db/schema/points.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';

/**
 * The console's money pages: orders, Stripe subscriptions and invite statistics. Lists are paged and
 * filtered in SQL; statistics are aggregated by the database, never over rows in JavaScript.
 */

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** A range's bounds (list-query.ts rangeOf); an empty or inverted range is refused rather than answered empty. */
function checkedRange(q: { from?: string; to?: string }): { from: Date | null; to: Date | null } {
  const range = rangeOf(q);
  if (range.from && range.to && range.from >= range.to) throw new AppError(Codes.BadRequest, 'dateRangeInvalid');
  return range;
}

/** The user filter of a list: the id exactly, or a part of the e-mail (case-insensitive, wildcards taken literally). */
function userFilters(q: { userId?: string; email?: string }, userIdColumn: typeof vipOrders.userId | typeof stripeSubscriptions.userId): SQL[] {
  const out: SQL[] = [];
  if (q.userId) out.push(eq(userIdColumn, q.userId));
  if (q.email) out.push(ilike(users.email, `%${escapeLike(q.email)}%`));
  return out;
}

// ---- orders ----

/** An order's status from its times (refunded wins); the same rule as orderStatusFilter. */
const orderStatusSql = sql<OrderStatus>`case
  when ${vipOrders.refundedAt} is not null then 'refunded'
  when ${vipOrders.startTime} > now() then 'scheduled'
  when ${vipOrders.endTime} > now() then 'active'
  else 'ended' end`;

function orderStatusFilter(status: OrderStatus): SQL {
  const notRefunded = isNull(vipOrders.refundedAt);
  switch (status) {
    case 'refunded':
      return isNotNull(vipOrders.refundedAt);
    case 'scheduled':
      return and(notRefunded, gt(vipOrders.startTime, sql`now()`))!;
    case 'active':
      return and(notRefunded, lte(vipOrders.startTime, sql`now()`), gt(vipOrders.endTime, sql`now()`))!;
    case 'ended':
      return and(notRefunded, lte(vipOrders.endTime, sql`now()`))!;
  }
}

const orderColumns = {
  order: vipOrders,
  userEmail: users.email,
  userName: users.userName,
  status: orderStatusSql,
};

type OrderRow = { order: typeof vipOrders.$inferSelect; userEmail: string; userName: string; status: OrderStatus };

function toAdminOrder({ order: o, userEmail, userName, status }: OrderRow): AdminOrder {
  return {
    vipOrderId: o.id,
    userId: o.userId,
    userEmail,
    userName,
    packageLevel: o.packageLevel,
    packageName: o.packageName,
    packageId: o.packageId,
    period: o.period,
    source: o.source,
    status,
    amount: o.amount,
    currency: o.currency,
    startTime: iso(o.startTime),
    endTime: iso(o.endTime),
    createTime: iso(o.createdAt),
    refundTime: isoOrNull(o.refundedAt),
    dispute: o.disputeStatus ?? null,
    stripeInvoiceId: o.stripeInvoiceId,
    stripeSubscriptionId: o.stripeSubscriptionId,
    pointsGranted: o.pointsGranted,
    pointsTaken: o.pointsTaken,
    hiddenByUser: !!o.hiddenAt,
  };
}

/** Orders newest first, with the user's e-mail; filters by status, source, user and creation time. */
export async function listOrders(ctx: AppContext, q: AdminOrderListQuery): Promise<Paged<AdminOrder>> {
  const { from, to } = checkedRange(q);
  const where = and(
    ...(q.status ? [orderStatusFilter(q.status)] : []),
    ...(q.source ? [eq(vipOrders.source, q.source)] : []),
    ...userFilters(q, vipOrders.userId),
    ...(from ? [gte(vipOrders.createdAt, from)] : []),
    ...(to ? [lt(vipOrders.createdAt, to)] : []),
  );
  const { rows, total } = await pageOfSelect(
    ctx.db
      .select(orderColumns)
      .from(vipOrders)
      .innerJoin(users, eq(users.id, vipOrders.userId))
      .where(where)
      .orderBy(desc(vipOrders.createdAt), desc(vipOrders.id)),
    ctx.db.select({ total: count() }).from(vipOrders).innerJoin(users, eq(users.id, vipOrders.userId)).where(where),
    q,
  );
  return { list: rows.map(toAdminOrder), total };
}

export async function getOrder(ctx: AppContext, vipOrderId: string): Promise<AdminOrder> {
  const [row] = await ctx.db.select(orderColumns).from(vipOrders).innerJoin(users, eq(users.id, vipOrders.userId)).where(eq(vipOrders.id, vipOrderId));
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toAdminOrder(row);
}

// ---- Stripe subscriptions ----

/** Subscriptions most recently changed first, with the user and the package's current terms. */
export async function listSubscriptions(ctx: AppContext, q: AdminSubscriptionListQuery): Promise<Paged<AdminSubscription>> {
  const where = and(...(q.status ? [eq(stripeSubscriptions.status, q.status)] : []), ...userFilters(q, stripeSubscriptions.userId));
  const { rows, total } = await pageOfSelect(
    ctx.db
      .select({
        sub: stripeSubscriptions,
        userEmail: users.email,
        userName: users.userName,
        packageName: vipPackages.name,
        level: vipPackages.level,
        period: vipPackages.period,
      })
      .from(stripeSubscriptions)
      .innerJoin(users, eq(users.id, stripeSubscriptions.userId))
      .leftJoin(vipPackages, eq(vipPackages.id, stripeSubscriptions.packageId))
      .where(where)
      .orderBy(desc(stripeSubscriptions.updatedAt), desc(stripeSubscriptions.id)),
    ctx.db.select({ total: count() }).from(stripeSubscriptions).innerJoin(users, eq(users.id, stripeSubscriptions.userId)).where(where),
    q,
  );
  return {
    list: rows.map(({ sub, ...r }) => ({
      subscriptionId: sub.id,
      userId: sub.userId,
      userEmail: r.userEmail,
      userName: r.userName,
      customerId: sub.customerId,
      packageId: sub.packageId,
      packageName: r.packageName,
      level: r.level,
      period: r.period,
      status: sub.status,
      currentPeriodEnd: isoOrNull(sub.currentPeriodEnd),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      createTime: iso(sub.createdAt),
      updateTime: iso(sub.updatedAt),
    })),
    total,
  };
}

// ---- invite statistics ----

type StatRow = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/**
 * Invite statistics over a range: sign-ups that named an inviter (users.invited_by, by sign-up time)
 * and invite credits on the ledger (reason 'invite', by credit time; docs/economy.md#invites). One
 * statement per figure, each aggregated by the database.
 */
export async function inviteStatistics(ctx: AppContext, q: InviteStatisticsQuery): Promise<InviteStatistics> {
  const { from, to } = checkedRange(q);
  const inRange = (column: SQL) => sql`${from ? sql`${column} >= ${iso(from)}::timestamptz` : sql`true`} and ${to ? sql`${column} < ${iso(to)}::timestamptz` : sql`true`}`;
  const signups = sql`select u.invited_by as inviter, u.created_at as ts from ${users} u where u.invited_by is not null and ${inRange(sql`u.created_at`)}`;
  const credits = sql`select l.user_id as inviter, l.delta, l.created_at as ts from ${pointLedger} l where l.reason = 'invite' and ${inRange(sql`l.created_at`)}`;
  const [totals, days, top] = await Promise.all([
    ctx.db.execute<StatRow>(sql`select
        (select count(*) from (${signups}) s) as invitees,
        (select count(distinct inviter) from (${signups}) s) as inviters,
        (select count(*) from (${credits}) c) as credited,
        (select coalesce(sum(delta), 0) from (${credits}) c) as points`),
    ctx.db.execute<StatRow>(sql`select to_char(d, 'YYYY-MM-DD') as day, sum(invitees) as invitees, sum(credited) as credited, sum(points) as points from (
        select date_trunc('day', ts at time zone 'UTC') as d, 1 as invitees, 0 as credited, 0 as points from (${signups}) s
        union all
        select date_trunc('day', ts at time zone 'UTC'), 0, 1, delta from (${credits}) c
      ) x group by d order by d`),
    ctx.db.execute<StatRow>(sql`with s as (select inviter, count(*) as invitees from (${signups}) s group by inviter),
        c as (select inviter, count(*) as credited, sum(delta) as points from (${credits}) c group by inviter)
      select u.id, u.email, u.user_name, coalesce(s.invitees, 0) as invitees, coalesce(c.credited, 0) as credited, coalesce(c.points, 0) as points
      from s full join c on c.inviter = s.inviter
      join ${users} u on u.id = coalesce(s.inviter, c.inviter)
      order by invitees desc, points desc, u.id
      limit ${q.top}`),
  ]);
  const t = rowsOf(totals)[0] ?? {};
  return {
    from: isoOrNull(from),
    to: isoOrNull(to),
    totals: { invitees: num(t.invitees), inviters: num(t.inviters), credited: num(t.credited), pointsGranted: num(t.points) },
    days: rowsOf(days).map((d) => ({ day: String(d.day), invitees: num(d.invitees), credited: num(d.credited), pointsGranted: num(d.points) })),
    top: rowsOf(top).map((r) => ({
      userId: String(r.id),
      userEmail: String(r.email),
      userName: String(r.user_name),
      invitees: num(r.invitees),
      credited: num(r.credited),
      pointsGranted: num(r.points),
    })),
  };
}

const rowsOf = (result: { rows: StatRow[] }) => result.rows;
