import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { stripeEvents, stripeSubscriptions, vipPackages } from '../../server/db/schema/plans.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { vipOrders } from '../../server/db/schema/users.ts';
import { expirePlanPoints } from '../../server/services/plans/plans.ts';
import { subscriptionObject, type TestEvent } from '../fixtures/fake-stripe.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { useTestAppWithStripe } from '../helpers/stripe-app.ts';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Plans, payments and orders (docs/economy.md#plans, #payments-stripe, #orders): the packages on sale,
 * checkout through a fake Stripe on loopback, the webhook's events applied once each and in any order,
 * refunds, cancelling, expiry of plan points, and operators' packages and grants.
 */

const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A catalogue with a free model and one that needs Advanced (level 2); nothing listens upstream: no call is made. */
const MODELS = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODELS: 'basic,big:2' };

describe('plans without Stripe', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000', FREE_DAILY_POINTS: '50' });
    user = await createUser(t.app);
  });
  afterAll(() => t?.close());

  it('lists the free plan and the default packages, priced in the asked currency, with checkout unavailable', async () => {
    const usd = await api(t.app).getBody('/api/Vip/GetVipPackageList');
    expect(usd.Code).toBe(10000);
    expect(usd.Data).toMatchObject({ currency: 'usd', checkoutAvailable: false, freeDailyPoints: 50 });
    expect(usd.Data.list.map((p: any) => [p.vipPackageId, p.level, p.period, p.price])).toEqual([
      ['free', 0, 'month', 0],
      ['standard-month', 1, 'month', 999],
      ['standard-year', 1, 'year', 9590],
      ['advanced-month', 2, 'month', 1999],
      ['advanced-year', 2, 'year', 19190],
      ['super-month', 3, 'month', 3999],
      ['super-year', 3, 'year', 38390],
    ]);
    // The yearly Super plan: 60000 points a month, granted a year at a time.
    expect(usd.Data.list.at(-1)).toMatchObject({ name: 'Super', levelName: 'Super', monthlyPoints: 60000, periodPoints: 720000, bestDeal: false });
    expect(usd.Data.list.filter((p: any) => p.bestDeal).map((p: any) => p.vipPackageId)).toEqual(['advanced-year']);
    const cny = (await api(t.app).getBody('/api/Vip/GetVipPackageList?currency=CNY')).Data;
    expect(cny.currency).toBe('cny');
    expect(cny.list[1]).toMatchObject({ vipPackageId: 'standard-month', currency: 'cny', price: 6800 });
    // A currency no package is priced in: the free plan alone.
    expect((await api(t.app).getBody('/api/Vip/GetVipPackageList?currency=eur')).Data.list.map((p: any) => p.vipPackageId)).toEqual(['free']);
    expect((await api(t.app).getBody('/api/Vip/GetVipPackageList?currency=dollars')).Code).toBe(10400);
  });

  it('answers checkout with 10461, telling how an operator grants plans instead', async () => {
    const res = await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'usd' });
    expect(res.Code).toBe(10461);
    expect(res.Msg).toMatch(/redeem codes/);
    expect(res.Msg).toMatch(/ExtendEndTime/);
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'usd' }, { lang: 'zh-CN' })).Msg).toMatch(/兑换码/);
    for (const url of ['/api/Vip/CreatePortalSession', '/api/Vip/CancelSubscription', '/api/Vip/ResumeSubscription']) {
      expect((await api(t.app, user).postBody(url, {})).Code, url).toBe(10461);
    }
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toBeNull();
    const hook = await t.app.inject({ method: 'POST', url: '/api/Vip/StripeWebhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
    expect(hook.statusCode).toBe(400);
    expect(hook.json()).toMatchObject({ Code: 10461, Data: null });
  });

  it('refuses a secret key without a webhook secret at start', async () => {
    await expect(createTestApp({ STRIPE_SECRET_KEY: 'sk_test_x' })).rejects.toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});

// The rest of the file runs against an app whose payments go to a fake Stripe on loopback.
const { t, admin, stripe: fake } = useTestAppWithStripe({ ...MODELS, AUTH_RATE_LIMIT: '1000' });

/** Delivers an event as Stripe does: the exact bytes, signed. */
const deliver = async (event: TestEvent, opts: { timestamp?: number; secret?: string; signature?: string } = {}) => {
  const { payload, signature } = fake.deliver(event, opts);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Vip/StripeWebhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': opts.signature ?? signature },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
};

type Sub = { id: string; userId: string; packageId: string };
const newSub = (user: TestUser, packageId = 'advanced-month'): Sub => ({ id: `sub_${randomUUID().slice(0, 8)}`, userId: user.userId, packageId });
const metadataOf = (sub: Sub) => ({ userId: sub.userId, vipPackageId: sub.packageId });
const invoice = (sub: Sub, start: number, end: number, fields: Record<string, unknown> = {}) => ({
  id: `in_${randomUUID().slice(0, 12)}`,
  object: 'invoice',
  customer: `cus_${sub.id}`,
  amount_paid: 1999,
  currency: 'usd',
  status: 'paid',
  created: start,
  billing_reason: 'subscription_cycle',
  // The invoice's own period is the one before (as Stripe sets it for renewals); the lines carry the paid one.
  period_start: start - 30 * DAY,
  period_end: start,
  parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: metadataOf(sub) } },
  lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', amount: 1999, period: { start, end } }] },
  ...fields,
});
const completed = (sub: Sub) => ({
  type: 'checkout.session.completed',
  object: { id: `cs_${sub.id}`, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', subscription: sub.id, customer: `cus_${sub.id}`, client_reference_id: sub.userId, metadata: metadataOf(sub) },
});
const me = async (user: TestUser) => (await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data;
const balanceOf = async (userId: string) => (await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, userId)))[0]?.balance ?? 0;
const ledgerOf = async (userId: string) =>
  (await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId)).orderBy(pointLedger.createdAt)).map((e) => [e.reason, e.delta, e.idempotencyKey]);
const notesOf = async (userId: string) =>
  (await t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, userId)).orderBy(userNotifications.createdAt)).map((n) => ({
    key: n.titleKey,
    params: JSON.parse(n.params),
  }));
const ordersOf = async (userId: string) => t.database.db.select().from(vipOrders).where(eq(vipOrders.userId, userId)).orderBy(vipOrders.startTime);
/** A user with a paid first period of `sub` (now to 30 days on). */
const subscribed = async (packageId = 'advanced-month') => {
  const user = await createUser(t.app);
  const sub = newSub(user, packageId);
  const start = nowSeconds() - 60;
  const first = invoice(sub, start, start + 30 * DAY);
  expect((await deliver(completed(sub))).body.Data).toEqual({ received: true, applied: true });
  expect((await deliver({ type: 'invoice.paid', object: first })).body.Data).toEqual({ received: true, applied: true });
  return { user, sub, first, start };
};

describe('plans with Stripe: the package list and checkout', () => {
  it('says checkout is available', async () => {
    expect((await api(t.app).getBody('/api/Vip/GetVipPackageList')).Data.checkoutAvailable).toBe(true);
  });

  it('creates a Checkout Session in subscription mode for the package, with one customer per user', async () => {
    const user = await createUser(t.app);
    const res = await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'USD' });
    expect(res.Code, res.Msg).toBe(10000);
    expect(res.Data.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const [customer] = fake.calls('/v1/customers');
    expect(customer!.params).toMatchObject({ email: user.email, metadata: { userId: user.userId } });
    expect(customer!.headers['idempotency-key']).toBe(`tandem-customer-${user.userId}`);
    const [session] = fake.calls('/v1/checkout/sessions');
    const metadata = { userId: user.userId, vipPackageId: 'advanced-month' };
    expect(session!.params).toEqual({
      mode: 'subscription',
      customer: 'cus_test_1',
      client_reference_id: user.userId,
      metadata,
      subscription_data: { metadata },
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '1999', recurring: { interval: 'month' }, product_data: { name: 'Advanced (monthly)', metadata } } }],
      allow_promotion_codes: 'true',
      success_url: 'https://tandem.example/pricing/pay?status=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://tandem.example/pricing/pay?status=cancel',
    });
    expect(session!.params).not.toHaveProperty('payment_method_types');

    // A second checkout reuses the customer; a yearly package in yuan recurs yearly.
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'super-year', currency: 'cny' })).Code).toBe(10000);
    expect(fake.calls('/v1/customers')).toHaveLength(1);
    expect(fake.calls('/v1/checkout/sessions')[1]!.params).toMatchObject({ customer: 'cus_test_1', line_items: [{ price_data: { currency: 'cny', unit_amount: '257800', recurring: { interval: 'year' } } }] });
  });

  it("uses the package's Stripe price when it has one, and a promotion code the customer typed", async () => {
    await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { vipPackageId: 'priced', level: 1, period: 'month', prices: { usd: 500 }, stripePriceIds: { usd: 'price_123' } });
    fake.promotionCodes.set('SPRING', 'promo_spring');
    const user = await createUser(t.app);
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'priced', currency: 'usd', couponCode: 'SPRING' })).Code).toBe(10000);
    const params = fake.calls('/v1/checkout/sessions')[0]!.params;
    expect(params.line_items).toEqual([{ price: 'price_123', quantity: '1' }]);
    expect(params.discounts).toEqual([{ promotion_code: 'promo_spring' }]);
    expect(params).not.toHaveProperty('allow_promotion_codes');
    expect(fake.calls('/v1/promotion_codes')[0]!.params).toMatchObject({ code: 'SPRING', active: 'true' });

    const unknown = await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'priced', currency: 'usd', couponCode: 'NOPE' });
    expect(unknown).toEqual({ Code: 10400, Msg: 'The coupon code NOPE is not valid or has expired. Check it, or pay without it.', Data: null });
    expect(fake.calls('/v1/checkout/sessions')).toHaveLength(1);
    await api(t.app, admin).postBody('/api/admin/Vip/DeletePackage', { vipPackageId: 'priced' });
  });

  it('refuses packages that are not on sale, other currencies, bad input, a second subscription, and says when Stripe fails', async () => {
    const user = await createUser(t.app);
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'nope', currency: 'usd' })).Code).toBe(10404);
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'free', currency: 'usd' })).Code).toBe(10404);
    expect(await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'eur' })).toMatchObject({ Code: 10400, Msg: 'This plan cannot be bought in EUR. Choose another currency.' });
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month' })).Code).toBe(10400);
    expect((await api(t.app).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'usd' })).Code).toBe(10402);
    fake.failPath('/v1/checkout/sessions', 400);
    expect(await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'usd' })).toEqual({ Code: 10502, Msg: 'Create order failed, please try again later', Data: null });
    const { user: paying } = await subscribed();
    expect((await api(t.app, paying).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'super-month', currency: 'usd' })).Code).toBe(10409);
  });
});

describe('plans with Stripe, the webhook: subscribing and renewing', () => {
  it('subscribes: the paid invoice makes an order at the package level, the plan in force, and its points once', async () => {
    const user = await createUser(t.app);
    expect((await api(t.app, user).getBody('/api/Chat/CheckModelLevelMax?aiModelId=big')).Data.allowed).toBe(false);
    const sub = newSub(user);
    const start = nowSeconds() - 60;
    const paid = { type: 'invoice.paid', object: invoice(sub, start, start + 30 * DAY), id: `evt_${randomUUID()}` };
    expect((await deliver(completed(sub))).body).toEqual({ Code: 10000, Msg: '', Data: { received: true, applied: true } });
    expect((await deliver(paid)).body.Data).toEqual({ received: true, applied: true });

    const plan = (await me(user)).vipOrder;
    expect(plan).toMatchObject({ vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: new Date((start + 30 * DAY) * 1000).toISOString().replace('.000Z', 'Z') });
    // The plan gates models on the next request.
    expect((await api(t.app, user).getBody('/api/Chat/CheckModelLevelMax?aiModelId=big')).Data).toMatchObject({ allowed: true, userVipLevel: 2 });
    expect(await ledgerOf(user.userId)).toEqual([['plan', 20000, `plan:${paid.object.id}`]]);
    expect(await notesOf(user.userId)).toEqual([
      { key: 'notifications.paymentSucceeded.title', params: { plan: 'Advanced', endDate: new Date((start + 30 * DAY) * 1000).toISOString().slice(0, 10), points: 20000 } },
    ]);
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toEqual({
      subscriptionId: sub.id,
      status: 'active',
      level: 2,
      packageName: 'Advanced',
      period: 'month',
      currentPeriodEnd: new Date((start + 30 * DAY) * 1000).toISOString(),
      cancelAtPeriodEnd: false,
      portalAvailable: true,
    });
    // The same event again: received, nothing applied.
    expect((await deliver(paid)).body.Data).toEqual({ received: true, applied: false });
    expect(await ledgerOf(user.userId)).toHaveLength(1);
    expect(await ordersOf(user.userId)).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(20000);
  });

  it('renews: the next paid invoice adds the next period and its points', async () => {
    const { user, sub, first, start } = await subscribed();
    const second = invoice(sub, start + 30 * DAY, start + 60 * DAY);
    expect((await deliver({ type: 'invoice.paid', object: second })).body.Data.applied).toBe(true);
    expect((await me(user)).vipOrder.endTime).toBe(new Date((start + 60 * DAY) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(await ledgerOf(user.userId)).toEqual([
      ['plan', 20000, `plan:${first.id}`],
      ['plan', 20000, `plan:${second.id}`],
    ]);
    const orders = await ordersOf(user.userId);
    expect(orders.map((o) => [o.stripeInvoiceId, o.startTime.getTime() / 1000, o.endTime.getTime() / 1000])).toEqual([
      [first.id, start, start + 30 * DAY],
      [second.id, start + 30 * DAY, start + 60 * DAY],
    ]);
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data.currentPeriodEnd).toBe(new Date((start + 60 * DAY) * 1000).toISOString());
  });

  it('applies events in any order: an invoice before its checkout, an old subscription state after a newer one', async () => {
    const user = await createUser(t.app);
    const sub = newSub(user, 'super-year');
    const start = nowSeconds() - 60;
    const paid = invoice(sub, start, start + 365 * DAY, { amount_paid: 38390 });
    expect((await deliver({ type: 'invoice.paid', object: paid })).body.Data.applied).toBe(true);
    expect((await me(user)).vipOrder).toMatchObject({ vipPackageLevel: 3, vipPackageName: 'Super' });
    expect(await balanceOf(user.userId)).toBe(720000);
    // The checkout's event, late: it links what is linked already and adds nothing.
    expect((await deliver(completed(sub))).body.Data.applied).toBe(true);
    expect(await ordersOf(user.userId)).toHaveLength(1);
    expect(await balanceOf(user.userId)).toBe(720000);
    const [row] = await t.database.db.select().from(stripeSubscriptions).where(eq(stripeSubscriptions.id, sub.id));
    expect(row).toMatchObject({ userId: user.userId, packageId: 'super-year', status: 'active' });

    const ending = subscriptionObject(sub.id, { metadata: metadataOf(sub), cancel_at_period_end: true, periodEnd: start + 365 * DAY });
    const created = nowSeconds();
    expect((await deliver({ type: 'customer.subscription.updated', object: ending, created, previous_attributes: { cancel_at_period_end: false } })).body.Data.applied).toBe(true);
    const older = subscriptionObject(sub.id, { metadata: metadataOf(sub), status: 'past_due', periodEnd: start + 365 * DAY });
    expect((await deliver({ type: 'customer.subscription.updated', object: older, created: created - 100 })).body.Data.applied).toBe(false);
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  it('tells the user of a failed payment and makes no order', async () => {
    const { user, sub, start } = await subscribed();
    const failed = invoice(sub, start + 30 * DAY, start + 60 * DAY, { status: 'open', amount_paid: 0 });
    expect((await deliver({ type: 'invoice.payment_failed', object: failed })).body.Data.applied).toBe(true);
    expect(await ordersOf(user.userId)).toHaveLength(1);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.paymentFailed.title', params: { plan: 'Advanced' } });
    expect(await balanceOf(user.userId)).toBe(20000);
  });
});

describe('plans with Stripe, the webhook: refunds, cancelling and ending a subscription', () => {
  it('ends a fully refunded order now and takes back its unspent points, never below zero', async () => {
    const { user, first } = await subscribed();
    // The user spent 15000 of the 20000 points: 5000 are left to take back.
    const spend = await api(t.app, admin).postBody('/api/admin/Vip/AddIntegral', { userId: user.userId, amount: -15000, note: 'spent', requestId: randomUUID() });
    expect(spend.Data).toEqual({ applied: true, balance: 5000 });
    fake.invoicePayments.set('pi_refunded', first.id);
    const partial = { id: 'ch_1', object: 'charge', amount: 1999, amount_refunded: 500, refunded: false, payment_intent: 'pi_refunded' };
    expect((await deliver({ type: 'charge.refunded', object: partial })).body.Data.applied).toBe(false);
    expect((await me(user)).vipOrder).not.toBeNull();

    const full = { ...partial, amount_refunded: 1999, refunded: true };
    expect((await deliver({ type: 'charge.refunded', object: full })).body.Data.applied).toBe(true);
    expect(fake.calls('/v1/invoice_payments').at(-1)!.params).toMatchObject({ payment: { type: 'payment_intent', payment_intent: 'pi_refunded' } });
    expect((await me(user)).vipOrder).toBeNull();
    const [order] = await ordersOf(user.userId);
    expect(order!.refundedAt).not.toBeNull();
    expect(order!.endTime.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await balanceOf(user.userId)).toBe(0);
    expect((await ledgerOf(user.userId)).at(-1)).toEqual(['plan', -5000, `plan-refund:${first.id}`]);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.paymentRefunded.title', params: { plan: 'Advanced', points: 5000 } });
    expect((await api(t.app, user).getBody(`/api/Vip/GetVipOrderById?vipOrderId=${order!.id}`)).Data).toMatchObject({ status: 'refunded', active: false });

    // The same refund as another event (an older API version names the invoice on the charge): nothing more.
    expect((await deliver({ type: 'charge.refunded', object: { ...full, id: 'ch_2', invoice: first.id } })).body.Data.applied).toBe(false);
    expect(await balanceOf(user.userId)).toBe(0);
  });

  it('cancels at the period end: Stripe is told, the plan runs to its end, the user is told when; resuming undoes it', async () => {
    const { user, sub, start } = await subscribed();
    const periodEnd = start + 30 * DAY;
    fake.subscriptions.set(sub.id, subscriptionObject(sub.id, { metadata: metadataOf(sub), periodEnd }));
    const cancelled = await api(t.app, user).postBody('/api/Vip/CancelSubscription', {});
    expect(cancelled).toEqual({ Code: 10000, Msg: '', Data: { cancelAtPeriodEnd: true, endTime: new Date(periodEnd * 1000).toISOString() } });
    expect(fake.calls(`/v1/subscriptions/${sub.id}`).map((r) => [r.method, r.params])).toEqual([['POST', { cancel_at_period_end: 'true' }]]);
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect((await me(user)).vipOrder.vipPackageLevel).toBe(2);

    const updated = { type: 'customer.subscription.updated', object: fake.subscriptions.get(sub.id), previous_attributes: { cancel_at_period_end: false } };
    expect((await deliver(updated)).body.Data.applied).toBe(true);
    const endDate = new Date(periodEnd * 1000).toISOString().slice(0, 10);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.planEnding.title', params: { plan: 'Advanced', endDate } });

    expect((await api(t.app, user).postBody('/api/Vip/ResumeSubscription', {})).Data).toEqual({ cancelAtPeriodEnd: false, endTime: new Date(periodEnd * 1000).toISOString() });
    expect(fake.calls(`/v1/subscriptions/${sub.id}`).at(-1)!.params).toEqual({ cancel_at_period_end: 'false' });
    const resumed = { type: 'customer.subscription.updated', object: fake.subscriptions.get(sub.id), previous_attributes: { cancel_at_period_end: true } };
    expect((await deliver(resumed)).body.Data.applied).toBe(true);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.planResumed.title', params: { plan: 'Advanced', endDate } });

    // The portal is the customer's.
    const portal = await api(t.app, user).postBody('/api/Vip/CreatePortalSession', {});
    expect(portal.Data.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(fake.calls('/v1/billing_portal/sessions')[0]!.params).toEqual({ customer: `cus_${sub.id}`, return_url: 'https://tandem.example/subscription' });
    // Without a subscription there is nothing to cancel or open.
    const other = await createUser(t.app);
    expect((await api(t.app, other).postBody('/api/Vip/CancelSubscription', {})).Code).toBe(10404);
    expect((await api(t.app, other).postBody('/api/Vip/CreatePortalSession', {})).Code).toBe(10404);
  });

  it('ends the subscription: the user is told, and the paid period keeps its end', async () => {
    const { user, sub, start } = await subscribed();
    const ended = subscriptionObject(sub.id, { metadata: metadataOf(sub), status: 'canceled', periodEnd: start + 30 * DAY });
    expect((await deliver({ type: 'customer.subscription.deleted', object: ended })).body.Data.applied).toBe(true);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.planEnded.title', params: { plan: 'Advanced', endDate: new Date((start + 30 * DAY) * 1000).toISOString().slice(0, 10) } });
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toMatchObject({ status: 'canceled' });
    expect((await me(user)).vipOrder.endTime).toBe(new Date((start + 30 * DAY) * 1000).toISOString().replace('.000Z', 'Z'));
    expect((await api(t.app, user).postBody('/api/Vip/CancelSubscription', {})).Code).toBe(10404);
    // A late update does not bring it back.
    const late = subscriptionObject(sub.id, { metadata: metadataOf(sub), status: 'active', periodEnd: start + 30 * DAY });
    expect((await deliver({ type: 'customer.subscription.updated', object: late })).body.Data.applied).toBe(false);
    // Buying again is allowed once it ended.
    expect((await api(t.app, user).postBody('/api/Vip/CreateCheckout', { vipPackageId: 'advanced-month', currency: 'usd' })).Code).toBe(10000);
  });

  it("an administrator ending the plan cancels the subscription in Stripe at once, or changes nothing when Stripe fails", async () => {
    const { user, sub, start } = await subscribed();
    const path = `/v1/subscriptions/${sub.id}`;
    const endPlan = () => api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: user.userId });
    fake.subscriptions.set(sub.id, subscriptionObject(sub.id, { metadata: metadataOf(sub), periodEnd: start + 30 * DAY }));
    fake.failPath(path, 400);
    expect((await endPlan()).Code).toBe(10502);
    expect((await me(user)).vipOrder.vipPackageLevel).toBe(2);
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data.status).toBe('active');

    fake.reset();
    fake.subscriptions.set(sub.id, subscriptionObject(sub.id, { metadata: metadataOf(sub), periodEnd: start + 30 * DAY }));
    expect((await endPlan()).Data).toEqual({ endedOrders: 1, subscription: 'cancelled' });
    expect(fake.calls(path).map((r) => r.method)).toEqual(['DELETE']);
    expect(fake.subscriptions.get(sub.id).status).toBe('canceled');
    expect((await me(user)).vipOrder).toBeNull();
    expect((await api(t.app, user).getBody('/api/Vip/GetSubscription')).Data).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
    // Once more: nothing runs, nothing is asked of Stripe.
    expect((await endPlan()).Data).toEqual({ endedOrders: 0, subscription: 'none' });
    expect(fake.calls(path)).toHaveLength(1);
    // Stripe's event follows: the user is told the plan ended today, not at the period's end.
    expect((await deliver({ type: 'customer.subscription.deleted', object: fake.subscriptions.get(sub.id) })).body.Data.applied).toBe(true);
    expect((await notesOf(user.userId)).at(-1)).toEqual({ key: 'notifications.planEnded.title', params: { plan: 'Advanced', endDate: new Date().toISOString().slice(0, 10) } });
    expect((await me(user)).vipOrder).toBeNull();
  });

  it('counts a subscription Stripe had already cancelled as cancelled', async () => {
    const { user, sub } = await subscribed();
    fake.subscriptions.set(sub.id, subscriptionObject(sub.id, { metadata: metadataOf(sub), status: 'canceled' }));
    expect((await api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: user.userId })).Data).toEqual({ endedOrders: 1, subscription: 'cancelled' });
    expect(fake.calls(`/v1/subscriptions/${sub.id}`).map((r) => r.method)).toEqual(['DELETE', 'GET']);
  });

  it('deleting an account cancels its subscription first: never a deleted account billed, nothing deleted when Stripe fails', async () => {
    const { user, sub } = await subscribed();
    const path = `/v1/subscriptions/${sub.id}`;
    const remove = (confirmEmail = user.email) => api(t.app, admin).postBody('/api/admin/User/Delete', { userId: user.userId, confirmEmail });
    expect((await api(t.app, admin).getBody(`/api/admin/User/GetDeletePreview?userId=${user.userId}`)).Data.runningSubscription).toBe(true);
    // A refused delete asks nothing of Stripe.
    expect((await remove('someone@else.test')).Code).toBe(10400);
    expect(fake.calls(path)).toHaveLength(0);
    fake.failPath(path, 500);
    expect((await remove()).Code).toBe(10502);
    expect((await me(user)).vipOrder.vipPackageLevel).toBe(2);

    fake.reset();
    expect((await remove()).Data).toEqual({ subscription: 'cancelled' });
    expect(fake.calls(path).map((r) => r.method)).toEqual(['DELETE']);
    expect((await api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`)).Code).toBe(10404);
  });
});

describe('plans with Stripe, the webhook: deliveries', () => {
  it('refuses forged, unsigned and stale deliveries with HTTP 400, changing nothing', async () => {
    const user = await createUser(t.app);
    const sub = newSub(user);
    const event = { id: `evt_${randomUUID()}`, type: 'invoice.paid', object: invoice(sub, nowSeconds(), nowSeconds() + 30 * DAY) };
    const counts = async () => {
      const [orders] = await t.database.db.select({ n: count() }).from(vipOrders);
      const [events] = await t.database.db.select({ n: count() }).from(stripeEvents);
      const [entries] = await t.database.db.select({ n: count() }).from(pointLedger);
      return [orders!.n, events!.n, entries!.n];
    };
    const before = await counts();
    const forged = await deliver(event, { secret: 'whsec_someone_else' });
    expect(forged).toEqual({ status: 400, body: { Code: 10400, Msg: 'The Stripe signature of this event is missing, wrong or too old.', Data: null } });
    expect((await deliver(event, { signature: '' })).status).toBe(400);
    expect((await deliver(event, { signature: 't=1,v1=deadbeef' })).status).toBe(400);
    // A real event replayed later, signed again with its old timestamp: outside Stripe's 5 minutes.
    expect((await deliver(event, { timestamp: nowSeconds() - 600 })).status).toBe(400);
    // The body changed after signing.
    const { payload, signature } = fake.deliver(event);
    const tampered = await t.app.inject({ method: 'POST', url: '/api/Vip/StripeWebhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: payload.replace('1999', '1') });
    expect(tampered.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
    expect((await me(user)).vipOrder).toBeNull();
    // The genuine delivery still works afterwards.
    expect((await deliver(event)).status).toBe(200);
  });

  it('receives unknown event types and ignores them', async () => {
    expect((await deliver({ type: 'customer.created', object: { id: 'cus_1', object: 'customer' } })).body.Data).toEqual({ received: true, applied: false });
  });

  it('leaves the other routes parsing JSON as before', async () => {
    const user = await createUser(t.app);
    const res = await api(t.app, user).post('/api/Vip/DeleteVipOrder', undefined, { raw: '{"vipOrderId":', headers: { 'content-type': 'application/json' } });
    expect(res.json()).toMatchObject({ Code: 10400, Msg: 'The request body is not valid JSON.' });
  });

  // On PostgreSQL (npm run test:pg) the 20 deliveries run in 20 transactions at once.
  it('applies the same event delivered 20 times at once exactly once', async () => {
    const user = await createUser(t.app);
    const sub = newSub(user, 'standard-month');
    const start = nowSeconds() - 60;
    const event = { id: `evt_${randomUUID()}`, type: 'invoice.paid', object: invoice(sub, start, start + 30 * DAY) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(event)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.Data.applied)).toHaveLength(1);
    expect(await ordersOf(user.userId)).toHaveLength(1);
    expect(await ledgerOf(user.userId)).toEqual([['plan', 5000, `plan:${event.object.id}`]]);
    expect(await notesOf(user.userId)).toHaveLength(1);
    // Two events (different ids) for the same invoice: one order still.
    expect((await deliver({ ...event, id: `evt_${randomUUID()}` })).body.Data.applied).toBe(false);
    expect(await balanceOf(user.userId)).toBe(5000);
  });
});

describe('plans with Stripe: orders', () => {
  it("lists the caller's orders newest first, one by id, and hides one from the list while it stays in force", async () => {
    const { user, first } = await subscribed();
    await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 1, days: 10, requestId: randomUUID() });
    const list = (await api(t.app, user).getBody('/api/Vip/GetVipOrderList?page=1&count=10')).Data;
    expect(list.total).toBe(2);
    expect(list.list.map((o: any) => [o.source, o.status, o.level, o.packageName])).toEqual([
      ['admin', 'granted', 1, 'Standard'],
      ['stripe', 'paid', 2, 'Advanced'],
    ]);
    const paid = list.list[1];
    expect(paid).toMatchObject({ vipPackageId: 'advanced-month', period: 'month', amount: 1999, currency: 'usd', points: 20000, active: true });
    expect((await api(t.app, user).getBody(`/api/Vip/GetVipOrderById?vipOrderId=${paid.vipOrderId}`)).Data).toEqual(paid);
    expect((await ordersOf(user.userId)).find((o) => o.id === paid.vipOrderId)!.stripeInvoiceId).toBe(first.id);

    const stranger = await createUser(t.app);
    expect((await api(t.app, stranger).getBody(`/api/Vip/GetVipOrderById?vipOrderId=${paid.vipOrderId}`)).Code).toBe(10404);
    expect((await api(t.app, stranger).postBody('/api/Vip/DeleteVipOrder', { vipOrderId: paid.vipOrderId })).Code).toBe(10404);
    expect((await api(t.app, user).getBody('/api/Vip/GetVipOrderById')).Code).toBe(10400);

    expect((await api(t.app, user).postBody('/api/Vip/DeleteVipOrder', { vipOrderId: paid.vipOrderId })).Code).toBe(10000);
    expect((await api(t.app, user).getBody('/api/Vip/GetVipOrderList')).Data.total).toBe(1);
    expect((await api(t.app, user).getBody(`/api/Vip/GetVipOrderById?vipOrderId=${paid.vipOrderId}`)).Code).toBe(10404);
    expect((await api(t.app, user).postBody('/api/Vip/DeleteVipOrder', { vipOrderId: paid.vipOrderId })).Code).toBe(10404);
    expect((await me(user)).vipOrder.vipPackageLevel).toBe(2);
  });
});

describe('plans with Stripe: plan points expiry', () => {
  it('expires the unspent part of an ended period when plan_points_expire is true, once', async () => {
    const user = await createUser(t.app);
    const sub = newSub(user, 'standard-month');
    const start = nowSeconds() - 40 * DAY;
    const old = invoice(sub, start, start + 30 * DAY);
    await deliver({ type: 'invoice.paid', object: old });
    expect(await balanceOf(user.userId)).toBe(5000);
    await api(t.app, admin).postBody('/api/admin/Vip/AddIntegral', { userId: user.userId, amount: -1000, note: 'spent', requestId: randomUUID() });
    // Off by default.
    await expirePlanPoints(t.app.ctx);
    expect(await balanceOf(user.userId)).toBe(4000);

    expect((await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: 'plan_points_expire', settingValue: 'true' })).Code).toBe(10000);
    await expirePlanPoints(t.app.ctx);
    await expirePlanPoints(t.app.ctx);
    expect(await balanceOf(user.userId)).toBe(0);
    expect((await ledgerOf(user.userId)).at(-1)).toEqual(['expiry', -4000, `expiry:${old.id}`]);
    // A running period is not touched.
    const current = invoice(sub, nowSeconds(), nowSeconds() + 30 * DAY);
    await deliver({ type: 'invoice.paid', object: current });
    await expirePlanPoints(t.app.ctx);
    expect(await balanceOf(user.userId)).toBe(5000);
    await api(t.app, admin).postBody('/api/admin/System/DeleteSetting', { settingKey: 'plan_points_expire' });
    const [open] = await t.database.db
      .select({ n: count() })
      .from(vipOrders)
      .where(and(eq(vipOrders.userId, user.userId), sql`${vipOrders.pointsSettledAt} is null`));
    expect(open!.n).toBe(1);
  });
});

describe('plans with Stripe: operators', () => {
  it('save, list and delete packages; users see only what is online', async () => {
    const saved = await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { vipPackageId: 'team-year', name: 'Team', level: 3, period: 'year', prices: { usd: 99900, EUR: 89900 }, monthlyPoints: 80000, sort: 40 });
    expect(saved.Code, saved.Msg).toBe(10000);
    expect(saved.Data).toMatchObject({ vipPackageId: 'team-year', name: 'Team', prices: { usd: 99900, eur: 89900 }, stripePriceIds: {}, online: true, bestDeal: false });
    expect((await api(t.app).getBody('/api/Vip/GetVipPackageList?currency=eur')).Data.list.map((p: any) => [p.vipPackageId, p.price, p.periodPoints])).toEqual([
      ['free', 0, 0],
      ['team-year', 89900, 960000],
    ]);
    await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { ...saved.Data, online: false, createTime: undefined, updateTime: undefined });
    expect((await api(t.app).getBody('/api/Vip/GetVipPackageList?currency=eur')).Data.list).toHaveLength(1);
    expect((await api(t.app, admin).getBody('/api/admin/Vip/GetPackageList')).Data.map((p: any) => p.vipPackageId)).toContain('team-year');
    const made = await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { level: 1, period: 'month', prices: { usd: 1 } });
    expect(made.Data.vipPackageId).toMatch(/^standard-month-[0-9a-f]{6}$/);

    expect((await api(t.app, admin).postBody('/api/admin/Vip/DeletePackage', { vipPackageId: 'team-year' })).Code).toBe(10000);
    expect((await api(t.app, admin).getBody('/api/admin/Vip/GetPackageList')).Data.map((p: any) => p.vipPackageId)).not.toContain('team-year');
    expect((await api(t.app, admin).postBody('/api/admin/Vip/DeletePackage', { vipPackageId: 'team-year' })).Code).toBe(10404);
    // The row stays for subscriptions sold before the delete.
    expect(await t.database.db.select({ id: vipPackages.id }).from(vipPackages).where(eq(vipPackages.id, 'team-year'))).toHaveLength(1);
    await api(t.app, admin).postBody('/api/admin/Vip/DeletePackage', { vipPackageId: made.Data.vipPackageId });
  });

  it('refuses bad packages and non-admins', async () => {
    const bad = [
      { level: 0, period: 'month', prices: { usd: 1 } },
      { level: 1, period: 'week', prices: { usd: 1 } },
      { level: 1, period: 'month', prices: {} },
      { level: 1, period: 'month', prices: { dollars: 1 } },
      { level: 1, period: 'month', prices: { usd: -1 } },
      { level: 1, period: 'month', prices: { usd: 1 }, stripePriceIds: { usd: 'prod_1' } },
      { level: 1, period: 'month', prices: { usd: 1 }, stripePriceIds: { cny: 'price_1' } },
      { vipPackageId: 'has space', level: 1, period: 'month', prices: { usd: 1 } },
    ];
    for (const body of bad) expect((await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', body)).Code, JSON.stringify(body)).toBe(10400);
    const user = await createUser(t.app);
    expect((await api(t.app, user).postBody('/api/admin/Vip/SavePackage', { level: 1, period: 'month', prices: { usd: 1 } })).Code).toBe(10403);
    expect((await api(t.app, user).getBody('/api/admin/Vip/GetPackageList')).Code).toBe(10403);
    expect((await api(t.app, user).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 1, days: 1, requestId: randomUUID() })).Code).toBe(10403);
  });

  it('grants plan days once per requestId, after the days already held at that level or above', async () => {
    const user = await createUser(t.app);
    const requestId = randomUUID();
    const first = await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 2, days: 30, requestId });
    expect(first.Data).toMatchObject({ applied: true });
    const again = await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 2, days: 30, requestId });
    expect(again.Data).toEqual({ ...first.Data, applied: false });
    // A lower level follows the days held above it; a higher one starts now.
    const lower = await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 1, days: 5, requestId: randomUUID() });
    expect(lower.Data.startTime).toBe(first.Data.endTime);
    const higher = await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 3, days: 10, requestId: randomUUID() });
    expect(Date.parse(higher.Data.startTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(higher.Data.startTime)).toBeLessThan(Date.parse(first.Data.endTime));
    expect((await me(user)).vipOrder).toMatchObject({ vipPackageLevel: 3, vipPackageName: 'Super' });
    const same = await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 2, days: 10, requestId: randomUUID() });
    expect(same.Data.startTime).toBe(first.Data.endTime);
    expect((await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: 'nobody', level: 1, days: 1, requestId: randomUUID() })).Code).toBe(10404);
    expect((await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 4, days: 1, requestId: randomUUID() })).Code).toBe(10400);
    expect((await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 1, days: 0, requestId: randomUUID() })).Code).toBe(10400);
    expect((await api(t.app, admin).postBody('/api/admin/Vip/ExtendEndTime', { userId: user.userId, level: 1, days: 1, requestId: 'short' })).Code).toBe(10400);
  });
});
