import { randomUUID } from 'node:crypto';
import { and, eq, max, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { stripeCustomers, stripeEvents, stripeSubscriptions } from '../../db/schema/plans.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { holdCompletedReservation, recordCouponRedemption } from './coupons.ts';
import { creditPoints } from '../points/ledger.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';
import { packageById, periodMonths } from './plans.ts';
import { periodEndOf } from './stripe.ts';
import { applyInvoiceOutcome, invoiceOfMoneyEvent, lockInvoice, recordMoneyEvent } from './stripe-reversals.ts';

/**
 * Stripe's webhook (docs/economy.md#payments-stripe). Every event is verified against
 * STRIPE_WEBHOOK_SECRET (signature and timestamp), then applied in one transaction that first inserts
 * its id into stripe_events: a replay, or a second delivery arriving at the same time (it waits on the
 * first one's insert), finds the id and changes nothing; a failure undoes the whole event, and Stripe
 * delivers it again. Events may come in any order, so each is applied from what it carries itself
 * (the subscription's metadata names the user and the package), not from earlier events.
 */

/** Refused before anything is read: answered HTTP 400, so Stripe shows the delivery as failed. */
export class WebhookRefusal extends AppError {}

type Handled = { applied: boolean };
const DAY = (d: Date) => d.toISOString().slice(0, 10);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

function verify(ctx: AppContext, raw: unknown, signature: string | string[] | undefined): Stripe.Event {
  const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new WebhookRefusal(Codes.NotConfigured, 'webhookNotConfigured');
  const header = Array.isArray(signature) ? signature[0] : signature;
  if (!Buffer.isBuffer(raw) || !header) throw new WebhookRefusal(Codes.BadRequest, 'webhookSignatureInvalid');
  try {
    // Checks the HMAC over the exact bytes received and that the timestamp is within 5 minutes.
    return Stripe.webhooks.constructEvent(raw, header, secret);
  } catch {
    throw new WebhookRefusal(Codes.BadRequest, 'webhookSignatureInvalid');
  }
}

async function userExists(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return !!row;
}

/** The subscription an invoice bills, with its metadata as the invoice was made (current and older API versions). */
function invoiceSubscription(invoice: Stripe.Invoice): { id: string; metadata: Record<string, string> } | null {
  const details = invoice.parent?.subscription_details;
  const legacy = invoice as unknown as { subscription?: string | { id: string }; subscription_details?: { metadata?: Record<string, string> } };
  const id = idOf(details?.subscription ?? legacy.subscription);
  return id ? { id, metadata: details?.metadata ?? legacy.subscription_details?.metadata ?? {} } : null;
}

/** The user and package of a subscription: its metadata, else what an earlier event recorded. */
async function ownerOf(db: Db, subscriptionId: string, metadata: Record<string, string> | null | undefined) {
  const [row] = await db.select().from(stripeSubscriptions).where(eq(stripeSubscriptions.id, subscriptionId));
  const userId = metadata?.userId || row?.userId;
  const packageId = metadata?.vipPackageId || row?.packageId;
  if (!userId || !packageId || !(await userExists(db, userId))) return null;
  return { userId, packageId, row };
}

/** The service period an invoice pays: its lines' periods (the invoice's own period_* is the period before, for renewals). */
function invoicePeriod(invoice: Stripe.Invoice, months: number): { start: Date; end: Date } {
  const periods = (invoice.lines?.data ?? []).map((l) => l.period).filter((p) => p && p.end > p.start);
  if (periods.length) {
    return { start: new Date(Math.min(...periods.map((p) => p.start)) * 1000), end: new Date(Math.max(...periods.map((p) => p.end)) * 1000) };
  }
  const start = new Date((invoice.created ?? Math.floor(Date.now() / 1000)) * 1000);
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + months);
  return { start, end };
}

async function rememberCustomer(db: Db, userId: string, customerId: string | null) {
  if (customerId) await db.insert(stripeCustomers).values({ userId, customerId }).onConflictDoNothing();
}

/** Links a finished checkout's subscription to its user; its invoice (paid or not yet) does the rest. */
async function checkoutCompleted(tx: Db, session: Stripe.Checkout.Session): Promise<boolean> {
  const subscriptionId = idOf(session.subscription);
  const userId = session.metadata?.userId || session.client_reference_id;
  const packageId = session.metadata?.vipPackageId;
  if (session.mode !== 'subscription' || !subscriptionId || !userId || !packageId || !(await userExists(tx, userId))) return false;
  const customerId = idOf(session.customer);
  await rememberCustomer(tx, userId, customerId);
  const status = session.payment_status === 'paid' ? 'active' : 'incomplete';
  await tx.insert(stripeSubscriptions).values({ id: subscriptionId, userId, customerId, packageId, status }).onConflictDoNothing();
  await holdCompletedReservation(tx, session.metadata?.couponReservationId);
  return true;
}

/**
 * A paid invoice of a subscription: one order for the period it pays (one per invoice id), at the
 * package's level, with the period's points on the ledger (key plan:<invoiceId>), the use of a coupon
 * it was paid with counted, and the user told.
 */
async function invoicePaid(tx: Db, invoice: Stripe.Invoice): Promise<boolean> {
  const sub = invoiceSubscription(invoice);
  const owner = sub && (await ownerOf(tx, sub.id, sub.metadata));
  const pkg = owner && (await packageById(tx, owner.packageId));
  if (!sub || !owner || !pkg || !invoice.id) return false;
  const { userId } = owner;
  await lockInvoice(tx, invoice.id);
  const { start, end } = invoicePeriod(invoice, periodMonths(pkg.period));
  const points = pkg.monthlyPoints * periodMonths(pkg.period);
  const orderId = randomUUID();
  const made = await tx
    .insert(vipOrders)
    .values({
      id: orderId,
      userId,
      packageLevel: pkg.level,
      packageName: pkg.name,
      startTime: start,
      endTime: end,
      source: 'stripe',
      packageId: pkg.id,
      period: pkg.period,
      amount: invoice.amount_paid,
      currency: invoice.currency,
      stripeInvoiceId: invoice.id,
      stripeSubscriptionId: sub.id,
      pointsGranted: points,
    })
    .onConflictDoNothing({ target: vipOrders.stripeInvoiceId })
    .returning({ id: vipOrders.id });
  if (!made.length) return false;
  if (points > 0) await creditPoints(tx, { userId, delta: points, kind: 'plan', key: `plan:${invoice.id}`, refId: orderId, note: pkg.name });
  // A coupon's use counts with the order it paid for (docs/economy.md#coupons).
  await recordCouponRedemption(tx, { invoice, subscriptionId: sub.id, userId, metadata: sub.metadata });
  const customerId = idOf(invoice.customer);
  await rememberCustomer(tx, userId, customerId);
  await tx
    .insert(stripeSubscriptions)
    .values({ id: sub.id, userId, customerId, packageId: pkg.id, status: 'active', currentPeriodEnd: end })
    .onConflictDoUpdate({
      target: stripeSubscriptions.id,
      set: {
        // A late invoice does not shorten the period a newer one recorded, nor revive an ended subscription.
        currentPeriodEnd: sql`greatest(${stripeSubscriptions.currentPeriodEnd}, excluded.current_period_end)`,
        status: sql`case when ${stripeSubscriptions.status} = 'canceled' then ${stripeSubscriptions.status} else 'active' end`,
        updatedAt: sql`now()`,
      },
    });
  await notify(tx, {
    userId,
    kind: 'payment',
    titleKey: 'notifications.paymentSucceeded.title',
    bodyKey: 'notifications.paymentSucceeded.body',
    params: { plan: pkg.name, endDate: DAY(end), points },
    link: '/subscription',
    dedupeKey: `payment:${invoice.id}`,
  });
  // A refund or a lost dispute that arrived before this invoice (docs/economy.md#refunds-and-disputes).
  await applyInvoiceOutcome(tx, invoice.id);
  return true;
}

/** A renewal (or the first payment) failed: the user is told; no order. Stripe retries by the account's settings. */
async function invoicePaymentFailed(tx: Db, event: Stripe.Event, invoice: Stripe.Invoice): Promise<boolean> {
  const sub = invoiceSubscription(invoice);
  const owner = sub && (await ownerOf(tx, sub.id, sub.metadata));
  if (!owner) return false;
  const pkg = await packageById(tx, owner.packageId);
  await notify(tx, {
    userId: owner.userId,
    kind: 'payment',
    titleKey: 'notifications.paymentFailed.title',
    bodyKey: 'notifications.paymentFailed.body',
    params: { plan: pkg?.name ?? '' },
    link: '/subscription',
    dedupeKey: `payment-failed:${event.id}`,
  });
  return true;
}

/**
 * The end of the plan a subscription paid for: its orders' last end, which is earlier than the
 * period's when an administrator ended the plan or a payment was refunded.
 */
async function lastPaidDay(tx: Db, userId: string, subscriptionId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ end: max(vipOrders.endTime) })
    .from(vipOrders)
    .where(and(eq(vipOrders.userId, userId), eq(vipOrders.stripeSubscriptionId, subscriptionId)));
  return row?.end ?? null;
}

/**
 * A subscription changed or ended. Its state is taken from the newest event only (stateAt): an older
 * event delivered late does not undo a newer one, and nothing revives a canceled subscription. The
 * user is told when it will end (cancel at the period's end), when that was undone, and when it ended;
 * the orders keep the periods that were paid.
 */
async function subscriptionChanged(tx: Db, event: Stripe.Event, sub: Stripe.Subscription): Promise<boolean> {
  const owner = await ownerOf(tx, sub.id, sub.metadata);
  if (!owner) return false;
  const ended = event.type === 'customer.subscription.deleted';
  const { row } = owner;
  if (row && (row.stateAt > event.created || (row.status === 'canceled' && !ended))) return false;
  const cancelAtPeriodEnd = !ended && (sub.cancel_at_period_end || sub.cancel_at !== null);
  const periodEnd = periodEndOf(sub) ?? row?.currentPeriodEnd ?? null;
  const state = { status: ended ? 'canceled' : sub.status, cancelAtPeriodEnd, currentPeriodEnd: periodEnd, stateAt: event.created };
  await tx
    .insert(stripeSubscriptions)
    .values({ id: sub.id, userId: owner.userId, customerId: idOf(sub.customer), packageId: owner.packageId, ...state })
    .onConflictDoUpdate({ target: stripeSubscriptions.id, set: { ...state, updatedAt: sql`now()` } });
  const plan = (await packageById(tx, owner.packageId))?.name ?? '';
  const previous = (event.data.previous_attributes ?? {}) as Partial<Stripe.Subscription>;
  const cancelChanged = 'cancel_at_period_end' in previous || 'cancel_at' in previous;
  const cancelAt = sub.cancel_at ? new Date(sub.cancel_at * 1000) : periodEnd;
  const endDate = ended ? ((await lastPaidDay(tx, owner.userId, sub.id)) ?? periodEnd) : cancelAt;
  const told = ended ? 'planEnded' : cancelChanged ? (cancelAtPeriodEnd ? 'planEnding' : 'planResumed') : null;
  if (told) {
    await notify(tx, {
      userId: owner.userId,
      kind: 'plan',
      titleKey: `notifications.${told}.title`,
      bodyKey: `notifications.${told}.body`,
      params: { plan, ...(endDate ? { endDate: DAY(endDate) } : {}) },
      link: '/subscription',
      dedupeKey: `stripe:${event.id}`,
    });
  }
  return true;
}

/** A refund's or a dispute's event: recorded for its invoice, applied to the order when there is one. */
async function moneyEvent(tx: Db, event: Stripe.Event, invoiceId: string | null): Promise<boolean> {
  if (!invoiceId) return false;
  await lockInvoice(tx, invoiceId);
  const recorded = await recordMoneyEvent(tx, event, invoiceId);
  return (await applyInvoiceOutcome(tx, invoiceId)) || recorded;
}

async function apply(tx: Db, event: Stripe.Event, moneyInvoice: string | null): Promise<boolean> {
  switch (event.type) {
    case 'checkout.session.completed':
      return checkoutCompleted(tx, event.data.object);
    case 'invoice.paid':
      return invoicePaid(tx, event.data.object);
    case 'invoice.payment_failed':
      return invoicePaymentFailed(tx, event, event.data.object);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(tx, event, event.data.object);
    case 'charge.refunded':
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
      return moneyEvent(tx, event, moneyInvoice);
    default:
      return false; // an event type we do not use: received, nothing to do
  }
}

/** Verifies and applies one delivery; a WebhookRefusal when it is not a genuine, recent event of Stripe's. */
export async function receiveStripeWebhook(ctx: AppContext, raw: unknown, signature: string | string[] | undefined): Promise<Handled> {
  const event = verify(ctx, raw, signature);
  const moneyInvoice = await invoiceOfMoneyEvent(ctx, event);
  // The users it notified see their new unread count once it has committed.
  return announcingNotified(ctx, () => ctx.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, eventCreated: event.created })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!fresh.length) return { applied: false };
    return { applied: await apply(tx, event, moneyInvoice) };
  }));
}
