import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, gte, isNull, lte, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { VIP_LEVEL_NAMES } from '../../../shared/contracts/model.ts';
import type {
  AdminVipPackage,
  ExtendEndTime,
  SaveVipPackage,
  VipOrder,
  VipPackage,
  VipPackageList,
  VipPeriod,
} from '../../../shared/contracts/plans.ts';
import { FREE_VIP_PACKAGE_ID } from '../../../shared/contracts/plans.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { stripeSubscriptions, vipPackages } from '../../db/schema/plans.ts';
import { pointBalances } from '../../db/schema/points.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { applyLedgerChange } from '../points/ledger.ts';
import { settingValues } from '../system/settings.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';
import { visitorCountry } from '../system/countries.ts';

/**
 * Plans (docs/economy.md#plans) and orders (docs/economy.md#orders). A package is what is sold: a
 * level for a month or a year, with its prices and the points each month gives. What a user holds is
 * a vip_orders row, whichever way it came (a paid invoice, a redeem code, an operator); the plan in
 * force is read from those rows on every request (activeVipOrderSql in server/services/accounts/auth.ts).
 */

const DAY_MS = 86_400_000;

export const levelName = (level: number) => VIP_LEVEL_NAMES[level] ?? `Level ${level}`;
export const periodMonths = (period: VipPeriod) => (period === 'year' ? 12 : 1);

export type PackageRow = typeof vipPackages.$inferSelect;

/**
 * What a new server sells until an operator changes it. The yearly plans give more points a month
 * (Super: 60000, as the upgrade text advertises) for less than twelve monthly prices.
 */
const DEFAULT_PACKAGES: (Pick<PackageRow, 'id' | 'level' | 'period' | 'prices' | 'monthlyPoints' | 'sort'> & { bestDeal?: boolean })[] = [
  { id: 'standard-month', level: 1, period: 'month', prices: { usd: 999, cny: 6800 }, monthlyPoints: 5000, sort: 10 },
  { id: 'standard-year', level: 1, period: 'year', prices: { usd: 9590, cny: 65800 }, monthlyPoints: 6000, sort: 11 },
  { id: 'advanced-month', level: 2, period: 'month', prices: { usd: 1999, cny: 13800 }, monthlyPoints: 20000, sort: 20 },
  { id: 'advanced-year', level: 2, period: 'year', prices: { usd: 19190, cny: 132800 }, monthlyPoints: 25000, sort: 21, bestDeal: true },
  { id: 'super-month', level: 3, period: 'month', prices: { usd: 3999, cny: 26800 }, monthlyPoints: 50000, sort: 30 },
  { id: 'super-year', level: 3, period: 'year', prices: { usd: 38390, cny: 257800 }, monthlyPoints: 60000, sort: 31 },
];

/**
 * Seeds the default packages into an empty table, once: deleted packages stay as rows (deletedAt), so
 * a table an operator emptied is not filled again. Instances starting together insert the same ids.
 */
export async function seedPackages(ctx: AppContext): Promise<void> {
  const [{ n }] = await ctx.db.select({ n: count() }).from(vipPackages);
  if (n > 0) return;
  await ctx.db
    .insert(vipPackages)
    .values(DEFAULT_PACKAGES.map((p) => ({ ...p, name: levelName(p.level), bestDeal: p.bestDeal ?? false })))
    .onConflictDoNothing();
}

const FREE_PLAN = (currency: string): VipPackage => ({
  vipPackageId: FREE_VIP_PACKAGE_ID,
  name: levelName(0),
  level: 0,
  levelName: levelName(0),
  period: 'month',
  currency,
  price: 0,
  monthlyPoints: 0,
  periodPoints: 0,
  bestDeal: false,
  sort: -1,
});

function publicPackage(row: PackageRow, currency: string): VipPackage {
  return {
    vipPackageId: row.id,
    name: row.name,
    level: row.level,
    levelName: levelName(row.level),
    period: row.period,
    currency,
    price: row.prices[currency]!,
    monthlyPoints: row.monthlyPoints,
    periodPoints: row.monthlyPoints * periodMonths(row.period),
    bestDeal: row.bestDeal,
    sort: row.sort,
  };
}

export const checkoutAvailable = (ctx: AppContext) => !!ctx.config.STRIPE_SECRET_KEY;

/**
 * The ways to pay offered to a caller in `country` (null: unknown), the one place this is decided.
 * Only Stripe Checkout (cards) exists, and it is offered everywhere, mainland China included, when
 * payments are set up; a method for one region (e.g. a wallet for isChina) would be added here.
 */
export function paymentMethodsFor(ctx: AppContext, _country: string | null): VipPackageList['paymentMethods'] {
  return checkoutAvailable(ctx) ? ['card'] : [];
}

/** The free plan, then the online packages that have a price in `currency`, by sort; the payment methods for the caller's `address`. */
export async function listPublicPackages(ctx: AppContext, currency = 'usd', address?: string): Promise<VipPackageList> {
  const country = address ? (await visitorCountry(address)).country : null;
  const rows = await ctx.db
    .select()
    .from(vipPackages)
    .where(and(eq(vipPackages.online, true), isNull(vipPackages.deletedAt)))
    .orderBy(asc(vipPackages.sort), asc(vipPackages.level), asc(vipPackages.id));
  const sold = rows.filter((r) => Number.isInteger(r.prices[currency]));
  return {
    currency,
    checkoutAvailable: checkoutAvailable(ctx),
    freeDailyPoints: ctx.config.FREE_DAILY_POINTS,
    country,
    paymentMethods: paymentMethodsFor(ctx, country),
    list: [FREE_PLAN(currency), ...sold.map((r) => publicPackage(r, currency))],
  };
}

function adminPackage(row: PackageRow): AdminVipPackage {
  return {
    vipPackageId: row.id,
    name: row.name,
    level: row.level,
    period: row.period,
    prices: row.prices,
    stripePriceIds: row.stripePriceIds,
    monthlyPoints: row.monthlyPoints,
    bestDeal: row.bestDeal,
    online: row.online,
    sort: row.sort,
    createTime: row.createdAt.toISOString(),
    updateTime: row.updatedAt.toISOString(),
  };
}

export async function listAdminPackages(db: Db): Promise<AdminVipPackage[]> {
  const rows = await db.select().from(vipPackages).where(isNull(vipPackages.deletedAt)).orderBy(asc(vipPackages.sort), asc(vipPackages.id));
  return rows.map(adminPackage);
}

/** A package by id, deleted ones too (renewals of subscriptions sold before the delete still name it). */
export async function packageById(db: Db, id: string): Promise<PackageRow | undefined> {
  const [row] = await db.select().from(vipPackages).where(eq(vipPackages.id, id));
  return row;
}

/** Creates the package, or replaces the one with this id (bringing a deleted one back). */
export async function savePackage(db: Db, input: SaveVipPackage): Promise<AdminVipPackage> {
  const id = input.vipPackageId ?? `${levelName(input.level).toLowerCase()}-${input.period}-${randomBytes(3).toString('hex')}`;
  const fields = {
    name: input.name ?? levelName(input.level),
    level: input.level,
    period: input.period,
    prices: input.prices,
    stripePriceIds: input.stripePriceIds,
    monthlyPoints: input.monthlyPoints,
    bestDeal: input.bestDeal,
    online: input.online,
    sort: input.sort,
  };
  const now = new Date();
  const [row] = await db
    .insert(vipPackages)
    .values({ id, ...fields, updatedAt: now })
    .onConflictDoUpdate({ target: vipPackages.id, set: { ...fields, deletedAt: null, updatedAt: now } })
    .returning();
  return adminPackage(row!);
}

/** Takes the package off every list; subscriptions already sold keep renewing at its level. */
export async function deletePackage(db: Db, id: string): Promise<void> {
  const gone = await db
    .update(vipPackages)
    .set({ deletedAt: new Date(), online: false })
    .where(and(eq(vipPackages.id, id), isNull(vipPackages.deletedAt)))
    .returning({ id: vipPackages.id });
  if (!gone.length) throw new AppError(Codes.NotFound, 'notFound');
}

type NewOrderFields = Partial<Pick<typeof vipOrders.$inferInsert, 'source' | 'requestId' | 'packageId' | 'period'>>;

/**
 * Adds plan days at `level` (redeem codes, operators' grants): the new order runs from the end of the
 * user's latest order at that level or above (or from now), so days already held are not lost. The
 * user's row is locked first, so two grants for one user add up. `no key update` does not wait for the
 * key-share locks that inserting rows which reference the user takes (redeem_uses), which would
 * deadlock two such grants.
 */
export async function addPlanDays(tx: Db, userId: string, level: number, days: number, fields: NewOrderFields = {}) {
  await tx.execute(sql`select id from ${users} where id = ${userId} for no key update`);
  const now = new Date();
  const [current] = await tx
    .select({ end: sql`max(${vipOrders.endTime})`.mapWith(vipOrders.endTime) })
    .from(vipOrders)
    .where(and(eq(vipOrders.userId, userId), gte(vipOrders.packageLevel, level), gt(vipOrders.endTime, now)));
  const start = current?.end && current.end > now ? current.end : now;
  const order = { id: randomUUID(), startTime: start, endTime: new Date(start.getTime() + days * DAY_MS) };
  await tx.insert(vipOrders).values({ ...order, userId, packageLevel: level, packageName: levelName(level), ...fields });
  return order;
}

/** An operator's grant of plan days, applied once per requestId. */
export async function extendEndTime(db: Db, input: ExtendEndTime) {
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
  if (!account) throw new AppError(Codes.NotFound, 'notFound');
  const requestId = `admin:${input.requestId}`;
  const made = async () => {
    const [order] = await db.select().from(vipOrders).where(eq(vipOrders.requestId, requestId));
    return order;
  };
  const before = await made();
  if (!before) {
    try {
      const order = await db.transaction((tx) => addPlanDays(tx, input.userId, input.level, input.days, { source: 'admin', requestId }));
      return { applied: true, vipOrderId: order.id, startTime: order.startTime.toISOString(), endTime: order.endTime.toISOString() };
    } catch (err) {
      // The same requestId sent twice at once: the other one made the order.
      if (!isUniqueViolation(err, 'vip_orders_request_id_unique')) throw err;
    }
  }
  const order = before ?? (await made())!;
  return { applied: false, vipOrderId: order.id, startTime: order.startTime.toISOString(), endTime: order.endTime.toISOString() };
}

type OrderRow = typeof vipOrders.$inferSelect;

function orderView(row: OrderRow, now = new Date()): VipOrder {
  return {
    vipOrderId: row.id,
    vipPackageId: row.packageId,
    packageName: row.packageName,
    level: row.packageLevel,
    period: row.period,
    source: row.source,
    status: row.refundedAt ? 'refunded' : row.source === 'stripe' ? 'paid' : 'granted',
    amount: row.amount,
    currency: row.currency,
    points: row.pointsGranted,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    active: row.startTime <= now && row.endTime > now,
    createTime: row.createdAt.toISOString(),
  };
}

const visibleOrdersOf = (userId: string) => and(eq(vipOrders.userId, userId), isNull(vipOrders.hiddenAt));

/** The user's orders, newest first, without the ones the user removed from the list. */
export async function listOrders(db: Db, userId: string, page: number, pageSize: number) {
  const where = visibleOrdersOf(userId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(vipOrders)
      .where(where)
      .orderBy(desc(vipOrders.createdAt), desc(vipOrders.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(vipOrders).where(where),
  ]);
  const now = new Date();
  return { list: rows.map((r) => orderView(r, now)), total };
}

/** One of the user's orders; another user's, or a removed one, is not found alike. */
export async function orderById(db: Db, userId: string, orderId: string): Promise<VipOrder> {
  const [row] = await db.select().from(vipOrders).where(and(visibleOrdersOf(userId), eq(vipOrders.id, orderId)));
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return orderView(row);
}

/** Removes an order from the user's list. It is kept (and stays in force until it ends): it is a record of a payment. */
export async function hideOrder(db: Db, userId: string, orderId: string): Promise<void> {
  const hidden = await db
    .update(vipOrders)
    .set({ hiddenAt: new Date() })
    .where(and(visibleOrdersOf(userId), eq(vipOrders.id, orderId)))
    .returning({ id: vipOrders.id });
  if (!hidden.length) throw new AppError(Codes.NotFound, 'notFound');
}

/**
 * Takes back the part of an order's plan points not taken yet, as far as the balance goes (never
 * below zero): "unspent" is min(what the order granted less what was taken back, the balance now),
 * since points are not earmarked by where they came from. Marks the grant settled. Runs in the
 * caller's transaction; the ledger key makes it once per order and kind.
 */
export async function takeBackPlanPoints(tx: Db, order: OrderRow, kind: 'plan' | 'expiry', key: string, note: string): Promise<number> {
  const open = Math.max(0, order.pointsGranted - order.pointsTaken);
  const [balance] = await tx.select({ balance: pointBalances.balance }).from(pointBalances).where(eq(pointBalances.userId, order.userId)).for('update');
  const take = Math.min(open, balance?.balance ?? 0);
  if (take > 0) {
    const result = await applyLedgerChange(tx, { userId: order.userId, delta: -take, kind, key, refId: order.id, note });
    if (result.status !== 'applied') return 0;
  }
  await tx
    .update(vipOrders)
    .set({ pointsTaken: sql`${vipOrders.pointsTaken} + ${take}`, pointsSettledAt: new Date() })
    .where(eq(vipOrders.id, order.id));
  return take;
}

async function planPointsExpire(ctx: AppContext): Promise<boolean> {
  const { plan_points_expire: value } = await settingValues(ctx, ['plan_points_expire']);
  return value.trim().toLowerCase() === 'true';
}

/**
 * When the setting plan_points_expire is 'true': the unspent part of each ended paid period's grant
 * expires (ledger kind 'expiry', key expiry:<invoiceId>). Run by the periodic sweep
 * (server/services/system/startup.ts); answers how many orders it settled.
 */
export async function expirePlanPoints(ctx: AppContext, now = new Date()): Promise<number> {
  if (!(await planPointsExpire(ctx))) return 0;
  const due = await ctx.db
    .select({ id: vipOrders.id })
    .from(vipOrders)
    .where(and(lte(vipOrders.endTime, now), isNull(vipOrders.pointsSettledAt), gt(vipOrders.pointsGranted, 0)))
    .limit(500);
  for (const { id } of due) {
    await ctx.db.transaction(async (tx) => {
      const [order] = await tx.select().from(vipOrders).where(and(eq(vipOrders.id, id), isNull(vipOrders.pointsSettledAt))).for('update');
      if (!order) return;
      await takeBackPlanPoints(tx, order, 'expiry', `expiry:${order.stripeInvoiceId ?? order.id}`, 'plan period ended');
    });
  }
  return due.length;
}

/** How long before a subscription renews its user is told (docs/economy.md#notifications). */
export const RENEWAL_NOTICE_DAYS = 3;

/**
 * Tells each user whose subscription renews within RENEWAL_NOTICE_DAYS (active, not cancelled) when
 * and which plan, once per period: the dedupe key names the subscription and the period's end.
 * Returns how many subscriptions were due.
 */
export async function notifyRenewalsDue(ctx: AppContext, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + RENEWAL_NOTICE_DAYS * 86_400_000);
  const due = await ctx.db
    .select({ id: stripeSubscriptions.id, userId: stripeSubscriptions.userId, end: stripeSubscriptions.currentPeriodEnd, plan: vipPackages.name })
    .from(stripeSubscriptions)
    .innerJoin(vipPackages, eq(vipPackages.id, stripeSubscriptions.packageId))
    .where(
      and(
        eq(stripeSubscriptions.status, 'active'),
        eq(stripeSubscriptions.cancelAtPeriodEnd, false),
        gt(stripeSubscriptions.currentPeriodEnd, now),
        lte(stripeSubscriptions.currentPeriodEnd, soon),
      ),
    )
    .limit(1000);
  await announcingNotified(ctx, async () => {
    for (const s of due) await noticeOfRenewal(ctx, s);
  });
  return due.length;
}

/** One renewal's notice; the users it adds one for get their new count (announcingNotified). */
function noticeOfRenewal(ctx: AppContext, s: { id: string; userId: string; end: Date | null; plan: string }) {
  const endDate = s.end!.toISOString().slice(0, 10);
  return notify(ctx.db, {
    userId: s.userId,
    kind: 'plan',
    titleKey: 'notifications.planRenewing.title',
    bodyKey: 'notifications.planRenewing.body',
    params: { plan: s.plan, endDate },
    link: '/subscription',
    dedupeKey: `plan-renewing:${s.id}:${s.end!.toISOString()}`,
  });
}

/** Every 10 minutes while the instance runs: plan points that expire, renewals to announce. Returns the stop. */
export function startPlanPointsSweep(ctx: AppContext, intervalMs = 600_000): () => void {
  const timer = setInterval(() => {
    expirePlanPoints(ctx).catch((err: unknown) => ctx.log.error({ err }, 'expiring plan points failed'));
    notifyRenewalsDue(ctx).catch((err: unknown) => ctx.log.error({ err }, 'announcing renewals failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
