import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Language } from '../../../shared/contracts/common.ts';
import type { AdminCoupon, CheckCouponResult, PromoCodeKind, SaveCoupon } from '../../../shared/contracts/coupons.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { VipPeriod } from '../../../shared/contracts/plans.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { couponRedemptions, couponReservations, coupons } from '../../db/schema/coupons.ts';
import { vipPackages } from '../../db/schema/plans.ts';
import { AppError } from '../../core/errors.ts';
import { t, type MessageKey } from '../../core/i18n.ts';
import type { PackageRow } from './plans.ts';
import { isRedeemable } from '../points/redeem-codes.ts';

/**
 * Coupons (docs/economy.md#coupons). An operator defines a coupon here; CheckCoupon tells anyone what
 * it gives; a checkout reserves one of its uses under the coupon's row lock and applies it as a Stripe
 * coupon (server/services/plans/stripe.ts); the webhook counts the use when the first invoice is paid with
 * it (server/services/plans/stripe-webhook.ts), under the same lock. The Stripe coupon carrying a coupon's
 * terms is made once per currency and remembered on the coupon's row.
 */

export type CouponRow = typeof coupons.$inferSelect;

/**
 * How long a Checkout Session made with a coupon stays open, and so how long it holds a use of the
 * coupon: Stripe's shortest (it allows 30 minutes to 24 hours), because an unpaid checkout holds the
 * use away from every other customer.
 */
export const CHECKOUT_SESSION_MS = 30 * 60_000;
/** After checkout.session.completed: the time Stripe gives an incomplete subscription's first payment. */
const COMPLETED_HOLD_MS = 24 * 3_600_000;

/** What is stored and compared: trimmed, upper case. */
export const canonicalCouponCode = (input: string) => input.trim().toUpperCase();

const DAY = (d: Date) => d.toISOString().slice(0, 10);

/** "5.00 USD": minor units in the currency's own decimals, readable in both languages. */
export function formatMoney(amount: number, currency: string): string {
  const upper = currency.toUpperCase();
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: upper }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // A code Intl does not accept: two decimals, as most currencies have.
  }
  return `${(amount / 10 ** digits).toFixed(digits)} ${upper}`;
}

/** Reservations that hold a use now: not paid yet, not lapsed. */
const openReservations = (couponId: string) =>
  and(eq(couponReservations.couponId, couponId), isNull(couponReservations.redeemedAt), gt(couponReservations.expiresAt, sql`now()`));

/** Uses held by other users' open checkouts (all of them when `userId` is null). */
async function heldByOthers(db: Db, couponId: string, userId: string | null): Promise<number> {
  const mineExcluded = userId ? and(openReservations(couponId), ne(couponReservations.userId, userId)) : openReservations(couponId);
  const [{ n }] = await db.select({ n: count() }).from(couponReservations).where(mineExcluded);
  return n;
}

const appliesToPackage = (coupon: CouponRow, pkg: PackageRow) =>
  (coupon.packageIds.length === 0 || coupon.packageIds.includes(pkg.id)) && (coupon.periods.length === 0 || coupon.periods.includes(pkg.period));

type Refusal = { key: MessageKey; params: Record<string, string | number> };

/**
 * Why the coupon cannot be used now, or null. `pkg` undefined: no package asked about; null: one
 * that is not on sale. `held`: uses other checkouts hold.
 */
function refusalOf(coupon: CouponRow, ask: { pkg?: PackageRow | null; currency?: string; held: number; now: Date }): Refusal | null {
  const code = coupon.code;
  if (coupon.disabled) return { key: 'couponDisabled', params: { code } };
  if (coupon.validFrom && coupon.validFrom > ask.now) return { key: 'couponNotYetValid', params: { code, date: DAY(coupon.validFrom) } };
  if (coupon.validTo && coupon.validTo <= ask.now) return { key: 'couponExpired', params: { code, date: DAY(coupon.validTo) } };
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed + ask.held >= coupon.maxRedemptions) return { key: 'couponUsedUp', params: { code } };
  if (ask.pkg !== undefined && (!ask.pkg || !appliesToPackage(coupon, ask.pkg))) return { key: 'couponNotForPlan', params: { code } };
  if (coupon.amountOff !== null && coupon.currency && ask.currency && ask.currency !== coupon.currency) {
    return { key: 'couponCurrencyMismatch', params: { code, amount: formatMoney(coupon.amountOff, coupon.currency), currency: coupon.currency.toUpperCase() } };
  }
  return null;
}

/** What the coupon gives, in words. */
function describe(coupon: CouponRow, lang: Language): string {
  const forever = coupon.duration === 'forever';
  if (coupon.percentOff !== null) return t(lang, forever ? 'couponPercentOffForever' : 'couponPercentOffOnce', { percent: coupon.percentOff });
  return t(lang, forever ? 'couponAmountOffForever' : 'couponAmountOffOnce', { amount: formatMoney(coupon.amountOff ?? 0, coupon.currency ?? 'usd') });
}

async function packagesOnSale(db: Db): Promise<PackageRow[]> {
  return db
    .select()
    .from(vipPackages)
    .where(and(eq(vipPackages.online, true), isNull(vipPackages.deletedAt)))
    .orderBy(vipPackages.sort, vipPackages.id);
}

/**
 * GET /api/Coupons/CheckCoupon: whether the code can be used now (for `vipPackageId` and `currency`
 * when given), what it gives, and the packages on sale it applies to. Coupons are not secret, so an
 * unknown code is said to be unknown.
 */
export async function checkCoupon(
  ctx: AppContext,
  userId: string | null,
  ask: { code: string; vipPackageId?: string; currency?: string },
  lang: Language,
): Promise<CheckCouponResult> {
  const code = canonicalCouponCode(ask.code);
  const [coupon] = code ? await ctx.db.select().from(coupons).where(eq(coupons.code, code)) : [];
  if (!coupon) return { valid: false, appliesTo: [], validTo: null, message: t(lang, 'couponInvalid', { code: code || ask.code }) };
  const [held, onSale] = await Promise.all([heldByOthers(ctx.db, coupon.id, userId), packagesOnSale(ctx.db)]);
  const priced = (p: PackageRow) => coupon.currency === null || Number.isInteger(p.prices[coupon.currency]);
  const appliesTo = onSale.filter((p) => appliesToPackage(coupon, p) && priced(p)).map((p) => p.id);
  const pkg = ask.vipPackageId === undefined ? undefined : (onSale.find((p) => p.id === ask.vipPackageId) ?? null);
  let refusal = refusalOf(coupon, { pkg, currency: ask.currency, held, now: new Date() });
  if (!refusal && appliesTo.length === 0) refusal = { key: 'couponNotForPlan', params: { code } };
  return {
    valid: !refusal,
    ...(coupon.percentOff !== null ? { percentOff: coupon.percentOff } : { amountOff: coupon.amountOff ?? 0, currency: coupon.currency ?? '' }),
    duration: coupon.duration,
    appliesTo,
    validTo: coupon.validTo?.toISOString() ?? null,
    message: refusal ? t(lang, refusal.key, refusal.params) : describe(coupon, lang),
  };
}

/**
 * POST /api/User/CheckPromoCode: which kind of code the promo-code box was given, without using it.
 * A coupon is named as one (coupons are not secret); a redeem code only when the user could redeem
 * it now, and every other code answers `unknown` alike, counted as a failed guess
 * (isRedeemable, server/services/points/redeem-codes.ts).
 */
export async function checkPromoCode(ctx: AppContext, userId: string, input: string): Promise<{ kind: PromoCodeKind }> {
  const code = canonicalCouponCode(input);
  const [coupon] = code ? await ctx.db.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, code)) : [];
  if (coupon) return { kind: 'coupon' };
  return { kind: (await isRedeemable(ctx, userId, input)) ? 'redeem' : 'unknown' };
}

export type Reservation = { coupon: CouponRow; reservationId: string; created: boolean };

/**
 * A checkout's hold on one use of the coupon `code`, or null when no coupon here has that code (the
 * caller then tries Stripe's promotion codes). The coupon's row is locked, so checkouts at once see
 * each other's holds: a use is promised only while the uses counted plus the holds of other users
 * stay below maxRedemptions. A user holds at most one use of a coupon: a second checkout of theirs
 * takes over their hold, without making it last longer (re-opening checkout again and again must not
 * keep a use away from others). Every refusal is a 10400 with its own reason.
 */
export async function reserveCoupon(
  db: Db,
  ask: { userId: string; code: string; pkg: PackageRow; currency: string; sessionEnd: Date },
): Promise<Reservation | null> {
  // The hold lives as long as the session, no longer (checkout.session.completed holds it on).
  const expiresAt = ask.sessionEnd;
  return db.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.code, ask.code)).for('update');
    if (!coupon) return null;
    const held = await heldByOthers(tx, coupon.id, ask.userId);
    const refusal = refusalOf(coupon, { pkg: ask.pkg, currency: ask.currency, held, now: new Date() });
    if (refusal) throw new AppError(Codes.BadRequest, refusal.key, refusal.params);
    const [mine] = await tx
      .select({ id: couponReservations.id })
      .from(couponReservations)
      .where(and(openReservations(coupon.id), eq(couponReservations.userId, ask.userId)))
      .limit(1);
    if (mine) {
      await tx
        .update(couponReservations)
        .set({ packageId: ask.pkg.id, currency: ask.currency })
        .where(eq(couponReservations.id, mine.id));
      return { coupon, reservationId: mine.id, created: false };
    }
    const reservationId = randomUUID();
    await tx.insert(couponReservations).values({ id: reservationId, couponId: coupon.id, userId: ask.userId, packageId: ask.pkg.id, currency: ask.currency, expiresAt });
    return { coupon, reservationId, created: true };
  });
}

/** Gives a hold back when its checkout could not be made. A hold taken over from an earlier checkout stays. */
export async function releaseReservation(db: Db, reservation: Reservation): Promise<void> {
  if (reservation.created) await db.delete(couponReservations).where(and(eq(couponReservations.id, reservation.reservationId), isNull(couponReservations.redeemedAt)));
}

export async function attachSession(db: Db, reservationId: string, sessionId: string): Promise<void> {
  await db.update(couponReservations).set({ sessionId }).where(eq(couponReservations.id, reservationId));
}

/** The terms a Stripe coupon is made with; the row's Stripe coupons are forgotten when they change. */
export const termsOf = (c: Pick<CouponRow, 'percentOff' | 'amountOff' | 'currency' | 'duration'>) =>
  c.percentOff !== null ? `p${c.percentOff}-${c.duration}` : `a${c.amountOff}${c.currency}-${c.duration}`;

/**
 * Remembers the Stripe coupon made for `currency`, unless the terms changed meanwhile (an operator
 * saved the coupon) or one is remembered already (two first checkouts at once: Stripe's idempotency
 * key gave both the same).
 */
export async function rememberStripeCoupon(db: Db, coupon: CouponRow, currency: string, stripeCouponId: string): Promise<void> {
  await db
    .update(coupons)
    .set({ stripeCouponIds: sql`${coupons.stripeCouponIds} || jsonb_build_object(${currency}::text, ${stripeCouponId}::text)` })
    .where(
      and(
        eq(coupons.id, coupon.id),
        sql`${coupons.stripeCouponIds} -> ${currency}::text is null`,
        sql`${coupons.percentOff} is not distinct from ${coupon.percentOff}::int`,
        sql`${coupons.amountOff} is not distinct from ${coupon.amountOff}::int`,
        sql`${coupons.currency} is not distinct from ${coupon.currency}::text`,
        eq(coupons.duration, coupon.duration),
      ),
    );
}

/** checkout.session.completed: the hold stays while the first payment goes through (a slow payment method). */
export async function holdCompletedReservation(tx: Db, reservationId: string | undefined): Promise<void> {
  if (!reservationId) return;
  const until = new Date(Date.now() + COMPLETED_HOLD_MS);
  await tx
    .update(couponReservations)
    .set({ completedAt: new Date(), expiresAt: sql`greatest(${couponReservations.expiresAt}, ${until})` })
    .where(and(eq(couponReservations.id, reservationId), isNull(couponReservations.redeemedAt)));
}

/**
 * Counts the use of a coupon when an invoice is paid with it (in the webhook's transaction): once per
 * subscription, on its first paid invoice that carries a discount and names the coupon in its
 * subscription's metadata. The coupon's row is locked while counting. An invoice paid when no use
 * was left (two checkouts raced for the last one) is honoured all the same (Stripe has charged the
 * discounted price) and recorded as over the limit, not counted: times_redeemed never passes
 * max_redemptions. Answers what was recorded, or null.
 */
export async function recordCouponRedemption(
  tx: Db,
  paid: { invoice: Stripe.Invoice; subscriptionId: string; userId: string; metadata: Record<string, string> },
): Promise<{ overLimit: boolean } | null> {
  const { invoice, metadata } = paid;
  const couponId = metadata.couponId;
  const discount = (invoice.total_discount_amounts ?? []).reduce((n, d) => n + d.amount, 0);
  if (!couponId || !invoice.id || (discount <= 0 && !(invoice.discounts?.length ?? 0))) return null;
  const [coupon] = await tx
    .select({ timesRedeemed: coupons.timesRedeemed, maxRedemptions: coupons.maxRedemptions })
    .from(coupons)
    .where(eq(coupons.id, couponId))
    .for('update');
  if (!coupon) return null;
  const overLimit = coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions;
  const reservationId = metadata.couponReservationId || null;
  const made = await tx
    .insert(couponRedemptions)
    .values({ invoiceId: invoice.id, subscriptionId: paid.subscriptionId, couponId, userId: paid.userId, reservationId, discount, currency: invoice.currency, overLimit })
    .onConflictDoNothing()
    .returning({ invoiceId: couponRedemptions.invoiceId });
  if (!made.length) return null; // this invoice, or an earlier one of the subscription, counted already
  if (!overLimit) await tx.update(coupons).set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1` }).where(eq(coupons.id, couponId));
  if (reservationId) {
    await tx
      .update(couponReservations)
      .set({ redeemedAt: new Date() })
      .where(and(eq(couponReservations.id, reservationId), isNull(couponReservations.redeemedAt)));
  }
  return { overLimit };
}

// Operators.

// Qualified by hand: Drizzle writes a column of a one-table select unqualified, which inside these
// subqueries would name the subquery's own table.
const couponIdColumn = sql.raw('"coupons"."id"');
const adminFields = {
  row: coupons,
  reserved: sql`(select count(*) from ${couponReservations} r where r.coupon_id = ${couponIdColumn} and r.redeemed_at is null and r.expires_at > now())`.mapWith(Number),
  overLimit: sql`(select count(*) from ${couponRedemptions} d where d.coupon_id = ${couponIdColumn} and d.over_limit)`.mapWith(Number),
};

function adminView({ row, reserved, overLimit }: { row: CouponRow; reserved: number; overLimit: number }): AdminCoupon {
  return {
    couponId: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    currency: row.currency,
    vipPackageIds: row.packageIds,
    periods: row.periods as VipPeriod[],
    validFrom: row.validFrom?.toISOString() ?? null,
    validTo: row.validTo?.toISOString() ?? null,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    reserved,
    overLimit,
    duration: row.duration,
    disabled: row.disabled,
    createTime: row.createdAt.toISOString(),
    updateTime: row.updatedAt.toISOString(),
  };
}

async function couponById(db: Db, couponId: string): Promise<AdminCoupon> {
  const [found] = await db.select(adminFields).from(coupons).where(eq(coupons.id, couponId));
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return adminView(found);
}

/** The coupons, newest first, with the uses counted, held and over the limit. */
export async function listCoupons(db: Db, page: number, pageSize: number) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(adminFields)
      .from(coupons)
      .orderBy(desc(coupons.createdAt), desc(coupons.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(coupons),
  ]);
  return { list: rows.map(adminView), total };
}

/** A date alone is its start in UTC. */
const dateOf = (value: string | null | undefined) => (value ? new Date(value) : null);

/**
 * Creates a coupon, or replaces the one with `couponId`. Its code is unique (10409 when another has
 * it); the packages it names must exist; maxRedemptions cannot go below the uses counted. Changing the
 * discount or the duration forgets the Stripe coupons made with the old terms: subscriptions that have
 * one keep it, the next checkout makes a new one.
 */
export async function saveCoupon(db: Db, input: SaveCoupon): Promise<AdminCoupon> {
  const packageIds = [...new Set(input.vipPackageIds)];
  if (packageIds.length) {
    const known = new Set((await db.select({ id: vipPackages.id }).from(vipPackages).where(inArray(vipPackages.id, packageIds))).map((r) => r.id));
    const unknown = packageIds.filter((id) => !known.has(id));
    if (unknown.length) throw new AppError(Codes.BadRequest, 'couponPackageUnknown', { ids: unknown.join(', ') });
  }
  const fields = {
    code: input.code,
    percentOff: input.percentOff ?? null,
    amountOff: input.amountOff ?? null,
    currency: input.amountOff != null ? (input.currency ?? null) : null,
    packageIds,
    periods: [...new Set(input.periods)],
    validFrom: dateOf(input.validFrom),
    validTo: dateOf(input.validTo),
    maxRedemptions: input.maxRedemptions ?? null,
    duration: input.duration,
    disabled: input.disabled,
    updatedAt: new Date(),
  };
  const id = input.couponId ?? randomUUID();
  try {
    await db.transaction(async (tx) => {
      if (!input.couponId) return void (await tx.insert(coupons).values({ id, ...fields }));
      const [old] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
      if (!old) throw new AppError(Codes.NotFound, 'notFound');
      if (fields.maxRedemptions !== null && old.timesRedeemed > fields.maxRedemptions) {
        throw new AppError(Codes.BadRequest, 'couponMaxBelowRedeemed', { count: old.timesRedeemed });
      }
      const termsChanged = termsOf(old) !== termsOf(fields);
      await tx
        .update(coupons)
        .set({ ...fields, ...(termsChanged ? { stripeCouponIds: {} } : {}) })
        .where(eq(coupons.id, id));
    });
  } catch (err) {
    if (isUniqueViolation(err, 'coupons_code_unique')) throw new AppError(Codes.Conflict, 'couponCodeTaken', { code: input.code });
    throw err;
  }
  return couponById(db, id);
}

/** Disables a coupon (checkouts and CheckCoupon refuse it; subscriptions that have it keep it) or enables it again. */
export async function setCouponDisabled(db: Db, couponId: string, disabled: boolean): Promise<AdminCoupon> {
  const updated = await db.update(coupons).set({ disabled, updatedAt: new Date() }).where(eq(coupons.id, couponId)).returning({ id: coupons.id });
  if (!updated.length) throw new AppError(Codes.NotFound, 'notFound');
  return couponById(db, couponId);
}
