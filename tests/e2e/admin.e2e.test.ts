import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseChatStream } from '../helpers/chat.ts';
import { auth, createUser, loginUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, type ExtensionBrowser, launchWithExtension, screenshot, signInExtension, type Stack, startStack, useServer, waitForText } from './harness.ts';

/**
 * The operator's console in Chromium, against the real server: an administrator signs in through the
 * login page, reads the dashboard's figures for what the test did, adds a deployment with a key and
 * tests it against the fake upstream, grants a user points (seen in that user's side panel), closes
 * the account (the user's next call is refused), and reads the audit log; a non-admin is refused.
 */
let stack: Stack;
let ext: ExtensionBrowser;
let context: BrowserContext;
let web: Page;
let adminEmail: string;
const adminPassword = 'correct horse admin';
let user: TestUser;
let other: TestUser;
const MESSAGES = 3;
const pages: Page[] = [];

async function api<T = unknown>(token: string, path: string, body?: unknown): Promise<{ Code: number; Msg: string; Data: T }> {
  const res = await fetch(`${stack.origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...auth(token), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { Code: number; Msg: string; Data: T };
}

async function mainBalance(token: string): Promise<number> {
  const { Data } = await api<{ integralType: number; integralValue: number }[]>(token, '/api/User/GetUserIntegralByLogin');
  return Data.find((e) => e.integralType === 1)!.integralValue;
}

const button = (name: string) => `::-p-aria([name="${name}"][role="button"])`;

/** Opens a console address and waits for its page heading. */
async function openConsole(path: string, heading: string | RegExp): Promise<void> {
  await web.goto(`${stack.origin}${path}`);
  await waitForHeading(heading);
}

async function waitForHeading(heading: string | RegExp): Promise<void> {
  const source = typeof heading === 'string' ? `^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : heading.source;
  await web.waitForFunction(
    (pattern) => [...document.querySelectorAll('main h2')].some((h) => new RegExp(pattern).test(h.textContent ?? '')),
    { timeout: 20_000 },
    source,
  );
}

async function switchLanguage(label: 'English' | '中文'): Promise<void> {
  const lang = label === 'English' ? 'en' : 'zh';
  // A click that lands while the page is still busy may be lost: press again until the language follows.
  for (let attempt = 0; ; attempt++) {
    // Clicked in the page, not by the mouse: a toast over the header (its timer paused while the
    // mouse is on it) would take a real click.
    await web.$$eval('header label', (labels, text) => labels.find((l) => l.textContent === text)?.click(), label);
    try {
      await web.waitForFunction((l) => document.documentElement.lang === l, { timeout: 10_000 }, lang);
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

beforeAll(async () => {
  [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
  await useServer(ext.control, stack.origin);
  // The first account of the database is its administrator.
  adminEmail = `admin-${Date.now()}@example.com`;
  const added = await stack.server.app.inject({
    method: 'POST',
    url: '/api/Account/AddUser',
    headers: { 'content-type': 'application/json' },
    payload: { email: adminEmail, password: adminPassword, userName: 'Operator' },
  });
  expect(added.json().Code).toBe(10000);
  user = await createUser(stack.server.app, { userName: 'Grace' });
  other = await createUser(stack.server.app, { userName: 'Mallory' });
  // Grace chats: what the dashboard must count.
  for (let i = 0; i < MESSAGES; i++) {
    const res = await stack.server.app.inject({
      method: 'POST',
      url: '/api/Chat/AddMessage',
      headers: auth(user.token),
      payload: { aiModelId: 'basic-model', inputMessage: `Question number ${i + 1}, please answer.` },
    });
    expect(parseChatStream(res.body).at(-1)?.Code).toBe(10000);
  }
  // The side panel is Grace's.
  await signInExtension(ext.control, user.token);
  context = await ext.browser.createBrowserContext();
  web = await context.newPage();
  await web.setViewport(DESKTOP);
  pages.push(web);
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    await page.bringToFront();
    await screenshot(page, `failed-admin-${i}-${task.name.slice(0, 30).replace(/\W+/g, '-')}`);
  }
});

afterAll(async () => {
  await context?.close();
  await ext?.close();
  await stack?.close();
});

describe('Admin console: sign-in, dashboard, deployments and grants', () => {
  it('sends a visitor to the login page, and back to the console once signed in', async () => {
    await web.goto(`${stack.origin}/admin`);
    await web.waitForSelector('form input[type="email"]', { timeout: 20_000 });
    expect(new URL(web.url()).pathname).toBe('/login');
    expect(new URL(web.url()).searchParams.get('callback')).toBe('/admin');
    await web.type('input[type="email"]', adminEmail);
    await web.type('input[type="password"]', adminPassword);
    await web.click('form button[type="submit"]');
    await waitForHeading('Dashboard');
    // The login's key left the address once used.
    expect(new URL(web.url()).pathname).toBe('/admin');
    expect(new URL(web.url()).search).toBe('');
    await web.waitForSelector('[data-testid="admin-email"]');
    // The "login succeeded" toast covers the header's buttons until it closes by itself.
    await web.waitForSelector('.mantine-Notification-root', { hidden: true, timeout: 20_000 }).catch(() => undefined);
    expect(await web.$eval('[data-testid="admin-email"]', (el) => el.textContent)).toBe(adminEmail);
  });

  it('shows on the dashboard the figures of what the test did', async () => {
    await web.waitForSelector('[data-testid="dashboard-figures"]', { timeout: 20_000 });
    const value = (id: string) => web.$eval(`[data-testid="${id}-value"]`, (el) => el.textContent);
    expect(await value('card-messages')).toBe(String(MESSAGES));
    expect(await value('card-sign-ups')).toBe('3');
    expect(await value('card-active-day')).toBe('1');
    // The fake upstream reports usage, so tokens were counted.
    expect(Number((await value('card-tokens'))?.replace(/,/g, ''))).toBeGreaterThan(0);
    const models = await web.$eval('table[aria-label="Time to first token per model"]', (el) => el.textContent ?? '');
    expect(models).toContain(String(MESSAGES));
    await screenshot(web, 'admin-dashboard-en');
    await switchLanguage('中文');
    await waitForHeading('概览');
    await waitForText(web, /今日活跃用户/);
    await screenshot(web, 'admin-dashboard-zh');
    await switchLanguage('English');
    await waitForHeading('Dashboard');
  });

  it('adds a deployment with a key to a model and tests it against the fake upstream', async () => {
    await openConsole('/admin/models', 'Models');
    await screenshot(web, 'admin-models-en');
    await web.locator('::-p-aria([name="basic-model"][role="link"])').click();
    await web.locator(button('Add deployment')).click();
    const form = await web.waitForSelector('::-p-aria([name="Deployment"][role="form"])');
    await form!.waitForSelector('::-p-aria(Base URL)');
    await (await form!.$('::-p-aria(Base URL)'))!.type(stack.upstream.baseUrl);
    await (await form!.$('::-p-aria(Upstream model id)'))!.type('admin-tested-model');
    await (await form!.$('::-p-aria(API key)'))!.type('sk-admin-test-key');
    await screenshot(web, 'admin-model-deployment-form-en');
    await (await form!.$(button('Save')))!.click();
    const article = await web.waitForSelector('::-p-aria([name="Deployment admin-tested-model"][role="article"])', { timeout: 20_000 });
    stack.upstream.script('admin-tested-model', { chunks: ['First ', 'tokens ', 'from the fake'] });
    // Pressed in the page: the "saved" toast may lie over the button.
    await (await article!.$(button('Test')))!.evaluate((el) => (el as HTMLElement).click());
    const result = await article!.waitForSelector('::-p-aria([name="Test result"][role="region"])', { timeout: 20_000 });
    await web.waitForFunction((el) => /First tokens from the fake/.test(el.textContent ?? ''), { timeout: 20_000 }, result!);
    // The key went to the upstream, and is never shown again.
    expect(stack.upstream.requests.some((r) => r.model === 'admin-tested-model' && r.headers.authorization === 'Bearer sk-admin-test-key')).toBe(true);
    expect(await web.content()).not.toContain('sk-admin-test-key');
    await screenshot(web, 'admin-model-en');
  });

  it("grants a user points on the user's page, and the user's side panel shows the new balance", async () => {
    await openConsole('/admin/users', 'Users');
    await web.type('::-p-aria(Search)', user.email);
    await web.waitForFunction((email) => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1 && document.body.innerText.includes(email), {}, user.email);
    await screenshot(web, 'admin-users-en');
    await switchLanguage('中文');
    await waitForHeading('用户');
    await screenshot(web, 'admin-users-zh');
    await switchLanguage('English');

    const before = await mainBalance(user.token);
    await web.locator(`::-p-aria([name="${user.email}"][role="link"])`).click();
    await waitForHeading(user.email);
    // The page's balance leaves out today's free allowance, which the side panel counts in.
    await web.waitForSelector('[data-testid="user-balance-value"]');
    const shownBefore = Number((await web.$eval('[data-testid="user-balance-value"]', (el) => el.textContent ?? '')).replace(/,/g, ''));
    await web.locator(button('Grant or deduct points')).click();
    const form = await web.waitForSelector('::-p-aria([name="Grant or deduct points"][role="form"])');
    await (await form!.$('::-p-aria(Points)'))!.type('500');
    await (await form!.$('::-p-aria(Reason)'))!.type('Thanks for the bug report');
    await (await form!.$(button('Grant 500 points')))!.click();
    await web.waitForFunction((n) => document.querySelector('[data-testid="user-balance-value"]')?.textContent?.replace(/,/g, '') === String(n), {}, shownBefore + 500);
    expect(await mainBalance(user.token)).toBe(before + 500);
    await web.waitForFunction(() => document.body.innerText.includes('Thanks for the bug report'));
    await screenshot(web, 'admin-user-en');

    const panel = await ext.browser.newPage();
    pages.push(panel);
    await panel.setViewport({ width: 400, height: 800 });
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
    await panel.waitForSelector('[data-testid="checkin-balance"]', { timeout: 20_000 });
    await panel.waitForFunction((n) => document.querySelector('[data-testid="checkin-balance"]')?.textContent === `Balance ${n}`, {}, before + 500);
    await panel.close();
  });
});

describe('Admin console: closing accounts, the audit log, other pages and refusals', () => {
  it("closes the user's account: that user's next call is refused with 10402", async () => {
    expect((await api(user.token, '/api/User/GetUserByLogin')).Code).toBe(10000);
    await web.locator(button('Close account')).click();
    const dialog = await web.waitForSelector(`::-p-aria([name="Close ${user.email}?"][role="dialog"])`);
    await (await dialog!.$(button('Close the account')))!.click();
    await web.waitForFunction(() => document.querySelector('[data-testid="user-status"]')?.textContent === 'Closed');
    expect((await api(user.token, '/api/User/GetUserByLogin')).Code).toBe(10402);
  });

  it('lists the writes in the audit log, with what changed', async () => {
    await openConsole('/admin/audit', 'Audit log');
    await web.waitForFunction(() => /User\/GrantPoints/.test(document.querySelector('table[aria-label="Audit log"]')?.textContent ?? ''));
    const text = await web.$eval('table[aria-label="Audit log"]', (el) => el.textContent ?? '');
    expect(text).toContain('User/Close');
    expect(text).toContain(adminEmail);
    await web.locator('table[aria-label="Audit log"] ::-p-text(User/GrantPoints)').click();
    await web.waitForSelector('::-p-aria([name="What changed"][role="region"])');
    await screenshot(web, 'admin-audit-en');
  });

  it('shows the money and content pages', async () => {
    await openConsole('/admin/money/plans', 'Money');
    await screenshot(web, 'admin-money-en');
    await openConsole('/admin/content/settings', 'Content');
    await screenshot(web, 'admin-content-en');
  });

  it('refuses a non-admin: "not allowed", and the API refuses it too', async () => {
    const visitor = await ext.browser.createBrowserContext();
    try {
      const page = await visitor.newPage();
      pages.push(page);
      await page.setViewport(DESKTOP);
      const token = await loginUser(stack.server.app, other.email, other.password);
      await page.goto(`${stack.origin}/login`);
      await page.evaluate((t) => localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: t })), token);
      await page.goto(`${stack.origin}/admin/users`);
      await page.waitForSelector('[data-testid="admin-not-allowed"]', { timeout: 20_000 });
      expect(await page.$eval('[data-testid="admin-not-allowed"]', (el) => el.textContent)).toContain(`${other.email} is not an administrator`);
      await screenshot(page, 'admin-not-allowed-en');
      expect((await api(token, '/api/admin/User/GetList')).Code).toBe(10403);
    } finally {
      await visitor.close();
    }
  });
});
