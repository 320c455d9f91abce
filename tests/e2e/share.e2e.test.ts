import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, ConsoleMessage, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { inLine, parseChatStream } from '../helpers/chat.ts';
import { readPdf } from '../helpers/pdf-text.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { type ExtensionBrowser, launchWithExtension, openWebApp, screenshot, screenshotOnFailure, settled, sidePanelUrl, signInExtension, type Stack, startStack, useServer, waitForText } from './harness.ts';

const ANSWER = 'Kyoto in spring: see **Philosopher’s Path** under cherry blossoms.\n\n京都的春天适合赏樱花。\n\n$a^2+b^2=c^2$';

/** Exchanges in the long chat exported as PDF, each answer with a heading, code, math, a list and Chinese text. */
const LONG_CHAT = 40;
const lecture = (i: number) =>
  `### Part ${i + 1}\n\nEach part explains one idea in a few sentences, so that the chat runs over many pages of the PDF.\n\n` +
  `\`\`\`python\ndef part_${i + 1}(x):\n    return x ** ${(i % 5) + 2}\n\`\`\`\n\n$$\\int_0^1 x^{${(i % 5) + 2}}\\,dx = \\frac{1}{${(i % 5) + 3}}$$\n\n` +
  `- first point\n- second point\n\n第${i + 1}部分：中文内容也应清晰可读。`;

/** How many pages a PDF has (its page objects are written uncompressed). */
const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g)?.length ?? 0;

/** A file once it has arrived in `dir` (Chromium writes under another name until it is complete). */
async function downloaded(dir: string, name: string): Promise<Buffer> {
  await expect.poll(() => readdirSync(dir).includes(name), { timeout: 180_000, interval: 250 }).toBe(true);
  return readFileSync(path.join(dir, name));
}

/**
 * A chat found, exported and shared from the web app, in Chromium: search finds a word inside an
 * answer and opens the chat at it; "Export as Markdown" downloads the chat with its math as source;
 * "Export as PDF" downloads it as a PDF of text (made by the server), in the web app and in the
 * extension's side panel;
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
    const longId = randomUUID();
    await stack.server.database.db.insert(chatSessions).values({ id: longId, userId: user.userId, title: 'Long lecture', lastActiveAt: new Date(Date.UTC(2026, 0, 1)) });
    await stack.server.database.db.insert(chatMessages).values(
      inLine(Array.from({ length: LONG_CHAT }, (_, i) => ({
        id: randomUUID(), sessionId: longId, userId: user.userId, inputMessage: `Explain part ${i + 1}, please.`, outputMessage: lecture(i),
        requestedModelId: 'basic-model', modelName: 'Basic', finishReason: 'stop', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      }))),
    );
    ({ context, web } = await openWebApp(ext, stack.origin, user.token));
    const cdp = await web.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, browserContextId: context.id });
    await waitForText(web, /Kyoto trip/);
  });

  screenshotOnFailure('share', () => [web]);

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

  it('exports the chat as PDF: text a reader can select, Chinese included, and a long chat over many pages', async () => {
    const refused: string[] = [];
    const listen = (message: ConsoleMessage) => /Content Security Policy|EvalError/i.test(message.text()) && refused.push(message.text());
    web.on('console', listen);
    await web.locator('button[aria-label="Actions for Kyoto trip"]').click();
    await web.waitForSelector('::-p-text(Export as PDF)');
    await screenshot(web, 'export-menu-en');
    await web.locator('::-p-text(Export as PDF)').click();
    const short = await downloaded(downloads, 'Kyoto trip.pdf');
    expect(short.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(short)).toBe(1);
    // Text, not a picture: the title, the question and the answer, its Chinese and its math as TeX.
    const read = await readPdf(short);
    for (const text of ['Kyoto trip', 'Kyoto trip ideas?', 'Philosopher’s Path', '京都的春天适合赏樱花。', 'a^2+b^2=c^2']) expect(read.text).toContain(text);
    expect(read.markInfo).toMatchObject({ Marked: true });

    await web.locator('button[aria-label="Actions for Long lecture"]').click();
    await web.locator('::-p-text(Export as PDF)').click();
    const long = await downloaded(downloads, 'Long lecture.pdf');
    expect(long.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pageCount(long);
    expect(pages).toBeGreaterThan(LONG_CHAT / 8);
    const lecture = await readPdf(long);
    expect(lecture.text).toContain(`第${LONG_CHAT}部分：中文内容也应清晰可读。`);
    expect(lecture.text).toContain(`def part_${LONG_CHAT}(x):`);
    // Text and a subset of one font: far smaller than pictures of the pages.
    expect(long.length).toBeLessThan(pages * 30_000);
    await web.waitForFunction(() => !/Making the PDF/.test(document.body.innerText));
    web.off('console', listen);
    expect(refused).toEqual([]);
  }, 120_000);

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

  it('exports the chat as PDF inside the extension side panel, within its content security policy', async () => {
    await useServer(ext.control, stack.origin);
    await signInExtension(ext.control, user.token);
    const panelDownloads = mkdtempSync(path.join(os.tmpdir(), 'tandem-panel-downloads-'));
    const panel = await ext.browser.newPage();
    const refused: string[] = [];
    panel.on('console', (message) => /Content Security Policy|EvalError/i.test(message.text()) && refused.push(message.text()));
    panel.on('pageerror', (error) => refused.push(String(error)));
    try {
      const cdp = await panel.createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: panelDownloads });
      await panel.setViewport({ width: 400, height: 800 });
      await panel.goto(sidePanelUrl(ext));
      await panel.locator('::-p-aria([name="Chat history"][role="button"])').click();
      await panel.locator('::-p-aria(Actions for Kyoto trip)').click();
      await panel.locator('::-p-text(Export as PDF)').click();
      const pdf = await downloaded(panelDownloads, 'Kyoto trip.pdf');
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pageCount(pdf)).toBe(1);
      expect((await readPdf(pdf)).text).toContain('京都的春天适合赏樱花。');
      expect(refused).toEqual([]);
    } finally {
      await panel.close();
      rmSync(panelDownloads, { recursive: true, force: true });
    }
  }, 180_000);
});
