import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { SubscriptionFate } from '../../../shared/contracts/admin-users.ts';
import { RUNNING_SUBSCRIPTION_STATUSES, type CreateCheckout, type Subscription } from '../../../shared/contracts/plans.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { stripeCustomers, stripeSubscriptions } from '../../db/schema/plans.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import type { AuthUser } from '../accounts/auth.ts';
import {
  attachSession,
  canonicalCouponCode,
  CHECKOUT_SESSION_MS,
  releaseReservation,
  rememberStripeCoupon,
  reserveCoupon,
  termsOf,
  type CouponRow,
  type Reservation,
} from './coupons.ts';
import { levelName, packageById, type PackageRow } from './plans.ts';

/**
 * Payments through Stripe (docs/economy.md#payments-stripe): checkout, the customer portal, cancelling
 * at the period's end. What a payment gives is applied by the webhook (server/services/plans/stripe-webhook.ts),
 * never here: the browser's return from Checkout proves nothing.
 */

const clients = new WeakMap<AppContext, Stripe>();

/** The Stripe client of this server, or null when STRIPE_SECRET_KEY is not set. STRIPE_API_BASE moves it (tests: a fake on loopback). */
export function stripeOf(ctx: AppContext): Stripe | null {
  const key = ctx.config.STRIPE_SECRET_KEY;
  if (!key) return null;
  let client = clients.get(ctx);
  if (!client) {
    const base = ctx.config.STRIPE_API_BASE ? new URL(ctx.config.STRIPE_API_BASE) : null;
    const protocol = base?.protocol === 'http:' ? 'http' : 'https';
    const address = base ? { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol } : {};
    client = new Stripe(key, { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Tandem' }, ...address } as Stripe.StripeConfig);
    clients.set(ctx, client);
  }
  return client;
}

function requireStripe(ctx: AppContext): Stripe {
  const stripe = stripeOf(ctx);
  if (!stripe) throw new AppError(Codes.NotConfigured, 'paymentsNotConfigured');
  return stripe;
}

/** A call to Stripe; its failure (down, refused, a wrong key) answers 10502 with `key`, and is logged without the request. */
async function callStripe<T>(ctx: AppContext, key: MessageKey, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    ctx.log.warn({ stripe: { type: err.type, code: err.code, status: err.statusCode, message: err.message } }, 'a Stripe call failed');
    throw new AppError(Codes.ServiceFailed, key);
  }
}

/** A subscription that still runs, and bills. */
const isRunning = inArray(stripeSubscriptions.status, [...RUNNING_SUBSCRIPTION_STATUSES]);

export async function runningSubscription(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(stripeSubscriptions)
    .where(and(eq(stripeSubscriptions.userId, userId), isRunning))
    .orderBy(desc(stripeSubscriptions.currentPeriodEnd))
    .limit(1);
  return row;
}

async function storedCustomer(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: stripeCustomers.customerId }).from(stripeCustomers).where(eq(stripeCustomers.userId, userId));
  return row?.id;
}

/**
 * The user's Stripe customer, made at the first checkout and kept. Stripe's idempotency key makes two
 * first checkouts at once (within Stripe's 24 hours for a key) make one customer.
 */
async function customerFor(ctx: AppContext, stripe: Stripe, user: AuthUser): Promise<string> {
  const known = await storedCustomer(ctx.db, user.id);
  if (known) return known;
  const customer = await callStripe(ctx, 'checkoutFailed', () =>
    stripe.customers.create({ email: user.email, name: user.userName, metadata: { userId: user.id } }, { idempotencyKey: `tandem-customer-${user.id}` }),
  );
  await ctx.db.insert(stripeCustomers).values({ userId: user.id, customerId: customer.id }).onConflictDoNothing();
  return (await storedCustomer(ctx.db, user.id)) ?? customer.id;
}

/** A promotion code made in Stripe's dashboard, as Checkout's discount; an unknown or inactive code is refused. */
async function promotionDiscount(ctx: AppContext, stripe: Stripe, code: string): Promise<Stripe.Checkout.SessionCreateParams.Discount[]> {
  const found = await callStripe(ctx, 'checkoutFailed', () => stripe.promotionCodes.list({ code, active: true, limit: 1 }));
  const promotion = found.data[0];
  if (!promotion) throw new AppError(Codes.BadRequest, 'couponInvalid', { code });
  return [{ promotion_code: promotion.id }];
}

/**
 * The Stripe coupon with a coupon's terms, for payments in `currency`: made at the first checkout in
 * that currency and remembered on the coupon's row (rememberStripeCoupon). Stripe's idempotency key
 * names the coupon and its terms, so two first checkouts at once make one.
 */
async function stripeCouponFor(ctx: AppContext, stripe: Stripe, coupon: CouponRow, currency: string): Promise<string> {
  const known = coupon.stripeCouponIds[currency];
  if (known) return known;
  const terms = coupon.percentOff !== null ? { percent_off: coupon.percentOff } : { amount_off: coupon.amountOff ?? 0, currency: coupon.currency ?? currency };
  const made = await callStripe(ctx, 'checkoutFailed', () =>
    stripe.coupons.create(
      { ...terms, duration: coupon.duration, name: coupon.code, metadata: { couponId: coupon.id, code: coupon.code } },
      { idempotencyKey: `tandem-coupon-${coupon.id}-${currency}-${termsOf(coupon)}` },
    ),
  );
  await rememberStripeCoupon(ctx.db, coupon, currency, made.id);
  return made.id;
}

type CheckoutDiscount = {
  /** Absent: Checkout offers its own promotion code field. */
  discounts?: Stripe.Checkout.SessionCreateParams.Discount[];
  /** The coupon and the reservation, for the webhook (session and subscription metadata). */
  metadata: Record<string, string>;
  /** The session's end (Unix seconds) when a reservation holds a use for it. */
  expiresAt?: number;
  reservation?: Reservation;
};

/**
 * The discount of a checkout: a coupon here first (validated and one use reserved, under its row
 * lock: server/services/plans/coupons.ts), else a Stripe promotion code, as before coupons were ours.
 */
async function checkoutDiscount(ctx: AppContext, stripe: Stripe, user: AuthUser, pkg: PackageRow, input: CreateCheckout): Promise<CheckoutDiscount> {
  if (!input.couponCode) return { metadata: {} };
  const sessionEnd = new Date(Date.now() + CHECKOUT_SESSION_MS);
  const code = canonicalCouponCode(input.couponCode);
  const reservation = code ? await reserveCoupon(ctx.db, { userId: user.id, code, pkg, currency: input.currency, sessionEnd }) : null;
  if (!reservation) return { discounts: await promotionDiscount(ctx, stripe, input.couponCode), metadata: {} };
  try {
    const coupon = await stripeCouponFor(ctx, stripe, reservation.coupon, input.currency);
    const metadata = { couponId: reservation.coupon.id, couponReservationId: reservation.reservationId };
    return { discounts: [{ coupon }], metadata, expiresAt: Math.floor(sessionEnd.getTime() / 1000), reservation };
  } catch (err) {
    await releaseReservation(ctx.db, reservation);
    throw err;
  }
}

/**
 * A Checkout Session for a package, in subscription mode. The user and the package travel in the
 * session's and the subscription's metadata, so every later event (invoices, renewals) names them
 * whatever order the events arrive in; so do a coupon and its reservation. Payment methods are the
 * Stripe account's (cards; Alipay or WeChat Pay where the account enables them for subscriptions).
 */
export async function createCheckout(ctx: AppContext, user: AuthUser, input: CreateCheckout): Promise<{ url: string }> {
  const stripe = requireStripe(ctx);
  const pkg = await packageById(ctx.db, input.vipPackageId);
  if (!pkg || pkg.deletedAt || !pkg.online) throw new AppError(Codes.NotFound, 'notFound');
  const amount = pkg.prices[input.currency];
  if (!Number.isInteger(amount)) throw new AppError(Codes.BadRequest, 'packageCurrencyUnavailable', { currency: input.currency.toUpperCase() });
  if (await runningSubscription(ctx.db, user.id)) throw new AppError(Codes.Conflict, 'subscriptionExists');
  const discount = await checkoutDiscount(ctx, stripe, user, pkg, input);
  const metadata = { userId: user.id, vipPackageId: pkg.id, ...discount.metadata };
  const priceId = pkg.stripePriceIds[input.currency];
  const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = priceId
    ? { price: priceId, quantity: 1 }
    : {
        quantity: 1,
        price_data: {
          currency: input.currency,
          unit_amount: amount,
          recurring: { interval: pkg.period },
          product_data: { name: `${pkg.name} (${pkg.period === 'year' ? 'yearly' : 'monthly'})`, metadata: { userId: user.id, vipPackageId: pkg.id } },
        },
      };
  const base = `${ctx.config.publicUrl}/pricing/pay`;
  let session: Stripe.Checkout.Session;
  try {
    const customer = await customerFor(ctx, stripe, user);
    session = await callStripe(ctx, 'checkoutFailed', () =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: user.id,
        metadata,
        subscription_data: { metadata },
        line_items: [lineItem],
        ...(discount.discounts ? { discounts: discount.discounts } : { allow_promotion_codes: true }),
        // A reserved use of a coupon is held only as long as the session can be paid.
        ...(discount.expiresAt ? { expires_at: discount.expiresAt } : {}),
        // Stripe fills {CHECKOUT_SESSION_ID} in; the page asks the server, not the address, whether it was paid.
        success_url: `${base}?status=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}?status=cancel`,
      }),
    );
    if (!session.url) throw new AppError(Codes.ServiceFailed, 'checkoutFailed');
  } catch (err) {
    if (discount.reservation) await releaseReservation(ctx.db, discount.reservation);
    throw err;
  }
  if (discount.reservation) await attachSession(ctx.db, discount.reservation.reservationId, session.id);
  return { url: session.url };
}

/** Stripe's customer portal (payment methods, invoices, cancelling), returning to /subscription. */
export async function createPortalSession(ctx: AppContext, userId: string): Promise<{ url: string }> {
  const stripe = requireStripe(ctx);
  const customer = await storedCustomer(ctx.db, userId);
  if (!customer) throw new AppError(Codes.NotFound, 'noSubscription');
  const session = await callStripe(ctx, 'portalFailed', () =>
    stripe.billingPortal.sessions.create({ customer, return_url: `${ctx.config.publicUrl}/subscription` }),
  );
  return { url: session.url };
}

/** The end of a subscription's current period: on its items in current API versions, on itself in older ones. */
export function periodEndOf(sub: Stripe.Subscription): Date | null {
  const seconds = sub.items?.data?.[0]?.current_period_end ?? (sub as unknown as { current_period_end?: number }).current_period_end;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

/**
 * Cancels the running subscription at its period's end (`cancel`), or undoes that while the period
 * runs. The plan runs until the period's end either way; the webhook's customer.subscription.updated
 * tells the user.
 */
export async function setCancelAtPeriodEnd(ctx: AppContext, userId: string, cancel: boolean) {
  const stripe = requireStripe(ctx);
  const sub = await runningSubscription(ctx.db, userId);
  if (!sub) throw new AppError(Codes.NotFound, 'noSubscription');
  const updated = await callStripe(ctx, 'subscriptionChangeFailed', () => stripe.subscriptions.update(sub.id, { cancel_at_period_end: cancel }));
  const periodEnd = periodEndOf(updated) ?? sub.currentPeriodEnd;
  const cancelAtPeriodEnd = updated.cancel_at_period_end ?? cancel;
  await ctx.db
    .update(stripeSubscriptions)
    .set({ cancelAtPeriodEnd, currentPeriodEnd: periodEnd, updatedAt: sql`now()` })
    .where(eq(stripeSubscriptions.id, sub.id));
  return { cancelAtPeriodEnd, endTime: periodEnd?.toISOString() ?? null };
}

/**
 * Cancels the user's running subscription in Stripe at once, so that nothing more is billed: an
 * administrator ends the plan or deletes the account. One Stripe had already ended (in its
 * dashboard, or by a call whose answer was lost) counts as cancelled. Without a Stripe key here it
 * runs on and must be cancelled in Stripe's dashboard ('notConfigured'). Stripe's failure answers
 * 10502 before anything here changed.
 */
export async function cancelSubscriptionNow(ctx: AppContext, userId: string): Promise<SubscriptionFate> {
  const sub = await runningSubscription(ctx.db, userId);
  if (!sub) return 'none';
  const stripe = stripeOf(ctx);
  if (!stripe) return 'notConfigured';
  await callStripe(ctx, 'subscriptionChangeFailed', async () => {
    try {
      await stripe.subscriptions.cancel(sub.id);
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
      if ((await stripe.subscriptions.retrieve(sub.id)).status !== 'canceled') throw err;
    }
  });
  // Stripe's customer.subscription.deleted follows and tells the user; until then this row says it.
  await ctx.db.update(stripeSubscriptions).set({ status: 'canceled', cancelAtPeriodEnd: false, updatedAt: sql`now()` }).where(eq(stripeSubscriptions.id, sub.id));
  return 'cancelled';
}

/** The user's subscription: the running one, else the latest; null when there never was one. */
export async function getSubscription(ctx: AppContext, userId: string): Promise<Subscription | null> {
  const running = sql`case when ${isRunning} then 0 else 1 end`;
  const [sub] = await ctx.db
    .select()
    .from(stripeSubscriptions)
    .where(eq(stripeSubscriptions.userId, userId))
    .orderBy(running, desc(stripeSubscriptions.createdAt))
    .limit(1);
  if (!sub) return null;
  const pkg = await packageById(ctx.db, sub.packageId);
  return {
    subscriptionId: sub.id,
    status: sub.status,
    level: pkg?.level ?? 0,
    packageName: pkg?.name ?? levelName(0),
    period: pkg?.period ?? 'month',
    currentPeriodEnd: sub.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    portalAvailable: !!stripeOf(ctx) && !!(await storedCustomer(ctx.db, userId)),
  };
}
