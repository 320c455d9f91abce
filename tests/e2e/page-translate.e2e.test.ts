import { mkdirSync } from 'node:fs';
import type { CDPSession, Page, WebWorker } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { startPagesSite } from '../fixtures/pages/pages.ts';
import { DESKTOP, readExtensionStorage, screenshot, screenshotOnFailure, startStackWithExtension, waitForExtensionStorage, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';
import { serviceWorker, shadowEval, shadowPoint, waitForShadow } from './selection-helpers.ts';

/**
 * The page translator in Chromium with the real extension, on pages served from loopback, against the
 * real server (POST /api/System/TransText) and its fake model, which answers "[target] segment".
 */
let stack: Stack;
let ext: ExtensionBrowser;
let site: { origin: string; close(): Promise<void> };
let panel: Page;
let worker: WebWorker;
let tab: Page | undefined;
let user: TestUser;

/** Pictures of the floating handle and of the price bar, looked at by hand. */
const SHOTS = '/tmp/shots-page-ux';
const BAR = 'TANDEM-TRANSLATE-BAR';
/** The translation preferences with the price asked first or not, shown in place or under each paragraph. */
const prefs = (askFirst: boolean, display: 'bilingual' | 'replace' = 'bilingual', alwaysSites: string[] = []) => ({
  targetLanguage: null, display, askFirst, alwaysSites, neverSites: [], typedTrigger: 'off', typedLanguage: 'en',
});

/** The points the user has spent (the ledger's main entry). */
async function pointsUsed(): Promise<number> {
  const body = await api(stack.server.app, user).getBody<{ integralType: number; useIntegral: number }[]>('/api/User/GetUserIntegralByLogin');
  return body.Data.find((entry) => entry.integralType === 1)?.useIntegral ?? 0;
}

/** The in-page bar's words (its closed shadow root, through the DevTools protocol). */
const barText = (cdp: CDPSession) => shadowEval<string>(cdp, '.status', 'function () { return this.textContent; }', BAR);

/** Waits until the bar's words match `pattern`. */
async function barSays(cdp: CDPSession, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pattern.test((await barText(cdp)) ?? '')) {
    if (Date.now() > deadline) throw new Error(`the bar said: ${await barText(cdp)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The segments the fake model was asked to translate, all requests together. */
function segmentsAsked(): string[] {
  const segments: string[] = [];
  for (const request of stack.upstream.requests) {
    const content = (request.body.messages as { role: string; content: unknown }[] | undefined)?.at(-1)?.content;
    if (typeof content !== 'string') continue;
    try {
      const parsed = JSON.parse(content) as { segments?: string[] };
      if (Array.isArray(parsed.segments)) segments.push(...parsed.segments);
    } catch {
      // Not a translation request.
    }
  }
  return segments;
}

let opened = 0;
async function openTab(path: string): Promise<Page> {
  const page = await ext.browser.newPage({ type: 'window' });
  await page.setViewport(DESKTOP);
  // A query of its own, so the tab is found by its address alone.
  opened += 1;
  await page.goto(`${site.origin}${path}?n=${opened}`);
  await page.bringToFront();
  return page;
}

/** The trigger the keyboard shortcut and context menu use, through the service worker (a shortcut cannot be pressed headless). */
async function toggle(page: Page): Promise<string> {
  const url = page.url();
  return worker.evaluate(async (u) => {
    const [found] = await chrome.tabs.query({ url: u });
    return (globalThis as unknown as { tandemPageTranslate: { translateTab(id: number): Promise<string> } }).tandemPageTranslate.translateTab(found!.id!);
  }, url);
}

/** The translation under the paragraph `selector`, once there; else an error with what the page's bar says. */
async function translationOf(page: Page, selector: string): Promise<string> {
  try {
    const handle = await page.waitForFunction((s) => document.querySelector(`${s} > tandem-translation`)?.textContent ?? '', { timeout: 15_000 }, selector);
    return (await handle.jsonValue()) as string;
  } catch (error) {
    throw new Error(`${selector} was not translated; the bar said: ${await barText(await page.createCDPSession())}`, { cause: error });
  }
}

async function setStorage(key: string, value: unknown): Promise<void> {
  await ext.control.evaluate((k, v) => chrome.storage.local.set({ [k]: { v: 1, value: v } }), key, value);
}

beforeAll(async () => {
  [{ stack, ext }, site] = await Promise.all([startStackWithExtension(), startPagesSite()]);
  user = await createUser(stack.server.app);
  mkdirSync(SHOTS, { recursive: true });
  await ext.control.evaluate((token) => chrome.storage.local.set({ 'tandem.auth.token': { v: 1, value: token } }), user.token);
  worker = await serviceWorker(ext.browser);
  panel = await ext.browser.newPage();
  await panel.setViewport({ width: 400, height: 800 });
  await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
  await waitForText(panel, /Ask a question, paste some text/);
});

screenshotOnFailure('page-translate', () => [tab, panel]);

afterAll(async () => {
  await ext?.close();
  await stack?.close();
  await site?.close();
});

describe('Translating a whole page in the user’s tab', () => {
  it('shows the price of what is on screen first, translates nothing and charges nothing before Translate, then translates near the viewport and restores the page exactly', async () => {
    tab = await openTab('/article');
    const cdp = await tab.createCDPSession();
    const before = await tab.evaluate(() => document.body.innerHTML);
    const asked = segmentsAsked().length;
    const used = await pointsUsed();
    const button = await panel.waitForSelector('[data-testid="translate-page"]', { timeout: 15_000 });
    await button!.click();

    // The bar asks, with the estimate's price (POST TransText with estimate: true, which translates and charges nothing).
    await barSays(cdp, /≈ \d+ points for what is on screen/);
    const go = await waitForShadow(cdp, '[data-action="translate"]', 15_000, BAR);
    expect(await barText(cdp)).toMatch(/^Translate this page\?≈ [1-9]\d* points for what is on screen$/);
    expect(await shadowPoint(cdp, '[data-action="original"]', BAR)).toBeNull();
    await tab.screenshot({ path: `${SHOTS}/price-bar-en.png`, clip: { x: 760, y: 0, width: 520, height: 160 }, captureBeyondViewport: false });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(segmentsAsked().length).toBe(asked);
    expect(await tab.$('tandem-translation')).toBeNull();
    expect(await pointsUsed()).toBe(used);

    await tab.mouse.click(go.x, go.y);
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\. Researchers who study kelp forests/);
    // The link is rebuilt around the translated words and keeps its address.
    expect(await tab.$eval('#p0 > tandem-translation a', (a) => a.getAttribute('href'))).toBe('https://example.org/notes/0');
    expect(await tab.$eval('#p0 > tandem-translation em', (e) => e.textContent)).toBe('especially');
    await panel.waitForSelector('[data-testid="translate-page"] ::-p-text(Show original)');
    await screenshot(tab, 'page-translate-bilingual-en');
    // The bar now tells what the translation has cost so far; the ledger says the same.
    await barSays(cdp, /\d+ points spent so far/);
    await tab.screenshot({ path: `${SHOTS}/price-bar-spent-en.png`, clip: { x: 760, y: 0, width: 520, height: 160 }, captureBeyondViewport: false });

    // Only the paragraphs near the viewport were asked for: 60 are on the page, a screen and a half shows far fewer.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const first = segmentsAsked().length;
    expect(first).toBeGreaterThan(3);
    expect(first).toBeLessThan(40);
    expect(await tab.$('#p59 > tandem-translation')).toBeNull();

    // Scrolled to the end, the rest comes.
    await tab.evaluate(() => document.getElementById('p59')!.scrollIntoView());
    expect(await translationOf(tab, '#p59')).toMatch(/^\[en\] Paragraph 60\./);
    expect(segmentsAsked().length).toBeGreaterThan(first);

    // A second click shows the original: the body is exactly what it was.
    await (await panel.waitForSelector('[data-testid="translate-page"]'))!.click();
    await panel.waitForSelector('[data-testid="translate-page"] ::-p-text(Translate page)');
    expect(await tab.evaluate(() => document.body.innerHTML)).toBe(before);
    expect(await tab.$('tandem-translate-bar')).toBeNull();
    expect(await pointsUsed()).toBeGreaterThan(used);
    await tab.close();
  });

  it('"Don’t ask again" translates at once from then on', async () => {
    tab = await openTab('/article');
    const cdp = await tab.createCDPSession();
    expect(await toggle(tab)).toBe('translated');
    await barSays(cdp, /≈ \d+ points for what is on screen/);
    const box = await waitForShadow(cdp, '[data-action="dontAsk"]', 15_000, BAR);
    await tab.mouse.click(box.x, box.y);
    const go = await waitForShadow(cdp, '[data-action="translate"]', 15_000, BAR);
    await tab.mouse.click(go.x, go.y);
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    await waitForExtensionStorage(ext.control, 'tandem.translate.prefs', (v) => (v as { value?: { askFirst?: boolean } })?.value?.askFirst === false);
    expect(await toggle(tab)).toBe('original');
    // Asked again: no question, the page is translated at once.
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    expect(await shadowPoint(cdp, '[data-action="translate"]', BAR)).toBeNull();
    await tab.close();
  });

  it('skips code, fields and formulas on a docs page, and picks up what a single-page app adds later', async () => {
    tab = await openTab('/docs');
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#cell')).toBe('[en] Where the translation is shown');
    expect(await tab.$eval('#intro > tandem-translation code', (c) => c.textContent)).toBe('npm install tandem');
    expect(await tab.$('#code tandem-translation')).toBeNull();
    expect(await tab.$('form tandem-translation')).toBeNull();
    expect(await tab.$('#brand tandem-translation')).toBeNull();
    expect(segmentsAsked().some((s) => s.includes('console.log'))).toBe(false);
    await tab.close();

    tab = await openTab('/spa');
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#first')).toBe('[en] The first post was in the page from the start.');
    await tab.evaluate(() => (window as unknown as { addPost(text: string): void }).addPost('A post loaded after the translation started.'));
    expect(await translationOf(tab, '.late')).toBe('[en] A post loaded after the translation started.');
    await tab.close();
  });

  it('translates into Chinese when the app is in Chinese', async () => {
    await setStorage('tandem.language', 'zh');
    tab = await openTab('/article');
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#p1')).toMatch(/^\[zh-Hans\] Paragraph 2\./);
    await screenshot(tab, 'page-translate-bilingual-zh');
    expect(await toggle(tab)).toBe('original');
    await tab.close();

    await setStorage('tandem.language', 'en');
  });

  it('writes an English translation left to right under a right-to-left page', async () => {
    await setStorage('tandem.language', 'en');
    await setStorage('tandem.translate.prefs', prefs(false));
    tab = await openTab('/rtl');
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#p1')).toMatch(/^\[en\] /);
    expect(await tab.$eval('#p1 > tandem-translation', (t) => t.getAttribute('dir'))).toBe('ltr');
    await screenshot(tab, 'page-translate-rtl');
    await tab.close();
  });

  it('translates a site always translated as soon as a page of it opens', async () => {
    const host = new URL(site.origin).host;
    // Asking first is on: a site on the list starts at once all the same (the user chose it).
    await setStorage('tandem.translate.prefs', prefs(true, 'bilingual', [host]));
    tab = await openTab('/article');
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    await tab.reload();
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    await setStorage('tandem.translate.prefs', prefs(false));
    await tab.close();
  });

  it('replace mode puts each translation in its paragraph’s place, and "Show original" restores the body exactly', async () => {
    await setStorage('tandem.translate.prefs', prefs(false, 'replace'));
    tab = await openTab('/article');
    const before = await tab.evaluate(() => document.body.innerHTML);
    expect(await toggle(tab)).toBe('translated');
    // Replace mode makes no <tandem-translation>: the paragraph is hidden and a marked copy holding the translation follows it.
    const replaced = await tab.waitForFunction(
      () => {
        const original = document.getElementById('p0')!;
        const copy = original.nextElementSibling;
        return copy?.hasAttribute('data-tandem-translation') && getComputedStyle(original).display === 'none' ? copy.textContent : '';
      },
      { timeout: 15_000 },
    );
    expect(await replaced.jsonValue()).toMatch(/^\[en\] Paragraph 1\. Researchers/);
    expect(await tab.$('tandem-translation')).toBeNull();
    await screenshot(tab, 'page-translate-replace-en');
    expect(await toggle(tab)).toBe('original');
    expect(await tab.evaluate(() => document.body.innerHTML)).toBe(before);
    await setStorage('tandem.translate.prefs', prefs(false));
    await tab.close();
  });

  it('the floating handle on the page’s edge opens "Translate page" on hover, and hiding it on this site lasts across a reload', async () => {
    tab = await openTab('/article');
    const cdp = await tab.createCDPSession();
    const handle = await waitForShadow(cdp, '[data-tandem="icon"]', 15_000);
    // At rest it shows a narrow, half-transparent tab at the right edge.
    const rest = await shadowEval<{ width: number; opacity: string }>(cdp, '[data-tandem="icon"]', 'function () { const r = this.getBoundingClientRect(); return { width: Math.round(document.documentElement.clientWidth - r.left), opacity: getComputedStyle(this).opacity }; }');
    expect(rest!.width).toBeLessThanOrEqual(26);
    expect(Number(rest!.opacity)).toBeLessThan(1);
    await tab.screenshot({ path: `${SHOTS}/handle-rest-en.png`, clip: { x: 1000, y: Math.max(0, handle.y - 120), width: 280, height: 240 }, captureBeyondViewport: false });
    await tab.mouse.move(handle.x, handle.y);
    const translate = await waitForShadow(cdp, '[data-action="translatePage"]');
    expect(await shadowEval<string>(cdp, '[data-action="translatePage"]', 'function () { return this.textContent; }')).toBe('Translate page');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await tab.screenshot({ path: `${SHOTS}/handle-hover-en.png`, clip: { x: 1000, y: Math.max(0, handle.y - 120), width: 280, height: 240 }, captureBeyondViewport: false });
    await tab.mouse.click(translate.x, translate.y);
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);

    // Its ×: hide on this site, kept after a reload.
    const moved = await waitForShadow(cdp, '[data-tandem="icon"]');
    await tab.mouse.move(moved.x, moved.y);
    const close = await waitForShadow(cdp, '[data-action="iconMenu"]');
    await tab.mouse.click(close.x, close.y);
    const hide = await waitForShadow(cdp, '[data-action="iconOffSite"]');
    await tab.screenshot({ path: `${SHOTS}/handle-menu-en.png`, clip: { x: 900, y: Math.max(0, moved.y - 120), width: 380, height: 260 }, captureBeyondViewport: false });
    await tab.mouse.click(hide.x, hide.y);
    const host = new URL(site.origin).host;
    await waitForExtensionStorage(ext.control, 'tandem.siderSettings', (v) => !!(v as { value?: { iconOffSites?: string[] } })?.value?.iconOffSites?.includes(host));
    await tab.reload();
    await tab.waitForSelector('#p0');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const reloaded = await tab.createCDPSession();
    expect(await shadowPoint(reloaded, '[data-tandem="icon"]')).toBeNull();
    // Other sites still have it.
    const settings = (await readExtensionStorage(ext.control, 'tandem.siderSettings')) as { value: { floatingIcon: boolean } };
    expect(settings.value.floatingIcon).toBe(true);
    await ext.control.evaluate(() => chrome.storage.local.remove('tandem.siderSettings'));
    await tab.close();
  });

  it('asks to sign in when no one is signed in', async () => {
    await ext.control.evaluate(() => chrome.storage.local.remove('tandem.auth.token'));
    tab = await openTab('/docs');
    const asked = segmentsAsked().length;
    expect(await toggle(tab)).toBe('translated');
    await tab.waitForSelector('tandem-translate-bar');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await tab.$('tandem-translation')).toBeNull();
    expect(segmentsAsked().length).toBe(asked);
    await tab.close();
  });
});
