import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseChatStream } from '../helpers/chat.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { launchWithExtension, screenshot, settled, startStack, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

const ANSWER = 'Kyoto in spring: see **Philosopher’s Path** under cherry blossoms.\n\n京都的春天适合赏樱花。\n\n$a^2+b^2=c^2$';

/**
 * A chat found, exported and shared from the web app, in Chromium: search finds a word inside an
 * answer and opens the chat at it; "Export as Markdown" downloads the chat with its math as source;
 * a share link opens in a fresh browser context with no login, and stops opening once revoked.
 */
describe('Search, export and share a chat in the web app', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let web: Page;
  let user: TestUser;
  let sessionId = '';
  let messageId = '';
  let shareLink = '';
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'tandem-downloads-'));

  async function sessionMenu(item: string) {
    await web.locator(`button[aria-label="Actions for Kyoto trip"]`).click();
    await web.locator(`::-p-text(${item})`).click();
  }

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    stack.upstream.script('basic-model', { chunks: [ANSWER.slice(0, 30), ANSWER.slice(30)] });
    user = await createUser(stack.server.app, { userName: 'Private Person' });
    const res = await stack.server.app.inject({ method: 'POST', url: '/api/Chat/AddMessage', headers: auth(user.token), payload: { aiModelId: 'basic-model', inputMessage: 'Kyoto trip ideas?' } });
    const events = parseChatStream(res.body);
    sessionId = events[0]!.Data.ChatSessionId;
    messageId = events[0]!.Data.ChatMessageId;
    await stack.server.app.inject({ method: 'POST', url: '/api/Chat/UpdateSessionTitle', headers: auth(user.token), payload: { chatSessionId: sessionId, sessionTitle: 'Kyoto trip' } });
    context = await ext.browser.createBrowserContext();
    web = await context.newPage();
    const cdp = await web.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, browserContextId: context.id });
    await web.setViewport({ width: 1280, height: 800 });
    await web.goto(`${stack.origin}/`);
    await web.evaluate((token) => localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: token })), user.token);
    await web.goto(`${stack.origin}/`);
    await waitForText(web, /Kyoto trip/);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && web && !web.isClosed()) await screenshot(web, `failed-share-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('search finds a word inside an answer, marks it, and opens the chat at that message', async () => {
    await web.locator('::-p-aria(Search chat)').click();
    const box = await web.waitForSelector('input[aria-label="Search chats and messages"]');
    await box!.type('樱花');
    await web.keyboard.press('Enter');
    await web.waitForSelector('[role="group"][aria-label="In messages"] mark');
    expect(await web.$eval('[role="group"][aria-label="In messages"] mark', (el) => el.textContent)).toBe('樱花');
    await screenshot(web, 'search-in-messages');
    await web.locator('[role="group"][aria-label="In messages"] mark').click();
    await web.waitForFunction((id) => location.search === `?message=${id}`, {}, messageId);
    expect(new URL(web.url()).pathname).toBe(`/${sessionId}`);
    await waitForText(web, /Philosopher/);
    await web.waitForSelector('[role="dialog"]', { hidden: true });
    await settled(web);
  });

  it('exports the chat as Markdown, math and formatting kept as source', async () => {
    await sessionMenu('Export as Markdown');
    let file = '';
    await expect.poll(() => (file = readdirSync(downloads).find((name) => name.endsWith('.md')) ?? ''), { timeout: 15_000 }).toBe('Kyoto trip.md');
    const text = readFileSync(path.join(downloads, file), 'utf8');
    expect(text).toContain('# Kyoto trip');
    expect(text).toContain('Kyoto trip ideas?');
    expect(text).toContain('**Philosopher’s Path**');
    expect(text).toContain('$a^2+b^2=c^2$');
  });

  it('shares a link that opens with no login and shows nothing private, then revokes it', async () => {
    await sessionMenu('Share…');
    await web.locator('::-p-text(Create link)').click();
    const input = await web.waitForSelector('[role="list"][aria-label="Links to this chat"] input');
    shareLink = await input!.evaluate((el) => (el as HTMLInputElement).value);
    expect(shareLink).toMatch(new RegExp(`^${stack.origin}/share/[A-Za-z0-9_-]{22}$`));
    await screenshot(web, 'share-dialog');

    // A stranger: a fresh context with no storage at all.
    const stranger = await ext.browser.createBrowserContext();
    try {
      const page = await stranger.newPage();
      for (const [viewport, lang] of [[{ width: 1280, height: 800 }, 'en'], [{ width: 390, height: 844, isMobile: true }, 'zh']] as const) {
        await page.setViewport(viewport);
        const res = await page.goto(shareLink);
        expect(res!.status()).toBe(200);
        if (lang === 'zh') {
          await page.evaluate(() => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: 'zh' })));
          await page.reload();
        }
        await waitForText(page, /Philosopher/);
        await page.waitForSelector('.md-view .katex');
        await settled(page);
        await screenshot(page, `shared-chat-${lang}-${viewport.width}`);
      }
      const html = await page.content();
      for (const secret of [user.email, user.token, 'Private Person', sessionId]) expect(html).not.toContain(secret);
      expect(await page.evaluate(() => localStorage.getItem('tandem.auth.token'))).toBeNull();

      await web.locator('[role="list"][aria-label="Links to this chat"] button[aria-label="Revoke"]').click();
      await waitForText(web, /Link revoked/);
      const gone = await page.goto(shareLink);
      expect(gone!.status()).toBe(404);
      await waitForText(page, /此分享的对话已被移除|This shared chat was removed/);
    } finally {
      await stranger.close();
    }
  });
});
