import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, desc, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { type ExtensionBrowser, launchWithExtension, openWebApp, screenshot, screenshotOnFailure, signInExtension, type Stack, startStack, useServer, waitForText } from './harness.ts';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A long answer the fake upstream writes slowly: English, Chinese and emoji, a piece every 60 ms (about 12 s). */
const PIECES = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? `段落${i}，` : i % 4 === 1 ? `word${i} ` : i % 4 === 2 ? `🌊${i} ` : `tide ${i}. `));
const FULL = PIECES.join('');

/**
 * One answer on two surfaces, in Chromium: asked in the extension's side panel, which is then closed
 * while the answer streams; the web app (another browser context, as on another device) marks the
 * chat as answering in its history, opens it, shows the answer continuing live and watches it finish.
 * The stored answer is the fake upstream's whole text.
 */
describe('Continue an answer on another surface', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let web: Page;
  let user: TestUser;

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    await useServer(ext.control, stack.origin);
    // Whichever model the panel picks by default writes the same slow answer.
    for (const model of ['basic-model', 'standard-model']) stack.upstream.script(model, { chunks: PIECES, delayMs: 60 });
    user = await createUser(stack.server.app);
    await signInExtension(ext.control, user.token);
    ({ context, web } = await openWebApp(ext, stack.origin, user.token));
  });

  screenshotOnFailure('resume', () => [web]);

  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
  });

  const latestMessage = async () =>
    (await stack.server.database.db.select().from(chatMessages).where(eq(chatMessages.userId, user.userId)).orderBy(desc(chatMessages.createdAt)).limit(1))[0];

  it('starts in the side panel, is closed there mid-answer, and finishes live in the web app', async () => {
    const panel = await ext.browser.newPage();
    await panel.setViewport({ width: 400, height: 800 });
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
    await panel.waitForSelector('textarea');
    await panel.locator('textarea').fill('Tell me about the tides');
    await panel.keyboard.press('Enter');
    await waitForText(panel, /段落0，word1 🌊2/);
    // The side panel goes away while the answer is being written.
    await panel.close();
    const message = await latestMessage();
    expect(message.finishReason).toBeNull();

    // The web app's history marks the chat as answering.
    await web.goto(`${stack.origin}/`);
    await waitForText(web, /Tell me about the tides/);
    await web.waitForSelector('[data-testid="session-answering"]');
    await screenshot(web, 'resume-history-answering-en');

    // Opened there, the answer continues live: more text arrives and Stop is offered.
    await web.locator('::-p-text(Tell me about the tides)').click();
    await web.waitForSelector('::-p-aria(Stop)');
    const textNow = () => web.$$eval('[data-testid="chat-turn"] [data-author="model"]', (els) => (els.at(-1) as HTMLElement | undefined)?.innerText ?? '');
    const first = (await textNow()).length;
    await web.waitForFunction(
      (n) => ((Array.from(document.querySelectorAll('[data-testid="chat-turn"] [data-author="model"]')).at(-1) as HTMLElement | undefined)?.innerText.length ?? 0) > n + 20,
      { timeout: 15_000 },
      first,
    );
    expect((await latestMessage()).finishReason).toBeNull();
    // Taken as it streams: the streaming caret animates for as long, so the harness's wait for settled animations would not end.
    mkdirSync(SCREENSHOTS, { recursive: true });
    await web.screenshot({ path: path.join(SCREENSHOTS, 'resume-web-en.png') });

    // It finishes there: the Stop button gives way to Send, and the whole answer is shown once.
    await web.waitForSelector('::-p-aria(Send)', { timeout: 30_000 });
    await waitForText(web, /tide 199\./, 15_000);
    const shown = (await textNow()).replace(/\s+/g, ' ').trim();
    expect(shown).toContain(FULL.replace(/\s+/g, ' ').trim());
    const stored = await stack.server.database.db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.id, message.id), eq(chatMessages.userId, user.userId)));
    expect(stored[0]).toMatchObject({ finishReason: 'stop', outputMessage: FULL });
    // One upstream call, read to its end although its asker went away.
    expect(stack.upstream.requests).toHaveLength(1);
    expect(stack.upstream.requests[0]!.outcome).toBe('completed');
    // The history no longer marks it.
    await web.waitForFunction(() => !document.querySelector('[data-testid="session-answering"]'), { timeout: 15_000 });
  });
});
