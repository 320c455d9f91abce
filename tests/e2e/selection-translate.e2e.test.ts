import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, launchWithExtension, readExtensionStorage, screenshot, screenshotOnFailure, startStack, useServer, waitForExtensionStorage, type ExtensionBrowser, type Stack } from './harness.ts';
import { isSidePanel, shadowPoint, waitForShadow } from './selection-helpers.ts';

/**
 * The selection card (Translate on the selection toolbar: the translation beside the selection,
 * Copy, Replace in a field, Open in side panel) and the typed-text trigger (three spaces at the end
 * of a field), in Chromium with the extension on a page served from loopback. The fake upstream
 * translates into "[<target>] <text>".
 */

const PARAGRAPH = 'Sea otters hold hands while they sleep, so that they do not drift apart.';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Otters | Field Notes</title>
<style>body { font: 17px/1.6 Georgia, serif; max-width: 680px; margin: 40px auto; } textarea, input, [contenteditable] { display: block; width: 100%; margin: 12px 0; font: inherit; }</style></head>
<body><h1>Sea otters</h1><p id="lead">${PARAGRAPH}</p>
<p id="second">They eat sea urchins, crabs and clams, and use stones as tools to open the shells.</p>
<textarea id="comment" rows="3">Otters are great</textarea>
<textarea id="note" rows="3"></textarea>
<div id="editor" contenteditable="true" style="border:1px solid #ccc;min-height:40px"></div>
<input id="secret" type="password">
</body></html>`;

function startPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((done) => server.close(() => done())) }),
    ),
  );
}

let stack: Stack;
let ext: ExtensionBrowser;
let site: { origin: string; close(): Promise<void> };
let user: TestUser;
let page: Page;
let cdp: CDPSession;

type DomNode = { nodeId: number; nodeName: string; shadowRoots?: DomNode[]; children?: DomNode[] };
const findHost = (node: DomNode): DomNode | undefined =>
  node.nodeName === 'TANDEM-SIDER' ? node : [...(node.children ?? []), ...(node.shadowRoots ?? [])].map(findHost).find(Boolean);

/** Runs `fn` on the element matching `selector` in the extension's closed shadow root (the DevTools protocol reaches it; the page cannot). */
async function onShadow<T>(selector: string, fn: string): Promise<T | null> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  const shadow = findHost(root)?.shadowRoots?.[0];
  if (!shadow) return null;
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: shadow.nodeId, selector });
  if (!nodeId) return null;
  const { object } = await cdp.send('DOM.resolveNode', { nodeId });
  const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: fn, returnByValue: true });
  return result.value as T;
}

/** Waits until the card's text area is in `state` ('done', 'error'); its text. */
async function cardText(state = 'done', timeout = 15_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await onShadow<{ state: string | null; text: string; hidden: boolean }>(
      '[data-tandem="card"] [data-role="out"]',
      'function () { return { state: this.getAttribute("data-state"), text: this.textContent, hidden: this.closest(".card").hidden }; }',
    );
    if (found && !found.hidden && found.state === state) return found.text;
    if (Date.now() > deadline) throw new Error(`the card did not reach ${state} (${JSON.stringify(found)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const cardShown = async () => !!(await shadowPoint(cdp, '[data-tandem="card"]'));

async function clickShadow(selector: string): Promise<void> {
  const point = await waitForShadow(cdp, selector);
  await page.mouse.click(point.x, point.y);
}

async function waitForValue(selector: string, expected: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction((sel, want) => (document.querySelector(sel) as HTMLTextAreaElement).value === want, { timeout }, selector, expected);
}

const setPrefs = (value: object) => ext.control.evaluate((v) => chrome.storage.local.set({ 'tandem.translate.prefs': { v: 1, value: v } }), value);

beforeAll(async () => {
  [stack, ext, site] = await Promise.all([startStack(), launchWithExtension(), startPage()]);
  await useServer(ext.control, stack.origin);
  user = await createUser(stack.server.app);
  await ext.control.evaluate((token) => chrome.storage.local.set({ 'tandem.auth.token': { v: 1, value: token } }), user.token);
  await waitForExtensionStorage(ext.control, 'tandem.selectionTools', (v) => !!v);
  await ext.browser.defaultBrowserContext().overridePermissions(site.origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  page = await ext.browser.newPage();
  await page.setViewport(DESKTOP);
  await page.goto(`${site.origin}/page`);
  await page.waitForFunction(() => !!document.querySelector('tandem-sider'));
  cdp = await page.createCDPSession();
});

afterAll(async () => {
  await ext?.close();
  await stack?.close();
  await site?.close();
});

screenshotOnFailure('selection-translate', () => [page]);

describe('Selection card: Translate on the selection toolbar', () => {
  it('shows the translation beside the selection; Copy puts it on the clipboard; Escape closes it', async () => {
    await page.click('#lead', { count: 3 });
    await clickShadow('[data-action="translate"]');
    // No side panel: the translation is shown on the page.
    expect(await cardText()).toBe(`[en] ${PARAGRAPH}`);
    expect(ext.browser.targets().some(isSidePanel)).toBe(false);
    // The translation came through the server's TransText (the fake got the segments as JSON).
    expect(JSON.stringify(stack.upstream.requests.at(-1)?.body.messages)).toContain('targetLanguage');
    await screenshot(page, 'selection-card-en');

    await clickShadow('[data-tandem="card"] [data-action="copy"]');
    await page.waitForFunction(async (want) => (await navigator.clipboard.readText()) === want, { timeout: 5_000 }, `[en] ${PARAGRAPH}`);
    // The page's selection is still there (the card took no focus).
    expect(await page.evaluate(() => window.getSelection()?.toString().trim())).toBe(PARAGRAPH);

    await page.keyboard.press('Escape');
    await page.waitForFunction(() => true);
    expect(await cardShown()).toBe(false);
  });

  it('the language can be changed in the card, and is remembered', async () => {
    await page.click('#second', { count: 3 });
    await clickShadow('[data-action="translate"]');
    await cardText();
    // A native select's list cannot be driven headless: its value is set and its change sent, as a pick does.
    await onShadow('[data-tandem="card"] select', 'function () { this.value = "fr"; this.dispatchEvent(new Event("change", { bubbles: true })); }');
    expect(await cardText()).toMatch(/^\[fr\] They eat sea urchins/);
    await expect.poll(async () => ((await readExtensionStorage(ext.control, 'tandem.translate.prefs')) as { value?: { targetLanguage?: string } })?.value?.targetLanguage).toBe('fr');
    // A click elsewhere closes the card.
    await page.mouse.click(5, 5);
    expect(await cardShown()).toBe(false);
    await setPrefs({ targetLanguage: null });
  });

  it('in a textarea, Replace puts the translation in place of the selection, and Ctrl+Z brings the original back', async () => {
    await page.click('#comment');
    await page.keyboard.down('Control');
    await page.keyboard.press('a');
    await page.keyboard.up('Control');
    // In a field the toolbar offers Translate only.
    await waitForShadow(cdp, '[data-action="translate"]');
    expect(await shadowPoint(cdp, '.bar [data-action="ask"]')).toBeNull();
    await clickShadow('[data-action="translate"]');
    expect(await cardText()).toBe('[en] Otters are great');
    await clickShadow('[data-tandem="card"] [data-action="replace"]');
    await waitForValue('#comment', '[en] Otters are great');
    expect(await cardShown()).toBe(false);
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    await waitForValue('#comment', 'Otters are great');
  });

  it('"Open in side panel" opens the chat with the selection', async () => {
    await page.click('#lead', { count: 3 });
    await clickShadow('[data-action="translate"]');
    await cardText();
    await clickShadow('[data-tandem="card"] [data-action="panel"]');
    const target = await ext.browser.waitForTarget(isSidePanel, { timeout: 10_000 });
    const panel = (await target.asPage()) as Page;
    await panel.waitForSelector('[data-testid="selection-chip"] ::-p-text(hold hands while they sleep)', { timeout: 15_000 });
    expect(await cardShown()).toBe(false);
    await panel.close();
  });

  it('signed out, the card asks to sign in; its button opens the side panel', async () => {
    await ext.control.evaluate(() => chrome.storage.local.remove('tandem.auth.token'));
    await page.bringToFront();
    await page.click('#second', { count: 3 });
    await clickShadow('[data-action="translate"]');
    expect(await cardText('error')).toBe('Sign in to Tandem to translate.Sign in');
    await clickShadow('[data-tandem="card"] [data-action="signIn"]');
    const target = await ext.browser.waitForTarget(isSidePanel, { timeout: 10_000 });
    await ((await target.asPage()) as Page).close();
    await ext.control.evaluate((token) => chrome.storage.local.set({ 'tandem.auth.token': { v: 1, value: token } }), user.token);
  });

  it('in Chinese, the card speaks Chinese and translates into Simplified Chinese by default', async () => {
    await ext.control.evaluate(() => chrome.storage.local.set({ 'tandem.language': { v: 1, value: 'zh' } }));
    await waitForExtensionStorage(ext.control, 'tandem.selectionTools', (v) => (v as { value?: { language?: string } })?.value?.language === 'zh');
    await page.bringToFront();
    await page.click('#lead', { count: 3 });
    await clickShadow('[data-action="translate"]');
    expect(await cardText()).toBe(`[zh-Hans] ${PARAGRAPH}`);
    expect(await onShadow<string>('[data-tandem="card"] [data-action="panel"]', 'function () { return this.textContent; }')).toBe('在侧边栏中打开');
    await screenshot(page, 'selection-card-zh');
    await page.keyboard.press('Escape');
    await ext.control.evaluate(() => chrome.storage.local.set({ 'tandem.language': { v: 1, value: 'en' } }));
    await waitForExtensionStorage(ext.control, 'tandem.selectionTools', (v) => (v as { value?: { language?: string } })?.value?.language === 'en');
  });
});

describe('Typed-text trigger: three spaces translate what was typed', () => {
  it('off by default: three spaces are only spaces', async () => {
    const before = stack.upstream.requests.length;
    await page.click('#note');
    await page.keyboard.type('Good morning   ');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await page.$eval('#note', (t) => (t as HTMLTextAreaElement).value)).toBe('Good morning   ');
    expect(stack.upstream.requests.length).toBe(before);
    await page.$eval('#note', (t) => ((t as HTMLTextAreaElement).value = ''));
  });

  it('on: the textarea\'s text is replaced by its translation; Ctrl+Z brings back what was typed before the trigger', async () => {
    await setPrefs({ typedTrigger: 'triple-space', typedLanguage: 'fr' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await page.click('#note');
    await page.keyboard.type('See you tomorrow   ');
    await waitForValue('#note', '[fr] See you tomorrow');
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    // Exactly what the user had before the three spaces: not the spaces that set the trigger off.
    await waitForValue('#note', 'See you tomorrow');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await page.$eval('#note', (t) => (t as HTMLTextAreaElement).value)).toBe('See you tomorrow');
  });

  it('on: in a contenteditable editor too', async () => {
    await page.click('#editor');
    await page.keyboard.type('Thank you   ');
    await page.waitForFunction(() => document.querySelector('#editor')!.textContent === '[fr] Thank you', { timeout: 15_000 });
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('#editor')!.textContent === 'Thank you', { timeout: 5_000 });
  });

  it('password fields are never sent', async () => {
    const before = stack.upstream.requests.length;
    await page.click('#secret');
    await page.keyboard.type('my secret words   ');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await page.$eval('#secret', (t) => (t as HTMLInputElement).value)).toBe('my secret words   ');
    expect(stack.upstream.requests.length).toBe(before);
  });
});
