import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/users.ts';
import { frameFitted, loginFrame, openSidePanel, screenshot, startStackWithExtension, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/**
 * The login frame takes the height of the login page's content (the page posts it to its parent):
 * on "Create account", after a validation error and after "an account with this e-mail already
 * exists", the Create account button is in view on every surface (side panel at 400 and 320 px, the
 * web app's dialog at 1280 and its bottom sheet at 390), without scrolling inside the frame.
 */
describe('the login frame fits its page', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let taken: string;

  beforeAll(async () => {
    ({ stack, ext } = await startStackWithExtension());
    taken = (await createUser(stack.server.app, { password: 'correct horse 42' })).email;
  });
  afterAll(async () => {
    await ext?.close();
    await stack?.close();
  });

  /** Whether the submit button is wholly inside both the frame's box and the window. */
  async function submitInView(page: Page, frame: Frame): Promise<boolean> {
    const iframe = await frame.frameElement();
    const button = await frame.$('form button[type="submit"]');
    const [outer, inner] = [await iframe!.boundingBox(), await button!.boundingBox()];
    const viewport = page.viewport()!;
    if (!outer || !inner) return false;
    const inFrame = inner.y >= outer.y - 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
    const inWindow = inner.y >= 0 && inner.y + inner.height <= viewport.height + 0.5;
    // Nothing to scroll inside the frame: its document is no taller than the frame.
    const scrolls = await frame.evaluate(() => document.scrollingElement!.scrollHeight > window.innerHeight + 1);
    return inFrame && inWindow && !scrolls;
  }

  async function expectSubmitInView(page: Page, frame: Frame, what: string): Promise<void> {
    // The frame follows the page's height a moment after the page changed.
    const deadline = Date.now() + 5_000;
    while (!(await submitInView(page, frame)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await submitInView(page, frame), what).toBe(true);
  }

  async function signUpErrors(page: Page, name: string): Promise<void> {
    await page.locator('::-p-aria([name="Sign in"][role="button"])').click();
    const frame = await loginFrame(page, stack.origin);
    await frame.locator('[role="tab"]:nth-child(2)').click();
    await frame.waitForSelector('input[autocomplete="nickname"]');
    await frameFitted(frame);
    await expectSubmitInView(page, frame, `${name}: Create account`);

    // Sent empty: the fields say what is missing.
    await frame.click('form button[type="submit"]');
    await frame.waitForSelector('[aria-invalid="true"]');
    await frameFitted(frame);
    await expectSubmitInView(page, frame, `${name}: validation errors`);
    await screenshot(page, `login-frame-${name}-invalid`);

    // An address that has an account.
    await frame.type('input[type="email"]', taken);
    await frame.type('input[type="password"]', 'correct horse 42');
    await frame.type('input[autocomplete="nickname"]', 'Someone');
    await frame.click('form button[type="submit"]');
    await waitForText(frame, /already exists/);
    await expectSubmitInView(page, frame, `${name}: e-mail taken`);
    await screenshot(page, `login-frame-${name}-taken`);
  }

  for (const width of [400, 320]) {
    it(`in the side panel at ${width} px`, async () => {
      const panel = await openSidePanel(ext);
      await panel.setViewport({ width, height: 700 });
      await waitForText(panel, /Sign in to start chatting/);
      await signUpErrors(panel, `side-panel-${width}`);
      // The sheet ends at the bottom of the panel, with no empty band under the frame.
      const sheet = await panel.$('.mantine-Drawer-content');
      const iframe = await panel.$(`iframe[src^="${stack.origin}/login"]`);
      const [sheetBox, frameBox] = [await sheet!.boundingBox(), await iframe!.boundingBox()];
      expect(Math.round(sheetBox!.y + sheetBox!.height)).toBe(700);
      expect(sheetBox!.y + sheetBox!.height - (frameBox!.y + frameBox!.height)).toBeLessThan(40);
      await panel.close();
    });
  }

  it('the login page and the console name an icon for the browser tab, and it is served', async () => {
    for (const path of ['/login', '/admin']) {
      const html = await (await fetch(`${stack.origin}${path}`)).text();
      const href = /<link rel="icon"[^>]* href="([^"]+)"/.exec(html)?.[1];
      expect(href, path).toBeDefined();
      const res = await fetch(new URL(href!, `${stack.origin}${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('image/png');
    }
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`in the web app at ${width} px`, async () => {
      const context = await ext.browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height, ...(width < 500 ? { isMobile: true, hasTouch: true } : {}) });
      // The browser warns in the console of a sandbox that the framed page could lift (same origin, scripts).
      const warnings: string[] = [];
      page.on('console', (message) => warnings.push(message.text()));
      await page.goto(stack.origin);
      await signUpErrors(page, `web-${width}`);
      expect(warnings.filter((text) => /sandbox/i.test(text))).toEqual([]);
      await context.close();
    });
  }
});
