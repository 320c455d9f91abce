import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { stripeInvoiceOutcomes } from '../../db/schema/plans.ts';
import { vipOrders } from '../../db/schema/users.ts';
import { notify } from '../notifications/notifications.ts';
import { takeBackPlanPoints } from './plans.ts';
import { stripeOf } from './stripe.ts';

/**
 * Refunds and disputes of paid invoices (docs/economy.md#refunds-and-disputes). Stripe does not
 * promise the order of its events, so what happened to an invoice's money is first recorded on its
 * own row (stripe_invoice_outcomes), whether or not the invoice's order exists yet, and then applied
 * to the order when there is one: the refund or the lost dispute that arrived before its
 * `invoice.paid` is honoured when the invoice arrives (invoicePaid calls applyInvoiceOutcome after
 * making the order). Recording instead of refusing the event: Stripe stops retrying after three days,
 * and an invoice can come later than that.
 */

type DisputeStatus = 'open' | 'won' | 'lost';
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/**
 * The events of one invoice's money go one at a time: an `invoice.paid` and a refund of it arriving
 * at once would otherwise each miss the other (the refund finding no order, the invoice no refund).
 */
export async function lockInvoice(tx: Db, invoiceId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7302, hashtext(${invoiceId}))`);
}

/**
 * The invoice a charge paid: on the charge in older API versions, else asked of Stripe (its invoice
 * payments by payment intent). Looked up before the event's transaction, which holds no lock while
 * Stripe answers.
 */
export async function invoiceOfPayment(ctx: AppContext, onObject: unknown, paymentIntent: string | null): Promise<string | null> {
  const found = idOf((onObject as { invoice?: string | { id: string } | null } | null)?.invoice);
  if (found) return found;
  const stripe = stripeOf(ctx);
  if (!paymentIntent || !stripe) return null;
  const payments = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntent }, limit: 1 });
  return idOf(payments.data[0]?.invoice as string | { id: string } | undefined);
}

/** The invoice an event about a charge's money names, when it is one we act on (null: nothing to do). */
export async function invoiceOfMoneyEvent(ctx: AppContext, event: Stripe.Event): Promise<string | null> {
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    // A partial refund leaves the order as it is, in whatever order it arrives.
    return charge.refunded ? invoiceOfPayment(ctx, charge, idOf(charge.payment_intent)) : null;
  }
  if (event.type.startsWith('charge.dispute.')) {
    const dispute = event.data.object as Stripe.Dispute;
    const charge = typeof dispute.charge === 'object' ? dispute.charge : null;
    return invoiceOfPayment(ctx, charge, idOf(dispute.payment_intent) ?? idOf(charge?.payment_intent));
  }
  return null;
}

/** Stripe's dispute statuses in three: open until it is decided, won (or an inquiry closed, or prevented), lost. */
function disputeStatusOf(status: string): DisputeStatus {
  if (status === 'lost') return 'lost';
  if (status === 'won' || status === 'warning_closed' || status === 'prevented') return 'won';
  return 'open';
}

/**
 * Records what an event says of the invoice's money; true when that changed anything. A full refund,
 * a lost dispute and a dispute whose funds were withdrawn reverse the payment (once: the first
 * reason stays). A dispute's status only moves forward: a closed one is not reopened by an older
 * event delivered late. `charge.dispute.funds_reinstated` marks the dispute won and gives nothing
 * back (docs/economy.md#refunds-and-disputes says why).
 */
export async function recordMoneyEvent(tx: Db, event: Stripe.Event, invoiceId: string): Promise<boolean> {
  let reversal: 'refund' | 'dispute' | null = null;
  let dispute: { id: string; status: DisputeStatus } | null = null;
  if (event.type === 'charge.refunded') reversal = 'refund';
  else {
    const d = event.data.object as Stripe.Dispute;
    const status = event.type === 'charge.dispute.funds_reinstated' ? 'won' : disputeStatusOf(d.status);
    dispute = { id: d.id, status };
    if (status === 'lost' || event.type === 'charge.dispute.funds_withdrawn') reversal = 'dispute';
  }
  const [before] = await tx.select().from(stripeInvoiceOutcomes).where(eq(stripeInvoiceOutcomes.invoiceId, invoiceId)).for('update');
  const next = {
    reversal: before?.reversal ?? reversal,
    reversedAt: before?.reversedAt ?? (reversal ? new Date() : null),
    disputeId: dispute?.id ?? before?.disputeId ?? null,
    // A decided dispute stays decided: only an open one (or none) takes the event's status.
    disputeStatus: before?.disputeStatus && before.disputeStatus !== 'open' ? before.disputeStatus : (dispute?.status ?? before?.disputeStatus ?? null),
  };
  if (before && before.reversal === next.reversal && before.disputeStatus === next.disputeStatus) return false;
  await tx
    .insert(stripeInvoiceOutcomes)
    .values({ invoiceId, ...next })
    .onConflictDoUpdate({ target: stripeInvoiceOutcomes.invoiceId, set: { ...next, updatedAt: sql`now()` } });
  return true;
}

/**
 * Applies the invoice's recorded outcome to its order, when both exist: the dispute's status is
 * copied (operators see it), and a reversed payment ends the order now, takes back the unspent part of
 * its points through the ledger (never below zero) and tells the user, once. Answers whether the
 * order changed.
 */
export async function applyInvoiceOutcome(tx: Db, invoiceId: string): Promise<boolean> {
  const [outcome] = await tx.select().from(stripeInvoiceOutcomes).where(eq(stripeInvoiceOutcomes.invoiceId, invoiceId));
  if (!outcome) return false;
  const [order] = await tx.select().from(vipOrders).where(eq(vipOrders.stripeInvoiceId, invoiceId)).for('update');
  if (!order) return false;
  let changed = false;
  if (outcome.disputeStatus && order.disputeStatus !== outcome.disputeStatus) {
    await tx.update(vipOrders).set({ disputeStatus: outcome.disputeStatus }).where(eq(vipOrders.id, order.id));
    changed = true;
  }
  if (!outcome.reversal || order.refundedAt) return changed;
  const now = new Date();
  await tx
    .update(vipOrders)
    .set({ refundedAt: now, endTime: sql`greatest(${vipOrders.startTime}, least(${vipOrders.endTime}, ${now}))` })
    .where(eq(vipOrders.id, order.id));
  const taken = order.pointsSettledAt ? 0 : await takeBackPlanPoints(tx, order, 'plan', `plan-refund:${invoiceId}`, outcome.reversal);
  const told = outcome.reversal === 'refund' ? 'paymentRefunded' : 'paymentDisputed';
  await notify(tx, {
    userId: order.userId,
    kind: 'payment',
    titleKey: `notifications.${told}.title`,
    bodyKey: `notifications.${told}.body`,
    params: { plan: order.packageName, points: taken },
    link: '/subscription',
    dedupeKey: `refund:${invoiceId}`,
  });
  return true;
}
