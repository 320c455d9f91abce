import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeStripe, type FakeStripe, type TestEvent } from '../fixtures/fake-stripe.ts';
import { madeInBeforeAll, useTestAppWithAdmin, type TestApp } from './app.ts';
import type { TestUser } from './users.ts';

/**
 * A test app whose payments go to a fake Stripe on loopback (tests/fixtures/fake-stripe.ts), with an
 * admin account, for the tests of the enclosing describe block. The fake forgets its requests and
 * scripted failures before each test.
 */
export function useTestAppWithStripe(env: Record<string, string> = {}): { t: TestApp; admin: TestUser; stripe: FakeStripe } {
  let stripe: FakeStripe | undefined;
  // Registered before the app's hooks: the fake starts first and, hooks running as a stack, closes last.
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(() => stripe?.close());
  const { t, admin } = useTestAppWithAdmin(() => ({
    ...env,
    PUBLIC_URL: 'https://tandem.example',
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: stripe!.webhookSecret,
    STRIPE_API_BASE: stripe!.url,
  }));
  beforeEach(() => stripe!.reset());
  return { t, admin, stripe: madeInBeforeAll('The fake Stripe', () => stripe) };
}

/** A subscription as the payment tests make it: its Stripe id, the user and the plan package it buys. */
export type StripeSub = { id: string; userId: string; packageId: string };

/** The metadata Tandem puts on a checkout and its subscription. */
export const stripeMetadata = (sub: StripeSub) => ({ userId: sub.userId, vipPackageId: sub.packageId });

/** Stripe's checkout.session.completed for the subscription's checkout. */
export const checkoutCompleted = (sub: StripeSub): TestEvent => ({
  type: 'checkout.session.completed',
  object: { id: `cs_${sub.id}`, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', subscription: sub.id, customer: `cus_${sub.id}`, client_reference_id: sub.userId, metadata: stripeMetadata(sub) },
});

/** A paid invoice of the subscription (383.90 USD), its line for the period `start` to `end` (seconds). */
export const paidInvoice = (sub: StripeSub, id: string, start: number, end: number, billingReason = 'subscription_cycle') => ({
  id,
  object: 'invoice',
  customer: `cus_${sub.id}`,
  amount_paid: 38390,
  currency: 'usd',
  status: 'paid',
  created: start,
  billing_reason: billingReason,
  period_start: start,
  period_end: start,
  parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: stripeMetadata(sub) } },
  lines: { object: 'list', data: [{ id: `il_${id}`, object: 'line_item', amount: 38390, period: { start, end } }] },
});
