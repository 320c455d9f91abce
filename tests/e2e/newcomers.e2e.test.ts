import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createAdmin, createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, type ExtensionBrowser, PHONE, screenshot, screenshotOnFailure, settled, signInExtension, type Stack, startStackWithExtension, waitForText } from './harness.ts';
import { GUIDE_LANGUAGES, GUIDE_STEPS, guideScreenshot } from '../../components/newcomers/guide-steps.ts';

/**
 * The newcomers' pages in Chromium against the real server and build: home with the visitor's
 * browser first, the guide, the help centre, uninstall feedback (stored), the not-found pages, a
 * link login on /subscription, the Firefox package, and installed-app mode (the manifest and the
 * service worker accepted by Chromium; offline, the page reloads to its shell with the notice).
 * Pictures of each page, en and zh, desktop and 390 px, go to /tmp/shots-new/ too.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = '/tmp/shots-new';
const EDGE_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51';

let stack: Stack;
let ext: ExtensionBrowser;
let user: TestUser;
let page: Page;

const tokenOf = (p: Page) => p.evaluate(() => localStorage.getItem('tandem.auth.token'));

async function setLanguage(lang: 'en' | 'zh') {
  // Both sides: the web app follows the extension's language through the bridge.
  await ext.control.evaluate((value) => chrome.storage.local.set({ 'tandem.language': { v: 1, value } }), lang);
  await page.goto(`${stack.origin}/api/health`);
  await page.evaluate((value) => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value })), lang);
}

async function shoot(name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await screenshot(page, `newcomers-${name}`);
}

beforeAll(async () => {
  ({ stack, ext } = await startStackWithExtension());
  user = await createUser(stack.server.app, { userName: 'Nina' });
  page = await ext.browser.newPage();
});
screenshotOnFailure('newcomers', () => [page]);
afterAll(async () => {
  await ext?.close();
  await stack?.close();
});

describe('Newcomers: the Firefox add-on, the home page and the store links', () => {
  it('builds the Firefox add-on with its sidebar, and serves its package beside Chrome\'s and Edge\'s', async () => {
    const manifest = JSON.parse(readFileSync(path.join(root, '.output', 'firefox-mv3', 'manifest.json'), 'utf8'));
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.sidebar_action.default_panel).toBe('sidepanel.html');
    expect(manifest.side_panel).toBeUndefined();
    expect(manifest.permissions).not.toContain('sidePanel');
    expect(manifest.key).toBeUndefined();
    expect(manifest.browser_specific_settings.gecko.id).toBe('tandem@tandem.chat');
    expect(manifest.action.default_popup).toBe('popup.html');
    expect(manifest.background.scripts).toEqual(['background.js']);
    expect(manifest.commands._execute_sidebar_action.suggested_key.default).toBe('Alt+T');
    // Chrome's keeps its side panel.
    const chrome = JSON.parse(readFileSync(path.join(root, '.output', 'chrome-mv3', 'manifest.json'), 'utf8'));
    expect(chrome.side_panel.default_path).toBe('sidepanel.html');
    expect(chrome.sidebar_action).toBeUndefined();
    for (const browser of ['chrome', 'edge', 'firefox']) {
      const res = await fetch(`${stack.origin}/downloads/tandem-${browser}.zip`);
      expect(res.status, browser).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`-${browser}.zip`);
    }
  });

  it('shows the home page with the visitor\'s browser first, the guide and the help centre, in English and Chinese', { timeout: 120_000 }, async () => {
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(lang);
      for (const [size, viewport] of [['desktop', DESKTOP], ['mobile', PHONE]] as const) {
        await page.setViewport(viewport);
        await page.goto(`${stack.origin}/home`);
        // The button has its href once the settings have arrived.
        await page.waitForSelector('[data-testid="install-chrome"][data-primary][href]');
        expect(await page.$eval('[data-testid="install-chrome"]', (a) => a.getAttribute('href'))).toBe(`${stack.origin}/downloads/tandem-chrome.zip`);
        await waitForText(page, lang === 'en' ? /Offline installation/ : /离线安装/);
        if (size === 'mobile') expect(await page.$('[data-testid="newcomers-back-bar"]')).not.toBeNull();
        await shoot(`home-${lang}-${size}`);

        await page.goto(`${stack.origin}/guide`);
        await page.waitForSelector('[data-testid="guide-step-pin"] img');
        // Screenshots of the browser in the reader's language.
        expect(await page.$eval('[data-testid="guide-step-pin"] img', (img) => img.getAttribute('src'))).toBe(`/guide/${lang}/pin.webp`);
        await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid="guide-page"] img')].every((img) => img.complete && img.naturalWidth > 0), { timeout: 10_000 }).catch(() => undefined);
        await shoot(`guide-${lang}-${size}`);

        await page.goto(`${stack.origin}/helper`);
        await page.waitForSelector('[data-testid="help-result-points"]');
        await shoot(`helper-${lang}-${size}`);
      }
    }
    await setLanguage('en');
    await page.setViewport(DESKTOP);
    // The images of the guide are real files of the build, in each language.
    for (const language of GUIDE_LANGUAGES) {
      for (const step of GUIDE_STEPS) {
        const res = await fetch(`${stack.origin}${guideScreenshot(step, language)}`);
        expect(res.status, `${language} ${step}`).toBe(200);
        expect(res.headers.get('content-type'), `${language} ${step}`).toBe('image/webp');
      }
    }
  });

  it('offers Edge first to an Edge visitor, and the store listing once the operator sets it', async () => {
    const admin = await createAdmin(stack.server.app);
    const saved = await stack.server.app.inject({
      method: 'POST',
      url: '/api/admin/System/SaveSetting',
      headers: { ...auth(admin.token), 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify({ settingKey: 'edge_store_url', settingValue: 'https://microsoftedge.microsoft.com/addons/detail/tandem' }),
    });
    expect(saved.json().Code).toBe(10000);
    // A fresh profile: the settings list is cacheable for 5 minutes, and the other pages read it before.
    const context = await ext.browser.createBrowserContext();
    const edge = await context.newPage();
    await edge.setUserAgent(EDGE_UA);
    await edge.goto(`${stack.origin}/home`);
    await edge.waitForSelector('[data-testid="install-edge"][data-primary]');
    expect(await edge.$eval('[data-testid="home-page"]', (e) => e.getAttribute('data-browser'))).toBe('edge');
    // The button is there before the settings list: its link follows once the list has come.
    await edge.waitForSelector('[data-testid="install-edge"][href="https://microsoftedge.microsoft.com/addons/detail/tandem"]', { timeout: 15_000 });
    expect(await edge.$eval('[data-testid="install-chrome"]', (a) => a.hasAttribute('data-primary'))).toBe(false);
    await context.close();
  });
});

describe('Newcomers: feedback, not-found pages and signing in from a link', () => {
  it('asks why on /feedback, needs a reason and words for "other", and stores the answer', { timeout: 120_000 }, async () => {
    for (const lang of ['zh', 'en'] as const) {
      await setLanguage(lang);
      for (const [size, viewport] of [['desktop', DESKTOP], ['mobile', PHONE]] as const) {
        await page.setViewport(viewport);
        await page.goto(`${stack.origin}/feedback?v=0.1.0&browser=chrome`);
        await page.waitForSelector('[data-testid="feedback-form"]');
        await page.click('[data-testid="feedback-submit"]');
        await waitForText(page, lang === 'en' ? /Please choose at least one reason/ : /请至少选择一个原因/);
        await shoot(`feedback-${lang}-${size}`);
      }
    }
    await page.click('[data-testid="reason-privacy"]');
    await page.click('[data-testid="reason-other"]');
    await page.click('[data-testid="feedback-submit"]');
    await waitForText(page, /Please tell us more about the other reason/);
    await page.type('[data-testid="feedback-other-text"]', 'It slowed my laptop');
    await page.click('[data-testid="feedback-submit"]');
    await page.waitForSelector('[data-testid="feedback-thanks"]');
    await shoot('feedback-en-mobile-thanks');
    await page.setViewport(DESKTOP);

    const admin = await createAdmin(stack.server.app);
    const list = (await stack.server.app.inject({ method: 'GET', url: '/api/admin/Feedback/GetList', headers: auth(admin.token) })).json();
    expect(list.Data.list[0]).toMatchObject({ reasons: ['privacy', 'other'], otherText: 'It slowed my laptop', browser: 'chrome', version: '0.1.0', language: 'en', userId: null });
  });

  it('shows the not-found page for a mistyped path, and "chat not found" for a chat that is not this account\'s, still signed in', async () => {
    await page.goto(`${stack.origin}/no/such/page`);
    await page.waitForSelector('[data-testid="page-not-found"]');
    await shoot('not-found-en-desktop');

    const owner = await createUser(stack.server.app);
    const theirs = await stack.server.app.inject({
      method: 'POST',
      url: '/api/Chat/AddMessage',
      headers: { ...auth(owner.token), 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify({ aiModelId: 'basic-model', inputMessage: 'Hello' }),
    });
    const otherSession = /"ChatSessionId":"([^"]+)"/.exec(theirs.body)![1]!;
    // Signed in through the extension; the bridge signs the web app in.
    await signInExtension(ext.control, user.token);
    for (const id of [otherSession, 'a-mistyped-chat-id']) {
      await page.goto(`${stack.origin}/${id}`);
      await page.waitForSelector('[data-testid="chat-not-found"]', { timeout: 20_000 });
      expect(await tokenOf(page)).toContain(user.token);
    }
    await shoot('chat-not-found-en-desktop');
    await page.click('[data-testid="chat-not-found"] button');
    await page.waitForFunction((origin) => location.href === `${origin}/`, {}, stack.origin);
    expect(await tokenOf(page)).toContain(user.token);
    await ext.control.evaluate(() => chrome.storage.local.remove('tandem.auth.token'));
  });

  it('signs in from /subscription?token= like from /?token=, even over an expired login of the same account', async () => {
    const context = await ext.browser.createBrowserContext();
    const fresh = await context.newPage();
    await fresh.setViewport(DESKTOP);
    // An old login of this account that the server no longer accepts.
    await fresh.goto(`${stack.origin}/api/health`);
    await fresh.evaluate((u) => {
      localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: 'expired-token-of-nina' }));
      localStorage.setItem('tandem.auth.userInfo', JSON.stringify({ v: 1, value: { userId: u.userId, userName: 'Nina', email: u.email, role: 'user', vipOrder: null } }));
    }, { userId: user.userId, email: user.email });
    await fresh.goto(`${stack.origin}/subscription?token=${user.token}`);
    await fresh.waitForSelector('[data-testid="go-premium"]', { timeout: 20_000 });
    expect(await fresh.$('iframe[src*="/login"]')).toBeNull();
    expect(await fresh.evaluate(() => localStorage.getItem('tandem.auth.token'))).toContain(user.token);
    expect(fresh.url()).toBe(`${stack.origin}/subscription`);
    await context.close();
  });
});

describe('Newcomers: installed-app mode', () => {
  it('installs as an app (manifest and service worker accepted by Chromium) and opens offline to its shell', { timeout: 120_000 }, async () => {
    const app = await ext.browser.newPage();
    await app.setViewport(DESKTOP);
    await app.goto(`${stack.origin}/home`);
    await app.waitForSelector('[data-testid="home-page"]');
    const cdp = await app.createCDPSession();
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.url).toBe(`${stack.origin}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data!)).toMatchObject({ name: 'Tandem', display: 'standalone', start_url: '/' });
    const scope = await app.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${stack.origin}/`);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installability.installabilityErrors).toEqual([]);

    // Once the worker controls the page, the screens opened are kept (their hashed files).
    await app.reload();
    await app.waitForFunction(() => !!navigator.serviceWorker.controller);
    await app.waitForSelector('[data-testid="home-page"]');
    await app.goto(`${stack.origin}/`);
    await waitForText(app, /How can I help you today/);
    await app.goto(`${stack.origin}/home`);
    await app.waitForSelector('[data-testid="home-page"]');
    // The API is never kept.
    const cached = await app.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
      return urls;
    });
    expect(cached).toContain('/app.html');
    expect(cached.filter((u) => u.startsWith('/api/') || /token/i.test(u))).toEqual([]);

    // The server goes away: the page reloads to its shell, with the notice instead of the browser's error.
    await stack.server.app.close();
    await app.reload();
    await app.waitForSelector('[data-testid="offline-notice"]');
    await app.waitForSelector('[data-testid="home-page"]');
    await app.screenshot({ path: path.join(SHOTS, 'offline-home-en-desktop.png') });
    await app.goto(`${stack.origin}/`);
    await app.waitForSelector('[data-testid="offline-notice"]');
    await waitForText(app, /How can I help you today|Tandem cannot reach its server/);
    await app.screenshot({ path: path.join(SHOTS, 'offline-chat-en-desktop.png') });
  });
});
