import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
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
