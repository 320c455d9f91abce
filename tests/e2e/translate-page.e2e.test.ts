import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/users.ts';
import { PHONE, launchWithExtension, openWebApp, screenshot, screenshotOnFailure, startStack, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/**
 * The web app's Translate page in Chromium, against the real server and its translation route (the
 * fake model prefixes each translated paragraph with its target language): pasted text is translated
 * paragraph by paragraph, with the price shown first, on a desktop in English and on a phone in Chinese.
 */
describe('the Translate page in the web app', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let web: Page;
  const translateCalls: unknown[] = [];

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    const user = await createUser(stack.server.app, { userName: 'Ada' });
    ({ context, web } = await openWebApp(ext, stack.origin, user.token));
    web.on('request', (request) => {
      if (request.url().endsWith('/api/System/TransText')) translateCalls.push(JSON.parse(request.postData() ?? '{}'));
    });
  });

  screenshotOnFailure('translate-page', () => [web]);

  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
  });

  async function translate(text: string): Promise<void> {
    const source = await web.waitForSelector('[data-testid="translate-source"]');
    await source!.click();
    await web.keyboard.type(text);
    // The price of what was typed, asked without translating it.
    await web.waitForFunction(() => /points|积分/.test(document.querySelector('[data-testid="translate-estimate"]')?.textContent ?? ''));
    expect(translateCalls.at(-1)).toMatchObject({ estimate: true });
    await web.locator('[data-testid="translate-start"]').click();
  }

  it('translates pasted paragraphs into English on a desktop, in order, and shows the detected language', async () => {
    await web.goto(`${stack.origin}/translate`);
    await translate('Bonjour tout le monde.\n\nLes loutres dorment en se tenant la main.');
    await waitForText(web, /\[en\] Les loutres dorment en se tenant la main\./);
    const output = await web.$eval('[data-testid="translate-output"]', (el) => (el as HTMLElement).innerText);
    expect(output.indexOf('[en] Bonjour tout le monde.')).toBeLessThan(output.indexOf('[en] Les loutres'));
    expect(await web.$eval('[data-testid="translate-detected"]', (el) => el.textContent)).toMatch(/French/);
    expect(translateCalls.some((call) => (call as { estimate?: boolean }).estimate !== true)).toBe(true);
    await screenshot(web, 'translate-page-desktop-en');
  });

  it('on a 390-px phone in Chinese, translates into Simplified Chinese', async () => {
    await web.setViewport(PHONE);
    await web.evaluate(() => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: 'zh' })));
    // The target language remembered from the last visit is English: a Chinese reader picks Simplified Chinese.
    await web.evaluate(() => localStorage.removeItem('tandem.translate.prefs'));
    await web.goto(`${stack.origin}/translate`);
    await waitForText(web, /翻译/);
    await translate('Sea otters use stones as tools.');
    await waitForText(web, /\[zh-Hans\] Sea otters use stones as tools\./);
    const width = await web.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(web, 'translate-page-phone-zh');
  });
});
