import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, type ExtensionBrowser, launchWithExtension, PHONE, screenshot, settled, signInExtension, type Stack, startStack, useServer, waitForText } from './harness.ts';

/**
 * Buying a plan, in Chromium with the extension loaded: the server talks to a fake Stripe on
 * loopback that hosts the checkout page itself and, when Pay is clicked, delivers the signed
 * webhooks a real first payment sends (docs/economy.md#payments-stripe). The steps share one account
 * and run in order.
 */
describe('Plans and payments in Chromium', () => {
  let fake: FakeStripe;
  let stack: Stack;
  let ext: ExtensionBrowser;
  let user: TestUser;
  let web: Page;
  /** The plan's end, as the server says it and as the browser writes it (YYYY-MM-DD, its time zone). */
  let endDate = '';
  const panelUrl = () => `chrome-extension://${ext.extensionId}/sidepanel.html`;

  async function openPanel(): Promise<Page> {
    const page = await ext.browser.newPage();
    await page.setViewport({ width: 400, height: 800 });
    await page.goto(panelUrl());
    await waitForText(page, /Ask a question, paste some text/);
    return page;
  }

  /** Opens the model picker of a chat and answers its menu item for `aiModelId`. */
  async function modelItem(page: Page, aiModelId: string) {
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid="model-picker"]')?.disabled);
    await page.locator('[data-testid="model-picker"]').click();
    return (await page.waitForSelector(`[role="menu"] [data-model-id="${aiModelId}"]`))!;
  }

  beforeAll(async () => {
    fake = await startFakeStripe();
    [stack, ext] = await Promise.all([
      startStack({ STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url }),
      launchWithExtension(),
    ]);
    // The checkout page Pay sends the events to this server's webhook.
    fake.serveCheckout(`${stack.origin}/api/Vip/StripeWebhook`);
    await useServer(ext.control, stack.origin);
    // Signed in through the API and handed to the extension; the bridge signs the web app in too.
    user = await createUser(stack.server.app, { userName: 'Grace' });
    await signInExtension(ext.control, user.token);
    web = await ext.browser.newPage();
    await web.setViewport(DESKTOP);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && web && !web.isClosed()) {
      await screenshot(web, `failed-plans-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });

  afterAll(async () => {
    await ext?.close();
    await stack?.close();
    await fake?.close();
  });

  it('asks for an upgrade when a free user picks a plan-gated model in the side panel', async () => {
    const panel = await openPanel();
    const pro = await modelItem(panel, 'pro-model');
    expect(await pro.evaluate((item) => item.getAttribute('data-locked'))).toBe('true');
    await pro.click();
    const modal = await panel.waitForSelector('[data-testid="upgrade-modal"]');
    expect(await modal!.evaluate((m) => (m as HTMLElement).innerText)).toContain('pro-model needs the Advanced plan');
    await screenshot(panel, 'plans-upgrade-side-panel-en');
    // See plans: the side panel cannot host the checkout, so vip_url (PUBLIC_URL/pricing) opens in a tab.
    const opened = ext.browser.waitForTarget((t) => t.url() === `${stack.origin}/pricing`, { timeout: 10_000 });
    await panel.locator('[data-testid="upgrade-modal"] ::-p-text(See plans)').click();
    const tab = await (await opened).page();
    await tab?.close();
    await panel.close();
  });

  it('subscribes to the yearly Advanced plan on /pricing and pays on the checkout page', async () => {
    await web.goto(`${stack.origin}/pricing`);
    await web.waitForSelector('[data-testid="plan-card"][data-package="advanced-month"]');
    // The bridge has signed the web app in: the free plan is the current one.
    await web.waitForSelector('[data-testid="plan-card"][data-package="free"] [data-testid="current-plan"]');
    await screenshot(web, 'plans-pricing-web-desktop-en');

    await web.locator('label ::-p-text(Yearly)').click();
    const yearly = await web.waitForSelector('[data-testid="plan-card"][data-package="advanced-year"]');
    expect(await yearly!.evaluate((card) => (card as HTMLElement).innerText)).toMatch(/Best deal[\s\S]*\$191\.90/i);
    await screenshot(web, 'plans-pricing-year-web-desktop-en');

    await Promise.all([web.waitForNavigation(), web.locator('::-p-aria(Subscribe to Advanced, Yearly)').click()]);
    expect(web.url()).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_\\d+$`));
    await waitForText(web, /Advanced \(yearly\)/);
    await waitForText(web, /191\.90 USD \/ year/);

    await Promise.all([web.waitForNavigation(), web.click('#pay')]);
    const back = new URL(web.url());
    expect(`${back.origin}${back.pathname}`).toBe(`${stack.origin}/pricing/pay`);
    expect(back.searchParams.get('status')).toBe('success');
    expect(back.searchParams.get('session_id')).toMatch(/^cs_test_\d+$/);

    // The webhooks made the order: the page shows the plan once it is in force.
    const me = (await stack.server.app.inject({ method: 'GET', url: '/api/User/GetUserByLogin', headers: auth(user.token) })).json();
    expect(me.Data.vipOrder).toMatchObject({ vipPackageLevel: 2, vipPackageName: 'Advanced' });
    endDate = await web.evaluate((iso: string) => {
      const d = new Date(iso);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    }, me.Data.vipOrder.endTime);
    expect(Number(endDate.slice(0, 4))).toBe(new Date().getFullYear() + 1);
    await web.waitForSelector('[data-testid="plan-active"]', { timeout: 15_000 });
    await waitForText(web, new RegExp(`Your Advanced plan is active until ${endDate}`));
    await screenshot(web, 'plans-success-web-desktop-en');
    expect(fake.calls('/v1/checkout/sessions')).toHaveLength(1);
  }, 90_000);

  it('shows the plan card with the level and end date, and the level-2 model unlocked in the side panel', async () => {
    await web.locator('[data-testid="pay-success"] ::-p-text(Back to home)').click();
    const card = await web.waitForSelector('[data-testid="vip-card"][data-tier="2"]');
    const text = await card!.evaluate((c) => (c as HTMLElement).innerText);
    expect(text).toContain('Advanced');
    expect(text).toContain(`Expires ${endDate}`);
    expect(await web.$('::-p-aria(Go premium)')).toBeNull();
    // The payment was announced: the bell counts it and its list says so.
    await web.waitForFunction(() => Number(document.querySelector('[data-testid="notification-count"]')?.textContent ?? 0) >= 1, { timeout: 15_000 });
    await web.locator('[data-testid="notification-bell"]').click();
    await waitForText(web, new RegExp(`Payment received[\\s\\S]*Your Advanced plan is active until ${endDate}`));
    await web.keyboard.press('Escape');

    const panel = await openPanel();
    const pro = await modelItem(panel, 'pro-model');
    expect(await pro.evaluate((item) => [item.getAttribute('data-locked'), item.getAttribute('data-disabled')])).toEqual([null, null]);
    await pro.click();
    await panel.waitForFunction(() => document.querySelector('[data-testid="model-picker"]')?.textContent?.includes('pro-model'));
    expect(await panel.$('[data-testid="upgrade-modal"]')).toBeNull();
    await panel.close();
  });

  it('cancels on /subscription and sees until when the plan runs', async () => {
    await web.goto(`${stack.origin}/subscription`);
    await waitForText(web, new RegExp(`Renews on ${endDate}`));
    await web.waitForSelector('[data-testid="order-row"]');
    expect(await web.$eval('[data-testid="order-row"]', (row) => (row as HTMLElement).innerText)).toMatch(/Advanced[\s\S]*Paid[\s\S]*\$191\.90/i);
    await screenshot(web, 'plans-subscription-web-desktop-en');

    await web.locator('::-p-aria([name="Cancel subscription"][role="button"])').click();
    await web.waitForSelector('.mantine-Modal-content');
    await settled(web);
    await web.locator('.mantine-Modal-content ::-p-aria([name="Cancel subscription"][role="button"])').click();
    await waitForText(web, new RegExp(`Your plan runs until ${endDate} and will not renew`));
    await waitForText(web, new RegExp(`Ends on ${endDate}`));
    await web.waitForSelector('.mantine-Modal-content', { hidden: true });
    expect(fake.calls(`/v1/subscriptions/${[...fake.subscriptions.keys()][0]}`).map((r) => [r.method, r.params])).toEqual([['POST', { cancel_at_period_end: 'true' }]]);
    await screenshot(web, 'plans-subscription-cancelled-web-desktop-en');
  });

  it('lays the pages out at 390 px and in Chinese', async () => {
    const pages = [
      ['pricing', '/pricing', '[data-testid="plan-card"]'],
      ['subscription', '/subscription', '[data-testid="plan-dates"]'],
      ['success', '/pricing/pay?status=success&session_id=cs_test_1', '[data-testid="plan-active"]'],
    ] as const;
    const shoot = async (language: 'en' | 'zh', viewport: typeof DESKTOP | typeof PHONE, size: string) => {
      await web.setViewport(viewport);
      for (const [name, path, ready] of pages) {
        await web.goto(`${stack.origin}${path}`);
        await web.waitForSelector(ready, { timeout: 15_000 });
        if (size === 'mobile') {
          // The back bar of the narrow layout, and nothing wider than the screen.
          await web.waitForSelector('[data-testid="plans-back-bar"]');
          expect(await web.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        }
        await screenshot(web, `plans-${name}-web-${size}-${language}`);
      }
    };
    await shoot('en', PHONE, 'mobile');

    // Chinese everywhere: the extension's choice reaches the web app through the bridge.
    await ext.control.evaluate(() => chrome.storage.local.set({ 'tandem.language': { v: 1, value: 'zh' } }));
    await web.evaluate(() => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: 'zh' })));
    await web.goto(`${stack.origin}/pricing`);
    await waitForText(web, /套餐与价格/);
    // Priced in yuan.
    await web.waitForSelector('[data-testid="plan-card"][data-package="advanced-month"]');
    expect(await web.$eval('[data-testid="plan-card"][data-package="advanced-month"]', (c) => (c as HTMLElement).innerText)).toContain('¥138.00');
    await shoot('zh', DESKTOP, 'desktop');
    await shoot('zh', PHONE, 'mobile');
    await waitForText(web, /你的Advanced套餐有效期至/);
  }, 150_000);
});
