import type { Page, WebWorker } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/users.ts';
import { startPagesSite } from '../fixtures/pages/pages.ts';
import { DESKTOP, screenshot, screenshotOnFailure, startStackWithExtension, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';
import { serviceWorker } from './selection-helpers.ts';

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

const translationOf = (page: Page, selector: string) =>
  page.waitForFunction((s) => document.querySelector(`${s} > tandem-translation`)?.textContent ?? '', { timeout: 15_000 }, selector).then((h) => h.jsonValue() as Promise<string>);

async function setStorage(key: string, value: unknown): Promise<void> {
  await ext.control.evaluate((k, v) => chrome.storage.local.set({ [k]: { v: 1, value: v } }), key, value);
}

beforeAll(async () => {
  [{ stack, ext }, site] = await Promise.all([startStackWithExtension(), startPagesSite()]);
  const user = await createUser(stack.server.app);
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
  it('translates from the side panel what is near the viewport, then what is scrolled to, and "Show original" restores the page exactly', async () => {
    tab = await openTab('/article');
    const before = await tab.evaluate(() => document.body.innerHTML);
    const button = await panel.waitForSelector('[data-testid="translate-page"]', { timeout: 15_000 });
    await button!.click();

    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\. Researchers who study kelp forests/);
    // The link is rebuilt around the translated words and keeps its address.
    expect(await tab.$eval('#p0 > tandem-translation a', (a) => a.getAttribute('href'))).toBe('https://example.org/notes/0');
    expect(await tab.$eval('#p0 > tandem-translation em', (e) => e.textContent)).toBe('especially');
    await panel.waitForSelector('[data-testid="translate-page"] ::-p-text(Show original)');
    await screenshot(tab, 'page-translate-bilingual-en');

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
    await setStorage('tandem.translate.prefs', { targetLanguage: null, display: 'bilingual', alwaysSites: [], neverSites: [], typedTrigger: 'off', typedLanguage: 'en' });
    tab = await openTab('/rtl');
    expect(await toggle(tab)).toBe('translated');
    expect(await translationOf(tab, '#p1')).toMatch(/^\[en\] /);
    expect(await tab.$eval('#p1 > tandem-translation', (t) => t.getAttribute('dir'))).toBe('ltr');
    await screenshot(tab, 'page-translate-rtl');
    await tab.close();
  });

  it('translates a site always translated as soon as a page of it opens', async () => {
    const host = new URL(site.origin).host;
    await setStorage('tandem.translate.prefs', { targetLanguage: null, display: 'bilingual', alwaysSites: [host], neverSites: [], typedTrigger: 'off', typedLanguage: 'en' });
    tab = await openTab('/article');
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    await tab.reload();
    expect(await translationOf(tab, '#p0')).toMatch(/^\[en\] Paragraph 1\./);
    await setStorage('tandem.translate.prefs', { targetLanguage: null, display: 'bilingual', alwaysSites: [], neverSites: [], typedTrigger: 'off', typedLanguage: 'en' });
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
