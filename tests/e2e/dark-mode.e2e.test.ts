import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChatStream } from '../helpers/chat.ts';
import { auth, createAdmin, createUser } from '../helpers/users.ts';
import { type ExtensionBrowser, launchWithExtension, openSidePanel, openWebApp, PHONE, screenshot, screenshotOnFailure, signInExtension, type Stack, startStack, useServer, waitForText } from './harness.ts';

/** An answer with what the app colours itself: a table, a quote, inline and highlighted code, a link. */
const ANSWER = [
  'Tides follow the **moon**. See [NOAA](https://tidesandcurrents.noaa.gov/) and `tide tables`.',
  '',
  '> High water comes about twice a day.',
  '',
  '| place | range |',
  '|---|---|',
  '| Bay of Fundy | 16 m |',
  '',
  '```ts',
  'const next = (hours: number) => hours + 12.42; // the lunar half-day',
  '```',
].join('\n');

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violation = { id: string; nodes: { target: string[]; failureSummary?: string }[] };

/**
 * The text of `page` against its background, by axe-core's color-contrast rule (WCAG AA: 4.5:1,
 * 3:1 for large text). Evaluated through the DevTools protocol, so an extension page's CSP allows it.
 */
async function contrastProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe.run(document, {
      runOnly: ['color-contrast'],
    });
    return result.violations;
  })) as Violation[];
  return violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? v.id}`));
}

const scheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));

/**
 * The colour schemes, in Chromium: the light scheme's chat, Settings, login and share pages pass the
 * contrast check; dark is chosen in the web app's Settings and kept; the side panel, the login page
 * and a share page follow a dark system. Each screen's text passes the contrast check in the dark
 * scheme, and pictures of each are saved (English and Chinese, desktop and phone).
 */
describe('Colour schemes', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let web: Page;
  /** The user's chat, and the address of its share page. */
  let chat = { chatSessionId: '', sharePath: '' };

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    await useServer(ext.control, stack.origin);
    for (const model of ['basic-model', 'standard-model', 'pro-model']) stack.upstream.script(model, { chunks: [ANSWER.slice(0, 40), ANSWER.slice(40)] });
    const user = await createUser(stack.server.app, { userName: 'Night Owl' });
    const res = await stack.server.app.inject({ method: 'POST', url: '/api/Chat/AddMessage', headers: auth(user.token), payload: { aiModelId: 'basic-model', inputMessage: 'Why are there tides?' } });
    const chatSessionId = parseChatStream(res.body)[0]!.Data.ChatSessionId;
    const share = await stack.server.app.inject({ method: 'POST', url: '/api/Chat/ShareSession', headers: auth(user.token), payload: { chatSessionId } });
    chat = { chatSessionId, sharePath: share.json().Data.path };
    await signInExtension(ext.control, user.token);
    // Its browser context closes with the browser.
    ({ web } = await openWebApp(ext, stack.origin, user.token));
  });

  screenshotOnFailure('dark-mode', () => [web]);

  afterAll(async () => {
    await ext?.close();
    await stack?.close();
  });

  it('reads well in the light scheme too: the chat, Settings, the login page and a share page', async () => {
    await web.goto(`${stack.origin}/${chat.chatSessionId}`);
    await waitForText(web, /Bay of Fundy/);
    await web.waitForSelector('.md-code .shiki');
    expect(await scheme(web)).toBe('light');
    expect(await contrastProblems(web)).toEqual([]);
    await screenshot(web, 'light-chat-desktop');
    const visitor = await ext.browser.createBrowserContext();
    try {
      const page = await visitor.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(`${stack.origin}/login`);
      await page.waitForSelector('input[type="email"], input[name="email"]');
      expect(await contrastProblems(page)).toEqual([]);
      await page.goto(`${stack.origin}${chat.sharePath}`);
      await page.waitForSelector('.md-code .shiki');
      expect(await contrastProblems(page)).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it('is chosen in the web app’s Settings, applies at once and is kept for the next start', async () => {
    await web.goto(`${stack.origin}/setting`);
    await web.waitForSelector('::-p-aria(Appearance)');
    expect(await scheme(web)).toBe('light');
    expect(await contrastProblems(web)).toEqual([]);
    await web.locator('::-p-text(Dark)').click();
    await web.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark');
    const background = await web.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    expect(await contrastProblems(web)).toEqual([]);
    await screenshot(web, 'dark-settings-desktop');

    // The next start is dark from its first screen: the first scheme the app sets is the kept one.
    await web.goto(`${stack.origin}/`);
    await web.waitForSelector('html[data-mantine-color-scheme]');
    expect(await scheme(web)).toBe('dark');
    await web.locator('::-p-text(Why are there tides?)').click();
    await waitForText(web, /Bay of Fundy/);
    await web.waitForSelector('.md-code .shiki');
    expect(await contrastProblems(web)).toEqual([]);
    await screenshot(web, 'dark-chat-desktop');
  });

  it('reads well on a phone and in Chinese', async () => {
    await web.setViewport(PHONE);
    await web.evaluate(() => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: 'zh' })));
    await web.goto(`${stack.origin}/${chat.chatSessionId}`);
    await waitForText(web, /Bay of Fundy/);
    await web.waitForSelector('.md-code .shiki');
    expect(await scheme(web)).toBe('dark');
    expect(await contrastProblems(web)).toEqual([]);
    await screenshot(web, 'dark-chat-phone-zh');
  });

  it('the popup and the console read well in both schemes', async () => {
    const popup = await ext.browser.newPage();
    try {
      await popup.setViewport({ width: 340, height: 400 });
      await popup.goto(`chrome-extension://${ext.extensionId}/popup.html`);
      await popup.waitForSelector('[data-testid="popup-user-name"]');
      await waitForText(popup, /points/);
      expect(await contrastProblems(popup)).toEqual([]);
      await popup.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await popup.reload();
      await popup.waitForSelector('[data-testid="popup-user-name"]');
      await waitForText(popup, /points/);
      expect(await scheme(popup)).toBe('dark');
      expect(await contrastProblems(popup)).toEqual([]);
      await screenshot(popup, 'dark-popup');
    } finally {
      await popup.close();
    }

    const admin = await createAdmin(stack.server.app);
    const operator = await ext.browser.createBrowserContext();
    try {
      const page = await operator.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(`${stack.origin}/login`);
      await page.evaluate((t) => localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: t })), admin.token);
      for (const dark of [false, true]) {
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }]);
        await page.goto(`${stack.origin}/admin`);
        await page.waitForSelector('[data-testid="dashboard-figures"]', { timeout: 20_000 });
        expect(await scheme(page)).toBe(dark ? 'dark' : 'light');
        expect(await contrastProblems(page)).toEqual([]);
      }
      await screenshot(page, 'dark-console');
    } finally {
      await operator.close();
    }
  });

  it('follows a dark system in the side panel, on the login page and on a share page', async () => {
    const panel = await openSidePanel(ext);
    await panel.waitForSelector('textarea');
    await waitForText(panel, /\bAuto\b/);
    expect(await scheme(panel)).toBe('light');
    expect(await contrastProblems(panel)).toEqual([]);
    await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await panel.reload();
    await panel.waitForSelector('textarea');
    // Signed in against the test server: its model list has come.
    await waitForText(panel, /\bAuto\b/);
    expect(await scheme(panel)).toBe('dark');
    expect(await contrastProblems(panel)).toEqual([]);
    await screenshot(panel, 'dark-side-panel');
    await panel.close();

    const visitor = await ext.browser.createBrowserContext();
    try {
      const page = await visitor.newPage();
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(`${stack.origin}/login`);
      await page.waitForSelector('input[type="email"], input[name="email"]');
      expect(await scheme(page)).toBe('dark');
      expect(await contrastProblems(page)).toEqual([]);
      await screenshot(page, 'dark-login-page');

      await page.goto(`${stack.origin}${chat.sharePath}`);
      await page.waitForSelector('.md-view table');
      await page.waitForSelector('.md-code .shiki');
      expect(await scheme(page)).toBe('dark');
      expect(await contrastProblems(page)).toEqual([]);
      await screenshot(page, 'dark-share-page');
    } finally {
      await visitor.close();
    }
  });
});
