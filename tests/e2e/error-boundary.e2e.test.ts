import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, type ExtensionBrowser, PHONE, screenshot, settled, signInExtension, type Stack, startStackWithExtension, waitForText } from './harness.ts';

/**
 * A screen whose chunk does not arrive (a deploy replaced the chunks while the page was open, a
 * flaky network) in Chromium against the real build: the web app reloads itself once, then shows
 * Reload instead of a blank page, and Reload brings the screen once the chunk is there again. A
 * chunk whose code throws shows what failed with Retry and Copy report. Pictures of both states, en
 * and zh, at 1280 and 390 px and in the side panel (400 px), go to /tmp/shots-boundary/.
 */
const SHOTS = '/tmp/shots-boundary';
/** The settings page's own chunk (components/settings/settings-page.tsx), fetched when /setting opens. */
const SETTINGS_CHUNK = /\/chunks\/settings-page-[\w-]+\.js$/;

type Failure = 'none' | 'abort' | 'throw';

describe('a screen that fails to load or render', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let user: TestUser;
  let failure: Failure = 'none';
  let settingsLoads = 0;
  const pages: Page[] = [];

  /** What the settings chunk's request meets: the network failing it, code that throws, or the chunk. */
  function interceptSettingsChunk(request: HTTPRequest) {
    if (request.isInterceptResolutionHandled()) return;
    if (request.isNavigationRequest() && /\/setting$|#\/setting$/.test(request.url())) settingsLoads++;
    if (!SETTINGS_CHUNK.test(request.url()) || failure === 'none') return void request.continue();
    if (failure === 'abort') return void request.abort('failed');
    void request.respond({ status: 200, contentType: 'text/javascript', body: 'throw new Error("The settings could not start");' });
  }

  async function open(url: string, viewport: typeof DESKTOP | typeof PHONE | { width: number; height: number }): Promise<Page> {
    const page = await ext.browser.newPage();
    pages.push(page);
    await page.setViewport(viewport);
    // The web app's service worker must not answer the chunk from its cache instead of the network.
    await page.setBypassServiceWorker(true);
    // Nor the renderer's memory cache (the side panels share one process) from an earlier page.
    await page.setCacheEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', interceptSettingsChunk);
    await page.goto(url);
    return page;
  }

  async function setLanguage(lang: 'en' | 'zh') {
    await ext.control.evaluate((value) => chrome.storage.local.set({ 'tandem.language': { v: 1, value } }), lang);
    const page = await ext.browser.newPage();
    await page.goto(`${stack.origin}/api/health`);
    await page.evaluate(
      (value, token) => {
        localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value }));
        localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: token }));
      },
      lang,
      user.token,
    );
    await page.close();
  }

  /** waitForText, again when the page's own reload replaced the document it was reading. */
  async function waitThroughReload(page: Page, text: RegExp) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await waitForText(page, text);
      } catch (error) {
        if (attempt > 2 || !/Execution context was destroyed|detached/i.test(String(error))) throw error;
      }
    }
  }

  async function shoot(page: Page, name: string) {
    mkdirSync(SHOTS, { recursive: true });
    await settled(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  }

  beforeAll(async () => {
    ({ stack, ext } = await startStackWithExtension());
    user = await createUser(stack.server.app, { userName: 'Ruth' });
    await signInExtension(ext.control, user.token);
  });
  afterEach(async ({ task }) => {
    const page = pages.at(-1);
    if (task.result?.state === 'fail' && page && !page.isClosed()) await screenshot(page, `failed-boundary-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    for (const p of pages.splice(0)) if (!p.isClosed()) await p.close();
    failure = 'none';
  });
  afterAll(async () => {
    await ext?.close();
    await stack?.close();
  });

  it('a blocked chunk: the web app reloads once, then offers Reload, which brings the page back', async () => {
    await setLanguage('en');
    failure = 'abort';
    settingsLoads = 0;
    const page = await open(`${stack.origin}/setting`, DESKTOP);
    // The page reloads itself after the first failure: read it once the second load is under way.
    await vi.waitUntil(() => settingsLoads === 2, { timeout: 15_000, interval: 50 });
    await waitThroughReload(page, /This part of Tandem could not load/);
    expect(await page.$$eval('button', (buttons) => buttons.map((b) => b.textContent))).toContain('Reload');
    // It reloaded itself once after the first failure, and not again (the marker in sessionStorage).
    expect(settingsLoads).toBe(2);
    expect(await page.evaluate(() => sessionStorage.getItem('tandem.chunkReloadAt'))).toMatch(/^\d+$/);
    await shoot(page, 'chunk-web-1280-en');

    // The chunk is back (the network recovered, or the new deploy is served): Reload shows the page.
    failure = 'none';
    const reload = await page.$$('button').then(async (buttons) => {
      for (const b of buttons) if ((await b.evaluate((el) => el.textContent)) === 'Reload') return b;
      throw new Error('no Reload button');
    });
    await Promise.all([page.waitForNavigation(), reload.click()]);
    await waitForText(page, /Back to chat/);
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/could not load/);
  });

  it('shows the same way out on a phone and in Chinese', async () => {
    for (const [lang, text] of [
      ['en', /This part of Tandem could not load/],
      ['zh', /这部分内容没能加载/],
    ] as const) {
      await setLanguage(lang);
      failure = 'abort';
      const page = await open(`${stack.origin}/setting`, PHONE);
      await waitThroughReload(page, text);
      await shoot(page, `chunk-web-390-${lang}`);
      if (lang === 'zh') {
        await page.setViewport(DESKTOP);
        await shoot(page, 'chunk-web-1280-zh');
      }
    }
  });

  it('a chunk whose code throws shows what failed, with Retry and Copy report', async () => {
    for (const [lang, title, details] of [
      ['en', /Something went wrong on this screen/, /Details: The settings could not start/],
      ['zh', /这个页面出错了/, /详情：The settings could not start/],
    ] as const) {
      await setLanguage(lang);
      failure = 'throw';
      const page = await open(`${stack.origin}/setting`, DESKTOP);
      await waitForText(page, title);
      await waitForText(page, details);
      expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/at \w+ \(|\.js:\d+/);
      await shoot(page, `render-web-1280-${lang}`);
      await page.setViewport(PHONE);
      await shoot(page, `render-web-390-${lang}`);
    }
  });

  it('the side panel shows both states at its width', async () => {
    for (const lang of ['en', 'zh'] as const) {
      await setLanguage(lang);
      failure = 'abort';
      const panel = await open(`chrome-extension://${ext.extensionId}/sidepanel.html#/setting`, { width: 400, height: 800 });
      await waitThroughReload(panel, lang === 'en' ? /This part of Tandem could not load/ : /这部分内容没能加载/);
      await shoot(panel, `chunk-sidepanel-400-${lang}`);
      failure = 'throw';
      // A fresh panel: the failed load of the chunk above stays failed in this document.
      const again = await open(`chrome-extension://${ext.extensionId}/sidepanel.html#/setting`, { width: 400, height: 800 });
      await waitForText(again, lang === 'en' ? /Something went wrong on this screen/ : /这个页面出错了/);
      await shoot(again, `render-sidepanel-400-${lang}`);
    }
  });
});
