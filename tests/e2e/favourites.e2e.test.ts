import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, PHONE, launchWithExtension, screenshot, screenshotOnFailure, settled, openWebApp, startStack, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/** The pictures this feature is judged by (the list and the editor, en and zh, desktop and 390 px). */
const SHOTS = process.env.FAVOURITES_SHOTS_DIR ?? '/tmp/shots-fav';

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // Answers show as plain text until the markdown renderer's chunk is here: the pictures wait for it.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="favourite-answer"], [data-testid="favourite-preview"]')].every((el) => el.querySelector('.md-view')),
  );
  await settled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
  await screenshot(page, `favourites-${name}`);
}

const OTTERS = 'Sea otters **hold hands** while they sleep, so they do not drift apart.\n\n海獭睡觉时会手牵手，以免漂散。';
const TIDES = 'Tides come from the **moon** pulling the sea.\n\n- twice a day\n- stronger at full moon';

/**
 * Favourite answers in the web app, in Chromium: an answer is saved with the star under it, found by
 * a server-side search (English and Chinese), edited with a live preview, and its link opens the chat
 * at the message; once the chat is deleted the saved copy stays and says so. The steps share one
 * account and run in order.
 */
describe('Favourite answers in the web app', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let web: Page;
  let user: TestUser;
  let sessionId = '';
  const listRequests: URL[] = [];

  /** Opens `route` of the web app in `language` at `viewport` (the narrow layout is chosen at start-up). */
  async function open(route: string, language: 'en' | 'zh' = 'en', viewport = DESKTOP) {
    await web.setViewport(viewport);
    await web.evaluate((lang) => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: lang })), language);
    await web.goto(`${stack.origin}${route}`);
  }

  const cardTexts = () => web.$$eval('[data-testid="favourite-item"]', (els) => els.map((el) => (el as HTMLElement).innerText));

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    for (const model of ['basic-model', 'standard-model', 'pro-model']) {
      stack.upstream.script(model, { chunks: [OTTERS.slice(0, 20), OTTERS.slice(20)] });
    }
    user = await createUser(stack.server.app, { userName: 'Ada' });
    ({ context, web } = await openWebApp(ext, stack.origin, user.token));
    web.on('request', (request) => {
      if (request.url().includes('/api/Save/GetList')) listRequests.push(new URL(request.url()));
    });
  });

  screenshotOnFailure('favourites', () => [web]);

  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
  });

  it('saves answers with the star under them, with a toast', async () => {
    await open('/');
    await web.waitForSelector('textarea');
    await web.locator('textarea').fill('Why do otters hold hands?');
    await web.keyboard.press('Enter');
    await waitForText(web, /so they do not drift apart/);
    // The new chat moved to /{id}.
    await web.waitForFunction(() => location.pathname.length > 10);
    sessionId = new URL(web.url()).pathname.slice(1);
    const star = await web.waitForSelector('[data-testid="save-answer"]:not([disabled])');
    expect(await star!.evaluate((b) => b.getAttribute('aria-pressed'))).toBe('false');
    await star!.click();
    await waitForText(web, /Saved to favourites/);
    await web.waitForSelector('[data-testid="save-answer"][aria-pressed="true"]');

    for (const model of ['basic-model', 'standard-model', 'pro-model']) stack.upstream.script(model, { chunks: [TIDES] });
    await web.locator('textarea').fill('What makes tides?');
    await web.keyboard.press('Enter');
    await waitForText(web, /stronger at full moon/);
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="save-answer"]:not([disabled])').length === 2);
    await web.locator('[data-testid="chat-turn"]:last-child [data-testid="save-answer"]').click();
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="save-answer"][aria-pressed="true"]').length === 2);
    // The "Saved" toast leads to the saved answers.
    await web.locator('.mantine-Notification-root ::-p-aria([name="View"][role="button"])').click();
    await web.waitForFunction(() => location.pathname === '/ans-fav/list');
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="favourite-item"]').length === 2);
  });

  it('lists them newest first and finds one by text inside the answer, in English and Chinese, on the server', async () => {
    // Reached from settings: the gear opens General, and saved answers are under Prompts and tools.
    await open('/setting');
    await web.locator('::-p-aria([name="Prompts and tools"][role="button"])').click();
    await web.locator('[data-testid="open-favourites"]').click();
    await web.waitForFunction(() => location.pathname === '/ans-fav/list');
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="favourite-item"]').length === 2);
    const texts = await cardTexts();
    expect(texts[0]).toMatch(/What makes tides\?/);
    expect(texts[1]).toMatch(/Why do otters hold hands\?/);
    // The preview is the chat's rendering: bold text is bold.
    await web.waitForSelector('[data-testid="favourite-answer"] strong');
    expect(await web.$eval('[data-testid="favourite-answer"] strong', (el) => el.textContent)).toBe('moon');
    await shot(web, 'list-desktop-en');

    /** Types a search and waits for the server's answer to it, then for the list to show it. */
    const search = async (q: string, expected: RegExp) => {
      const answered = web.waitForResponse((r) => r.url().includes('/api/Save/GetList') && new URL(r.url()).searchParams.get('q') === q);
      await web.locator('input[type="search"]').fill(q);
      await answered;
      await web.waitForFunction(
        (source) => {
          const items = [...document.querySelectorAll<HTMLElement>('[data-testid="favourite-item"]')];
          return items.length === 1 && new RegExp(source).test(items[0]!.innerText);
        },
        {},
        expected.source,
      );
    };
    await search('pulling the sea', /What makes tides/);
    await search('drift apart', /Why do otters/);
    await search('full MOON', /What makes tides/);
    // Chinese, inside the answer: the otters' answer stays found for the next step.
    await search('手牵手', /Why do otters/);
    expect(listRequests.map((u) => u.searchParams.get('q')).filter(Boolean)).toEqual(['pulling the sea', 'drift apart', 'full MOON', '手牵手']);
  });

  it('edits the saved copy with a live preview; the chat keeps its answer', async () => {
    await web.locator('[data-testid="favourite-item"] ::-p-text(Edit)').click();
    // The otters' answer, the one the search left.
    await web.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid="favourite-editor"]')?.value.includes('drift apart'));
    await web.waitForFunction(() => location.pathname.startsWith('/ans-fav/edit/'));
    const editor = await web.waitForSelector('[data-testid="favourite-editor"]');
    await web.waitForSelector('[data-testid="favourite-preview"] strong');
    await editor!.click();
    await web.keyboard.down('Control');
    await web.keyboard.press('End');
    await web.keyboard.up('Control');
    await web.keyboard.type('\n\n## My note\n\nOtters also **use stones** as tools.');
    // The preview follows the typing, rendered as in the chat.
    await web.waitForFunction(() => document.querySelector('[data-testid="favourite-preview"] h2')?.textContent === 'My note');
    expect(await web.$$eval('[data-testid="favourite-preview"] strong', (els) => els.map((el) => el.textContent))).toContain('use stones');
    await shot(web, 'editor-desktop-en');

    await web.locator('::-p-aria([name="Save"][role="button"])').click();
    await waitForText(web, /Changes saved/);
    await web.waitForFunction(() => location.pathname === '/ans-fav/list');
    await waitForText(web, /Otters also use stones as tools/);
    await waitForText(web, /Edited/);

    const chat = (await stack.server.app.inject({ method: 'GET', url: `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}`, headers: auth(user.token) })).json();
    expect(chat.Data.list.map((m: { outputMessage: string }) => m.outputMessage)).toEqual([OTTERS, TIDES]);
  });

  it('links back to the chat at the message', async () => {
    await web.waitForSelector('[data-testid="favourite-source"]');
    const favourites = (await stack.server.app.inject({ method: 'GET', url: '/api/Save/GetList?q=otters', headers: auth(user.token) })).json();
    const { chatMessageId } = favourites.Data.list[0];
    // The otters' answer (the older one, second in the list).
    await web.$$eval('[data-testid="favourite-item"]', (els) => {
      const card = els.find((el) => (el as HTMLElement).innerText.includes('Why do otters'));
      (card?.querySelector('[data-testid="favourite-source"]') as HTMLElement | null)?.click();
    });
    await web.waitForFunction(() => !location.pathname.startsWith('/ans-fav'));
    const opened = new URL(web.url());
    expect(opened.pathname).toBe(`/${sessionId}`);
    expect(opened.searchParams.get('message')).toBe(chatMessageId);
    // The message is shown, marked.
    await web.waitForSelector(`[data-message-id="${chatMessageId}"][data-focused]`);
    await waitForText(web, /so they do not drift apart/);
  });

  it('keeps the copies when the chat is deleted, and says the source is gone', async () => {
    await stack.server.app.inject({ method: 'POST', url: '/api/Chat/DeleteSessions', headers: { ...auth(user.token), 'content-type': 'application/json-patch+json' }, payload: JSON.stringify({ ids: [sessionId] }) });
    await open('/ans-fav/list');
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="favourite-source-deleted"]').length === 2);
    expect(await web.$('[data-testid="favourite-source"]')).toBeNull();
    await shot(web, 'list-source-deleted-desktop-en');
  });

  it('pictures: the list and the editor in Chinese, and at 390 px with the back bar', async () => {
    await open('/ans-fav/list', 'zh');
    await waitForText(web, /收藏的回答/);
    await web.waitForFunction(() => document.querySelectorAll('[data-testid="favourite-item"]').length === 2);
    await shot(web, 'list-desktop-zh');

    const id = (await stack.server.app.inject({ method: 'GET', url: '/api/Save/GetList?q=otters', headers: auth(user.token) })).json().Data.list[0].favouriteId;
    await open(`/ans-fav/edit/${id}`, 'zh');
    await web.waitForSelector('[data-testid="favourite-preview"] h2');
    await waitForText(web, /编辑收藏的回答/);
    await shot(web, 'editor-desktop-zh');

    for (const language of ['en', 'zh'] as const) {
      await open('/ans-fav/list', language, PHONE);
      await web.waitForSelector('[data-testid="favourites-back-bar"]');
      await web.waitForFunction(() => document.querySelectorAll('[data-testid="favourite-item"]').length === 2);
      await shot(web, `list-mobile-${language}`);
      await open(`/ans-fav/edit/${id}`, language, PHONE);
      await web.waitForSelector('[data-testid="favourite-edit-back-bar"]');
      await web.waitForSelector('[data-testid="favourite-editor"]');
      await shot(web, `editor-mobile-${language}`);
    }
    // The back bar leads to the list.
    await web.locator('[data-testid="favourite-edit-back-bar"] button').click();
    await web.waitForFunction(() => location.pathname === '/ans-fav/list');
  });
});
