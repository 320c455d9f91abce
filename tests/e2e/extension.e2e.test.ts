import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  BUILT_IN_EXTENSION_ID,
  loginFrame,
  openSidePanel,
  readExtensionStorage,
  screenshot,
  settled,
  sidePanelUrl,
  startStackWithExtension,
  submitLoginForm,
  waitForExtensionStorage,
  waitForText,
  type ExtensionBrowser,
  type Stack,
} from './harness.ts';

/**
 * The product in Chromium: the unpacked extension loaded, the server on PGlite with a fake
 * upstream, serving the same build as the web app. The steps share one account and run in order.
 */
let stack: Stack;
let ext: ExtensionBrowser;
let panel: Page;
const account = { email: `e2e-${Date.now()}@example.com`, password: 'correct horse 42', userName: 'Ada' };
const tokenOf = (value: unknown) => (value as { value?: string | null } | undefined)?.value ?? null;

beforeAll(async () => {
  ({ stack, ext } = await startStackWithExtension());
  panel = await openSidePanel(ext);
});

// A failed step leaves a picture of the side panel, to see what it showed.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && panel && !panel.isClosed()) {
    await panel.bringToFront();
    await screenshot(panel, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  }
});

afterAll(async () => {
  await ext?.close();
  await stack?.close();
});

describe('Tandem in Chromium: signing up, chatting, history and reading pages', () => {
  it('loads the extension under its fixed id', () => {
    expect(ext.extensionId).toBe(BUILT_IN_EXTENSION_ID);
  });

  it('signs up and logs in through the login frame in the side panel', async () => {
    await waitForText(panel, /Sign in to start chatting/);
    await screenshot(panel, 'side-panel-signed-out-en');

    await panel.locator('::-p-aria([name="Sign in"][role="button"])').click();
    const frame = await loginFrame(panel, stack.origin);
    await screenshot(panel, 'side-panel-login-en');
    await submitLoginForm(frame, account, 'signUp');

    // The frame hands a temp key to the panel, which exchanges it and stores the token.
    const token = await waitForExtensionStorage(ext.control, 'tandem.auth.token', (v) => !!tokenOf(v));
    expect(tokenOf(token)).toMatch(/\S{20,}/);
    await waitForText(panel, /Ask a question, paste some text/);
    // The dialog closed itself.
    await panel.waitForSelector(`iframe[src^="${stack.origin}/login"]`, { hidden: true });
  });

  it('streams a markdown answer into the side panel', async () => {
    stack.upstream.script('basic-model', {
      chunks: ['## Plan\n\n', 'Use **bold** ', 'words and `code`.\n\n', '```js\nconst answer = 42;\n```\n\n', 'Energy: $E = mc^2$.'],
      delayMs: 250,
    });
    await panel.locator('textarea').fill('Plan a trip');
    await panel.keyboard.press('Enter');

    // Mid-stream: the first part is on screen, rendered, while the stop button is offered.
    await panel.waitForSelector('[data-testid="chat-turn"] h2');
    expect(await panel.$('::-p-aria(Stop)')).not.toBeNull();
    expect(await panel.$('[data-testid="chat-turn"] .katex')).toBeNull();

    await panel.waitForSelector('[data-testid="chat-turn"] .katex', { timeout: 15_000 });
    await panel.waitForSelector('::-p-aria(Send)');
    const answer = await panel.$eval('[data-testid="chat-turn"]', (turn) => ({
      heading: turn.querySelector('h2')?.textContent,
      bold: turn.querySelector('strong')?.textContent,
      code: turn.querySelector('pre')?.textContent,
      text: (turn as HTMLElement).innerText,
    }));
    expect(answer.heading).toBe('Plan');
    expect(answer.bold).toBe('bold');
    expect(answer.code).toContain('const answer = 42;');
    expect(answer.text).not.toContain('**');
    expect(answer.text).not.toContain('$E');
    // The new chat's route is its session.
    await panel.waitForFunction(() => /^#\/[\w-]{8,}/.test(location.hash));
    await screenshot(panel, 'side-panel-chat-en');
  });

  it('lists the chat in the history, where it is renamed, searched and deleted', async () => {
    const openHistory = async () => {
      await panel.locator('::-p-aria([name="Chat history"][role="button"])').click();
      await panel.waitForSelector('[role="list"] ::-p-text(Plan a trip), [role="list"] ::-p-text(Weekend in Rome)');
    };
    await openHistory();
    await screenshot(panel, 'side-panel-history-en');

    await panel.locator('::-p-aria(Actions for Plan a trip)').click();
    await panel.locator('::-p-aria([name="Rename"][role="menuitem"])').click();
    const input = await panel.waitForSelector('::-p-aria(Chat name)');
    await input!.click({ count: 3 });
    await input!.type('Weekend in Rome');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[role="list"] ::-p-text(Weekend in Rome)');

    // The new title is the server's: a fresh panel lists it too.
    const second = await openSidePanel(ext);
    await second.locator('::-p-aria([name="Chat history"][role="button"])').click();
    await second.waitForSelector('[role="list"] ::-p-text(Weekend in Rome)');

    // Search by part of the title.
    await second.locator('::-p-aria([name="Search chat"][role="button"])').click();
    await second.locator('::-p-aria(Search chats and messages)').fill('rome');
    await second.keyboard.press('Enter');
    await second.waitForSelector('[role="dialog"] ::-p-text(Weekend in Rome)');
    await screenshot(second, 'side-panel-search-en');
    await second.close();

    await panel.locator('::-p-aria(Actions for Weekend in Rome)').click();
    await panel.locator('::-p-aria([name="Delete"][role="menuitem"])').click();
    await panel.locator('.mantine-Modal-content ::-p-aria([name="Delete"][role="button"])').click();
    await waitForText(panel, /No chats yet/);
    await panel.keyboard.press('Escape');
    await panel.waitForSelector('.mantine-Drawer-content', { hidden: true });
  });

  it('reads a web page for the model: the chip shows its title and the answer quotes it', async () => {
    await panel.bringToFront();
    await panel.locator('::-p-aria([name="Attach a web page"][role="button"])').click();
    await panel.locator('::-p-aria(Web page address)').fill(`${stack.siteOrigin}/otters`);
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid="composer"] ::-p-text(Sea otters | Field Notes)');
    await screenshot(panel, 'side-panel-page-attached-en');

    stack.upstream.reset();
    await panel.locator('textarea').fill('Why do otters hold hands?');
    await panel.keyboard.press('Enter');
    // The fake upstream echoes what it was given: the page came with the question.
    await waitForText(panel, /Echo: The user attached a web page/);
    await panel.waitForSelector('::-p-aria(Send)');
    const sent = stack.upstream.requests.at(-1)!.body.messages.at(-1).content as string;
    expect(sent).toContain('Sea otters hold hands while they sleep');
    expect(sent.trim().endsWith('Why do otters hold hands?')).toBe(true);
    // The chip went with the message: it now sits in the message's bubble, linking to the page.
    expect(await panel.$('[data-testid="composer"] ::-p-text(Sea otters | Field Notes)')).toBeNull();
    const link = await panel.waitForSelector('[data-testid="chat-turn"] .attachment-link');
    expect(await link!.evaluate((a) => [a.getAttribute('href'), a.textContent])).toEqual([`${stack.siteOrigin}/otters`, 'Sea otters | Field Notes']);
    await screenshot(panel, 'side-panel-page-answer-en');
  });
});

describe('Tandem in Chromium: the web app session, the mobile layout and languages', () => {
  it('logs the web app in after a side-panel login, and the extension out after a web logout', async () => {
    const web = await ext.browser.newPage();
    await web.setViewport(DESKTOP);
    await web.goto(stack.origin);
    // The bridge content script hands the extension's login to the page.
    await waitForText(web, /Ask a question, paste some text/);
    expect(await web.evaluate(() => localStorage.getItem('tandem.auth.token'))).toContain(
      tokenOf(await readExtensionStorage(ext.control, 'tandem.auth.token'))!,
    );
    await screenshot(web, 'web-desktop-en');

    // The gear opens General beside the sections; Log out ends their list.
    await web.locator('::-p-aria([name="Settings"][role="button"])').click();
    await web.locator('[data-testid="settings-nav"] [data-testid="settings-logout"]').click();
    await waitForExtensionStorage(ext.control, 'tandem.auth.token', (v) => tokenOf(v) === null);
    await waitForText(panel, /Sign in to start chatting/);

    // Logging in on the web (sign in, the account exists) logs the extension in again.
    await web.goto(stack.origin);
    await web.locator('::-p-aria([name="Sign in"][role="button"])').click();
    const frame = await loginFrame(web, stack.origin);
    await screenshot(web, 'web-desktop-login-en');
    await submitLoginForm(frame, account, 'signIn');
    await waitForExtensionStorage(ext.control, 'tandem.auth.token', (v) => !!tokenOf(v));
    await waitForText(panel, /Ask a question, paste some text/);
    await web.close();
  });

  it('shows the mobile top bar and drawers at 390 px', async () => {
    const mobile = await ext.browser.newPage();
    await mobile.setViewport(PHONE);
    await mobile.goto(stack.origin);
    await waitForText(mobile, /Ask a question, paste some text/);
    // No sidebar beside the chat: it is behind the menu button.
    expect(await mobile.$('::-p-aria(Collapse sidebar)')).toBeNull();
    await screenshot(mobile, 'web-mobile-en');

    await mobile.locator('::-p-aria([name="Chat history"][role="button"])').click();
    const drawer = await mobile.waitForSelector('.mantine-Drawer-content');
    await settled(mobile);
    const box = await drawer!.boundingBox();
    expect(box!.x).toBe(0);
    expect(box!.width).toBeLessThan(390);
    await waitForText(mobile, /New chat/);
    await screenshot(mobile, 'web-mobile-history-en');
    // In the drawer the sidebar's collapse button closes the drawer, and says so.
    await mobile.locator('.mantine-Drawer-content ::-p-aria(Close sidebar)').click();
    await mobile.waitForSelector('.mantine-Drawer-content', { hidden: true });

    // The login opens as a bottom drawer (a visitor: a separate browser context has no extension).
    const visitorContext = await ext.browser.createBrowserContext();
    const visitor = await visitorContext.newPage();
    await visitor.setViewport(PHONE);
    await visitor.goto(stack.origin);
    await visitor.locator('::-p-aria([name="Sign in"][role="button"])').click();
    await loginFrame(visitor, stack.origin);
    const sheet = await visitor.waitForSelector('.mantine-Drawer-content');
    await settled(visitor);
    const sheetBox = await sheet!.boundingBox();
    expect(Math.round(sheetBox!.y + sheetBox!.height)).toBe(844);
    expect(sheetBox!.width).toBe(390);
    await screenshot(visitor, 'web-mobile-login-en');
    await visitorContext.close();
    await mobile.close();
  });

  it('saves the popup and login page as they look in English', async () => {
    const popup = await ext.browser.newPage();
    await popup.setViewport({ width: 340, height: 300 });
    await popup.goto(`chrome-extension://${ext.extensionId}/popup.html`);
    await popup.waitForSelector('[data-testid="popup-user-name"]');
    await waitForText(popup, /points/);
    await screenshot(popup, 'popup-en');
    await popup.close();

    const login = await ext.browser.newPage();
    await login.setViewport(DESKTOP);
    await login.goto(`${stack.origin}/login`);
    await login.waitForSelector('form input[type="email"]');
    await screenshot(login, 'login-page-en');
    await login.close();
  });

  it('switches the whole UI to Chinese', async () => {
    // Background tabs get no animation frames, which clicks wait for.
    await panel.bringToFront();
    // The gear opens the list of sections at the panel's width; the language is under General.
    await panel.locator('::-p-aria([name="Settings"][role="button"])').click();
    await panel.locator('[data-testid="settings-row-general"]').click();
    await panel.locator('::-p-text(中文)').click();
    await waitForText(panel, /语言/);
    await screenshot(panel, 'side-panel-settings-zh');
    expect(await panel.evaluate(() => document.body.innerText)).not.toMatch(/Language|Log out/);

    // The choice is stored: every surface opened now starts in Chinese.
    await panel.goto(sidePanelUrl(ext));
    await waitForText(panel, /提出问题/);
    await screenshot(panel, 'side-panel-zh');

    const popup = await ext.browser.newPage();
    await popup.setViewport({ width: 340, height: 300 });
    await popup.goto(`chrome-extension://${ext.extensionId}/popup.html`);
    await waitForText(popup, /积分/);
    await screenshot(popup, 'popup-zh');
    await popup.close();

    // The web app takes the extension's choice through the bridge: it opens in Chinese.
    const web = await ext.browser.newPage();
    await web.setViewport(DESKTOP);
    await web.goto(stack.origin);
    await waitForText(web, /提出问题/);
    await screenshot(web, 'web-desktop-zh');
    await web.setViewport(PHONE);
    await web.reload();
    await waitForText(web, /提出问题/);
    await screenshot(web, 'web-mobile-zh');

    await web.goto(`${stack.origin}/login`);
    await web.setViewport(DESKTOP);
    await waitForText(web, /登录/);
    await screenshot(web, 'login-page-zh');

    // And the other way round: English chosen on the web app's settings page, the side panel follows.
    await web.goto(`${stack.origin}/setting`);
    await web.locator('::-p-text(English)').click();
    await waitForText(web, /Language/);
    await panel.bringToFront();
    await waitForText(panel, /Ask a question, paste some text/);
    await web.close();
  });
});
