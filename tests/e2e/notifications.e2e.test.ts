import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveSetting } from '../../server/services/system/settings.ts';
import { api } from '../helpers/api.ts';
import { createAdmin } from '../helpers/users.ts';
import { DESKTOP, PHONE, loginFrame, openPanelRoute, openSidePanel, screenshot, settled, sidePanelUrl, startStackWithExtension, submitLoginForm, waitForExtensionStorage, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/** The toolbar badge's text, read in the extension's service worker (whichever instance runs now). */
async function badgeText(browser: Browser): Promise<string> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && /^chrome-extension:\/\/\w+\/background\.js$/.test(t.url()));
  const worker = await target.worker();
  return worker!.evaluate(() => chrome.action.getBadgeText({}));
}

async function waitForBadge(browser: Browser, text: string, timeout = 15_000): Promise<void> {
  let last = '';
  await vi
    .waitUntil(async () => (last = await badgeText(browser)) === text, { timeout, interval: 100 })
    .catch(() => expect.fail(`the badge stayed ${JSON.stringify(last)}, not ${JSON.stringify(text)}`));
}

/** The count on the bell ('' when it shows none). */
const bellCount = (page: Page) => page.$eval('body', () => document.querySelector('[data-testid="notification-count"]')?.textContent ?? '');

/**
 * Invites and notifications in Chromium: A signs up in the side panel and shares the invite link; B
 * opens it in the web app (another profile, no extension), signs up through the login page and sends
 * a message; A's bell and the extension's toolbar badge then show the credit, until A reads it.
 */
let stack: Stack;
let ext: ExtensionBrowser;
let panel: Page;
let visitor: BrowserContext;
let web: Page;
let inviteUrl: string;
const a = { email: `inviter-${Date.now()}@example.com`, password: 'correct horse 42', userName: 'Ada' };
const b = { email: `invitee-${Date.now()}@example.com`, password: 'battery staple 7', userName: 'Boris' };

beforeAll(async () => {
  ({ stack, ext } = await startStackWithExtension());
  // B's one free message credits A at once here; the rule that an invitee first spends points of their
  // own (invite_min_spend, docs/economy.md#invites) is tested in tests/server/invites.test.ts.
  await saveSetting(stack.server.app.ctx, { settingKey: 'invite_min_spend', settingValue: '0' });
  panel = await openSidePanel(ext);
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const [page, name] of [[panel, 'panel'], [web, 'web']] as const) {
    if (page && !page.isClosed()) await screenshot(page, `failed-${name}-${task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => {});
  }
});

afterAll(async () => {
  await visitor?.close();
  await ext?.close();
  await stack?.close();
});

describe('invite friends and the notification bell', () => {
  it('A signs up in the side panel; the badge is empty; the invite page has the link', async () => {
    await panel.locator('::-p-aria([name="Sign in"][role="button"])').click();
    await submitLoginForm(await loginFrame(panel, stack.origin), a, 'signUp');
    await waitForExtensionStorage(ext.control, 'tandem.auth.token', (v) => !!(v as { value?: string } | undefined)?.value);
    await panel.waitForSelector('[data-testid="notification-bell"]');
    expect(await bellCount(panel)).toBe('');
    await waitForExtensionStorage(ext.control, 'tandem.notifications.unread', (v) => (v as { value?: number } | undefined)?.value === 0);
    expect(await badgeText(ext.browser)).toBe('');

    const link = await openPanelRoute(panel, ext, '#/invited', '::-p-aria(Your invite link)');
    inviteUrl = await link!.evaluate((input) => (input as HTMLInputElement).value);
    expect(inviteUrl).toMatch(new RegExp(`^${stack.origin}/\\?inviteCode=[A-Z2-9]{8}$`));
  });

  it('B opens the link in the web app and signs up through the login page: the code reaches AddUser', async () => {
    visitor = await ext.browser.createBrowserContext();
    web = await visitor.newPage();
    await web.setViewport(DESKTOP);
    const addUser: unknown[] = [];
    web.on('request', (request) => {
      if (request.url().endsWith('/api/Account/AddUser')) addUser.push(JSON.parse(request.postData() ?? '{}'));
    });
    await web.goto(inviteUrl);
    await waitForText(web, /Sign in to start chatting/);
    // The code left the address bar and is kept for the sign-up.
    await web.waitForFunction(() => location.search === '');
    const code = new URL(inviteUrl).searchParams.get('inviteCode');
    expect(await web.evaluate(() => localStorage.getItem('tandem.invite.pendingCode'))).toContain(code);

    await web.locator('::-p-aria([name="Sign in"][role="button"])').click();
    await submitLoginForm(await loginFrame(web, stack.origin), b, 'signUp');
    await web.waitForFunction(() => (localStorage.getItem('tandem.auth.token') ?? '').length > 20, { timeout: 15_000 });
    expect(addUser).toEqual([expect.objectContaining({ email: b.email, inviteCode: code })]);
    // Used once: the next sign-up in this browser is nobody's invite.
    await web.waitForFunction(() => localStorage.getItem('tandem.invite.pendingCode') === null);

    // B is welcomed by name.
    await web.waitForFunction(() => document.querySelector('[data-testid="notification-count"]')?.textContent === '1', { timeout: 15_000 });
    // The "login succeeded" toast has gone, so the picture shows the list's header.
    await web.waitForSelector('.mantine-Notification-root', { hidden: true, timeout: 10_000 });
    await web.locator('[data-testid="notification-bell"]').click();
    await waitForText(web, /You joined through Ada's invitation/);
    await screenshot(web, 'notifications-web-desktop-en');
    await web.keyboard.press('Escape');
    await web.waitForSelector('.mantine-Drawer-content', { hidden: true });
  });

  it('B sends a message; A is credited: the bell and the toolbar badge show 1', async () => {
    await web.locator('textarea').fill('Hello from Boris');
    await web.keyboard.press('Enter');
    await waitForText(web, /Echo: Hello from Boris/);

    await panel.bringToFront();
    await panel.goto(sidePanelUrl(ext));
    await panel.waitForSelector('[data-testid="notification-bell"]');
    // The credit is written beside the answer: the bell asks again when the panel gets the focus.
    await vi.waitUntil(
      async () => {
        if ((await bellCount(panel)) === '1') return true;
        await panel.evaluate(() => window.dispatchEvent(new Event('focus')));
        return false;
      },
      { timeout: 15_000, interval: 150 },
    );
    await waitForBadge(ext.browser, '1');
    await screenshot(panel, 'notifications-side-panel-bell-en');

    await panel.locator('[data-testid="notification-bell"]').click();
    await waitForText(panel, /You earned 100 points/);
    await waitForText(panel, /Bo\*\*\*, whom you invited, has started chatting/);
    expect(await panel.$$eval('[data-testid="notification-item"][data-unread]', (items) => items.length)).toBe(1);
    await screenshot(panel, 'notifications-side-panel-en');
  });

  it('clicking the notification marks it read: the bell and the badge clear', async () => {
    await panel.locator('[data-testid="notification-item"] button').click();
    await panel.waitForSelector('[data-testid="notification-item"]:not([data-unread])');
    await panel.waitForSelector('[data-testid="notification-count"]', { hidden: true });
    await waitForBadge(ext.browser, '');
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('.mantine-Drawer-content', { hidden: true });
  });

  it("an operator's broadcast reaches the open side panel live: the bell and the badge, no reopening", async () => {
    expect(await bellCount(panel)).toBe('');
    const admin = await createAdmin(stack.server.app);
    const sent = await api(stack.server.app, admin).postBody('/api/admin/UserNotification/Broadcast', {
      title: 'Maintenance tonight',
      body: 'We restart at 22:00 UTC.',
      translations: { zh: { title: '今晚维护', body: '我们将在 UTC 22:00 重启。' } },
      audience: 'all',
      requestId: `e2e-${Date.now()}`,
    });
    expect(sent.Code).toBe(10000);
    // Nothing nudges the panel (no focus, no reload): the count comes over the stream.
    await panel.waitForFunction(() => document.querySelector('[data-testid="notification-count"]')?.textContent === '1', { timeout: 15_000 });
    await waitForBadge(ext.browser, '1');
    await panel.locator('[data-testid="notification-bell"]').click();
    await waitForText(panel, /Maintenance tonight/);
    await panel.locator('::-p-aria([name="Mark all as read"][role="button"])').click();
    await panel.waitForSelector('[data-testid="notification-count"]', { hidden: true });
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('.mantine-Drawer-content', { hidden: true });
  });
});

describe('the invite page, the bell on a phone, and Chinese', () => {
  it("A's invite page counts B, reached from the user area of the history drawer", async () => {
    await panel.locator('::-p-aria([name="Chat history"][role="button"])').click();
    await panel.locator('.mantine-Drawer-content ::-p-aria([name="Invite friends"][role="button"])').click();
    await panel.waitForSelector('[data-testid="invited-account"]');
    expect(await panel.$eval('[data-testid="invite-invited"]', (e) => e.textContent)).toBe('1');
    expect(await panel.$eval('[data-testid="invite-credited"]', (e) => e.textContent)).toBe('1');
    expect(await panel.$eval('[data-testid="invite-points"]', (e) => e.textContent)).toBe('100');
    await waitForText(panel, /Bo\*\*\*/);
    await waitForText(panel, /\+100 points/i);
    await screenshot(panel, 'invite-side-panel-en');

    // The same in the web app, where A is signed in through the extension.
    const own = await ext.browser.newPage();
    await own.setViewport(DESKTOP);
    await own.goto(`${stack.origin}/invited`);
    await own.waitForSelector('[data-testid="invited-account"]');
    await screenshot(own, 'invite-web-desktop-en');
    await own.setViewport(PHONE);
    await own.reload();
    await own.waitForSelector('[data-testid="invited-account"]');
    await screenshot(own, 'invite-web-mobile-en');
    // The mobile bar's back arrow leads to the chat.
    await own.locator('::-p-aria([name="Back to chat"][role="button"])').click();
    await waitForText(own, /Ask a question, paste some text/);
    await own.close();
  });

  it('B at 390 px: the bell opens the list over the whole width', async () => {
    await web.bringToFront();
    await web.setViewport(PHONE);
    await web.reload();
    await web.locator('[data-testid="notification-bell"]').click();
    const drawer = await web.waitForSelector('.mantine-Drawer-content');
    await settled(web);
    expect((await drawer!.boundingBox())!.width).toBe(390);
    await waitForText(web, /Welcome!/);
    await screenshot(web, 'notifications-web-mobile-en');
  });

  it('all of it in Chinese', async () => {
    await ext.control.evaluate(() => chrome.storage.local.set({ 'tandem.language': { v: 1, value: 'zh' } }));
    await panel.bringToFront();
    await panel.goto(sidePanelUrl(ext, '#/invited'));
    await waitForText(panel, /你的邀请码/);
    await panel.waitForSelector('[data-testid="invited-account"]');
    await screenshot(panel, 'invite-side-panel-zh');
    await panel.goto(sidePanelUrl(ext));
    await panel.locator('[data-testid="notification-bell"]').click();
    await waitForText(panel, /你获得了 100 积分/);
    // The operator's broadcast in the reader's language.
    await waitForText(panel, /今晚维护/);
    await screenshot(panel, 'notifications-side-panel-zh');

    // A's web app takes the extension's language when it opens.
    const own = await ext.browser.newPage();
    await own.setViewport(DESKTOP);
    await own.goto(`${stack.origin}/invited`);
    await waitForText(own, /你的邀请码/);
    await own.waitForSelector('[data-testid="invited-account"]');
    await screenshot(own, 'invite-web-desktop-zh');
    await own.setViewport(PHONE);
    await own.reload();
    await waitForText(own, /你的邀请码/);
    await own.waitForSelector('[data-testid="invited-account"]');
    await screenshot(own, 'invite-web-mobile-zh');
    await own.close();

    // B's browser has no extension: its own choice.
    await web.bringToFront();
    await web.evaluate(() => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: 'zh' })));
    await web.reload();
    await web.locator('[data-testid="notification-bell"]').click();
    await waitForText(web, /欢迎！/);
    await screenshot(web, 'notifications-web-mobile-zh');
    await web.setViewport(DESKTOP);
    await web.reload();
    await web.locator('[data-testid="notification-bell"]').click();
    await waitForText(web, /你通过 Ada 的邀请加入/);
    await screenshot(web, 'notifications-web-desktop-zh');
  });
});
