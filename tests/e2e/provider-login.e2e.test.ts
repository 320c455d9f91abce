import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOidc, type FakeOidc } from '../fixtures/fake-oidc.ts';
import { launchWithExtension, screenshotOnFailure, startStack, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/**
 * Sign in with another account in real Chromium: the web app's login page, "Continue with Fake ID",
 * the real OpenID provider's page (on loopback), back through the server's callback, and the web
 * app signed in as the new account.
 */
describe('Continue with a provider', () => {
  let fake: FakeOidc;
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let page: Page;
  screenshotOnFailure('provider-login', () => [page]);

  beforeAll(async () => {
    fake = await startFakeOidc();
    [stack, ext] = await Promise.all([
      startStack({
        AUTH_RATE_LIMIT: '1000',
        OIDC_PROVIDERS: JSON.stringify([{ key: 'fake', name: 'Fake ID', issuer: fake.issuer, clientId: fake.clientId, clientSecret: fake.clientSecret }]),
      }),
      launchWithExtension(),
    ]);
    fake.allowRedirects([`${stack.origin}/api/Provider/Callback`]);
    context = await ext.browser.createBrowserContext();
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
    await fake?.close();
  });

  it('signs a new person in from the login page and lands in the web app signed in', async () => {
    fake.setAccount('e2e-person', { email: 'e2e-person@example.test', email_verified: true, name: 'E2E Person' });
    await page.goto(`${stack.origin}/login`);
    await page.locator('::-p-aria([name="Continue with Fake ID"][role="button"])').click();
    // The provider's own page, on its own origin.
    await page.waitForSelector('#as-e2e-person', { timeout: 20_000 });
    expect(new URL(page.url()).origin).toBe(fake.issuer);
    await Promise.all([page.waitForNavigation(), page.click('#as-e2e-person')]);
    // Back on the web app, signed in: the stored login holds a token of the new account.
    await page.waitForFunction(() => !!localStorage.getItem('tandem.auth.token') && JSON.parse(localStorage.getItem('tandem.auth.token')!).value, { timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(stack.origin);
    expect(page.url()).not.toMatch(/providerTempKey|tempKey=/);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tandem.auth.token')!).value as string);
    const me = await (await fetch(`${stack.origin}/api/User/GetUserByLogin`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(me.Data).toMatchObject({ email: 'e2e-person@example.test', userName: 'E2E Person' });
  });

  it('shows a refused unverified e-mail in the page’s language', async () => {
    fake.setAccount('e2e-impostor', { email: 'e2e-person@example.test', email_verified: false });
    // A browser of its own: the provider remembers who signed in in the first one.
    await context.close();
    context = await ext.browser.createBrowserContext();
    page = await context.newPage();
    await page.goto(`${stack.origin}/login`);
    await page.locator('::-p-aria([name="Continue with Fake ID"][role="button"])').click();
    await page.waitForSelector('#as-e2e-impostor', { timeout: 20_000 });
    await Promise.all([page.waitForNavigation(), page.click('#as-e2e-impostor')]);
    await waitForText(page, /the provider does not say the e-mail is verified/, 30_000);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('tandem.auth.token') ?? 'null')?.value ?? null)).toBeNull();
  });
});
