import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/users.ts';
import { launchWithExtension, openWebApp, screenshot, screenshotOnFailure, startStack, waitForText, type ExtensionBrowser, type Stack } from './harness.ts';

/**
 * Answer versions in Chromium (docs/api.md#answer-versions): a question is answered, Ask again gives a
 * second version beside the first ("2/2"), and the arrow goes back to the first ("1/2"), whose answer
 * is the one shown again; both stay stored.
 */
describe('Answer versions in the web app', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let context: BrowserContext;
  let web: Page;
  let user: TestUser;

  /** Whichever model the chat picks by default answers `text`. */
  const answerWith = (text: string) => {
    for (const model of ['basic-model', 'standard-model']) stack.upstream.script(model, { chunks: [text] });
  };
  const position = () => web.$eval('[data-testid="answer-versions"]', (el) => el.getAttribute('aria-label'));

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack(), launchWithExtension()]);
    user = await createUser(stack.server.app);
    ({ context, web } = await openWebApp(ext, stack.origin, user.token));
  });

  screenshotOnFailure('answer-versions', () => [web]);

  afterAll(async () => {
    await context?.close();
    await ext?.close();
    await stack?.close();
  });

  it('asks, asks again (2/2), and goes back to the first answer (1/2)', async () => {
    answerWith('The first answer: tides follow the moon.');
    await web.waitForSelector('textarea');
    await web.locator('textarea').fill('Why are there tides?');
    await web.keyboard.press('Enter');
    await waitForText(web, /The first answer: tides follow the moon\./);

    answerWith('The second answer: gravity pulls the oceans.');
    // The answer's actions are all there (saving and downloading come in chunks of their own, and
    // move Ask again along when they arrive): a click aimed at it lands on it.
    await web.waitForSelector('::-p-aria(Save to favourites)');
    await web.waitForSelector('::-p-aria(Download this answer)');
    await web.locator('::-p-aria(Ask again)').click();
    await waitForText(web, /The second answer: gravity pulls the oceans\./);
    await web.waitForSelector('[data-testid="answer-versions"][aria-label="Version 2 of 2"]');
    expect(await web.$$eval('[data-testid="chat-turn"]', (els) => els.length)).toBe(1);
    await screenshot(web, 'answer-versions-2-of-2');

    await web.locator('::-p-aria(Previous version)').click();
    await web.waitForSelector('[data-testid="answer-versions"][aria-label="Version 1 of 2"]');
    await waitForText(web, /The first answer: tides follow the moon\./);
    expect(await position()).toBe('Version 1 of 2');
    expect(await web.$eval('[data-testid="chat-turn"]', (el) => (el as HTMLElement).innerText)).not.toContain('The second answer');
    // Reopened, the chat shows the version chosen.
    await web.reload();
    await waitForText(web, /The first answer: tides follow the moon\./);
    expect(stack.upstream.requests).toHaveLength(2);
  });
});
