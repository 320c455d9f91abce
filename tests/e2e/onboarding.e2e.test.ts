import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { DESKTOP, PHONE, CHROMIUM, screenshot, screenshotOnFailure, settled, signInWebApp, startStack, waitForText, type Stack } from './harness.ts';

/** The pictures this feature is judged by (onboarding and the settings sections, en and zh, desktop and 390 px). */
const SHOTS = process.env.MEMORY_SHOTS_DIR ?? '/tmp/shots-mem';
const MODELS = ['basic-model', 'standard-model', 'pro-model'];

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
  await screenshot(page, `memory-${name}`);
}

/**
 * Personalization and memory in the web app, in Chromium: a new account goes through the memory
 * onboarding, sends a message, and the fake upstream received the answers in the system prompt; a
 * fact the assistant proposes to remember is saved from the answer's card and shows in settings.
 * The steps share one account and run in order.
 */
describe('Memory onboarding and personalization in the web app', () => {
  let stack: Stack;
  // The web app alone: no extension is needed (its side panel shows the same screens).
  let browser: Browser;
  let profile: string;
  let web: Page;
  let user: TestUser;

  async function open(route: string, language: 'en' | 'zh' = 'en', viewport = DESKTOP) {
    await web.setViewport(viewport);
    await web.evaluate((lang) => localStorage.setItem('tandem.language', JSON.stringify({ v: 1, value: lang })), language);
    await web.goto(`${stack.origin}${route}`);
  }
  const clickText = async (selector: string, text: string) => {
    await web.waitForFunction(
      (sel, label) => [...document.querySelectorAll(sel)].some((el) => (el as HTMLElement).innerText.trim() === label),
      {},
      selector,
      text,
    );
    await web.$$eval(
      selector,
      (els, label) => (els.find((el) => (el as HTMLElement).innerText.trim() === label) as HTMLElement).click(),
      text,
    );
  };
  const step = () => web.$eval('[data-testid="onboarding"]', (el) => el.getAttribute('data-step'));

  beforeAll(async () => {
    profile = mkdtempSync(path.join(os.tmpdir(), 'tandem-mem-'));
    [stack, browser] = await Promise.all([
      startStack(),
      puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        userDataDir: profile,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--lang=en-US'],
      }),
    ]);
    for (const model of MODELS) stack.upstream.script(model, { chunks: ['Happy to help ', 'with that.'] });
    user = await createUser(stack.server.app, { userName: 'Marina' });
    web = await browser.newPage();
    await web.goto(`${stack.origin}/`);
    await signInWebApp(web, user.token);
  });

  screenshotOnFailure('memory', () => [web]);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await stack?.close();
  });

  it('shows the onboarding to the new account, in English and Chinese, on desktop and at 390 px', async () => {
    for (const [language, viewport, name] of [
      ['zh', DESKTOP, 'desktop-zh'],
      ['en', PHONE, 'mobile-en'],
      ['zh', PHONE, 'mobile-zh'],
    ] as const) {
      await open('/', language, viewport);
      await web.waitForSelector('[data-testid="onboarding"]');
      await waitForText(web, language === 'zh' ? /让 Tandem 更懂你/ : /Make Tandem yours/);
      await shot(web, `onboarding-1-${name}`);
    }
    // Nothing was saved by looking: it is still pending.
    const form = await api(stack.server.app, user).get('/api/Personalization/Get');
    expect(form.json().Data.onboarding).toBe('pending');
  });

  it('goes through the steps and sends the answers to the model with every message', async () => {
    await open('/');
    await web.waitForSelector('[data-testid="onboarding"]');
    await shot(web, 'onboarding-1-desktop-en');
    await web.locator('[data-testid="onboarding"] input').fill('Marine biologist');
    await clickText('[data-testid="onboarding"] button', 'Next');
    await web.waitForFunction(() => document.querySelector('[data-testid="onboarding"]')?.getAttribute('data-step') === 'traits');
    await clickText('[data-testid="onboarding"] label', 'Concise');
    await clickText('[data-testid="onboarding"] label', 'Friendly');
    await shot(web, 'onboarding-2-desktop-en');
    await clickText('[data-testid="onboarding"] button', 'Next');
    await web.waitForFunction(() => document.querySelector('[data-testid="onboarding"]')?.getAttribute('data-step') === 'otherInfo');
    await web.locator('[data-testid="onboarding"] textarea').fill('I study sea otters in Monterey Bay.');
    await shot(web, 'onboarding-3-desktop-en');
    await clickText('[data-testid="onboarding"] button', 'Next');
    await web.waitForFunction(() => document.querySelector('[data-testid="onboarding"]')?.getAttribute('data-step') === 'language');
    await clickText('[data-testid="onboarding"] label', 'Français');
    await shot(web, 'onboarding-4-desktop-en');
    expect(await step()).toBe('language');
    await clickText('[data-testid="onboarding"] button', 'Finish');
    await web.waitForFunction(() => !document.querySelector('[data-testid="onboarding"]'));

    const before = stack.upstream.requests.length;
    await web.locator('textarea').fill('What should I pack for a field day?');
    await web.keyboard.press('Enter');
    await waitForText(web, /Happy to help with that\./);
    const request = stack.upstream.requests.slice(before).at(-1)!.body;
    const system = request.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('Occupation: Marine biologist');
    expect(system.content).toContain('Concise, Friendly');
    expect(system.content).toContain('I study sea otters in Monterey Bay.');
    expect(system.content).toContain('Preferred answer language: Français');
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'What should I pack for a field day?' });

    // Shown once: a reload does not bring it back (the state is read, and says done).
    const read = web.waitForResponse((r) => r.url().includes('/api/Personalization/Get'));
    await open('/');
    expect((await (await read).json()).Data.onboarding).toBe('done');
    await web.waitForSelector('textarea');
    expect(await web.$('[data-testid="onboarding"]')).toBeNull();
  });

  it('saves a fact the assistant proposes only from the answer card, then uses it', async () => {
    for (const model of MODELS) {
      stack.upstream.script(model, { toolCalls: [{ name: 'remember', arguments: { fact: 'Prefers metric units' } }], chunks: ['Noted. You can save it to your memory.'] });
    }
    await web.locator('textarea').fill('Please remember that I prefer metric units.');
    await web.keyboard.press('Enter');
    await web.waitForSelector('[data-testid="remember-card"][data-state="proposed"]');
    await waitForText(web, /Noted\. You can save it/);
    const listed = async () =>
      (await api(stack.server.app, user).get('/api/Memory/GetList')).json().Data.list;
    expect(await listed()).toEqual([]);
    await shot(web, 'remember-card-desktop-en');
    await clickText('[data-testid="remember-card"] button', 'Save');
    await web.waitForSelector('[data-testid="remember-card"][data-state="saved"]');
    expect((await listed()).map((m: { fact: string }) => m.fact)).toEqual(['Prefers metric units']);

    for (const model of MODELS) stack.upstream.script(model, { chunks: ['Sure.'] });
    const before = stack.upstream.requests.length;
    await web.locator('textarea').fill('How far is a marathon?');
    await web.keyboard.press('Enter');
    await web.waitForFunction((n) => document.querySelectorAll('[data-testid="chat-turn"]').length === n, {}, 2);
    await waitForText(web, /Sure\./);
    expect(stack.upstream.requests.slice(before).at(-1)!.body.messages[0].content).toContain('- Prefers metric units');
  });

  it('shows the Personalization and Memory sections in settings, with exactly what is added', async () => {
    for (const [language, viewport, name] of [
      ['en', DESKTOP, 'desktop-en'],
      ['zh', DESKTOP, 'desktop-zh'],
      ['en', PHONE, 'mobile-en'],
      ['zh', PHONE, 'mobile-zh'],
    ] as const) {
      await open('/setting/privacy', language, viewport);
      await web.waitForSelector('[data-testid="personalization-section"] input');
      await web.waitForSelector('[data-testid="memory-section"] [data-testid="memory-item"]');
      await web.$eval('[data-testid="personalization-section"]', (el) => el.scrollIntoView({ block: 'start' }));
      await shot(web, `settings-personalization-${name}`);
      await web.locator('[data-testid="prompt-preview-toggle"]').click();
      await web.waitForSelector('[data-testid="prompt-preview"]');
      const shown = await web.$eval('[data-testid="prompt-preview"]', (el) => el.textContent);
      const server = await api(stack.server.app, user).get('/api/Personalization/GetSystemPrompt');
      expect(shown).toBe(server.json().Data.text);
      await web.$eval('[data-testid="prompt-preview"]', (el) => el.scrollIntoView({ block: 'center' }));
      await shot(web, `settings-preview-${name}`);
      await web.$eval('[data-testid="memory-section"]', (el) => el.scrollIntoView({ block: 'start' }));
      await shot(web, `settings-memory-${name}`);
    }
  });
});
