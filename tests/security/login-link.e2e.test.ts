import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchWithExtension,
  readExtensionStorage,
  screenshot,
  startStack,
  useServer,
  waitForText,
  type ExtensionBrowser,
  type Stack,
} from '../e2e/harness.ts';

/**
 * In Chromium, through the real web app and the real extension: a link that carries someone's
 * credential asks before it signs this browser in; a login the browser started itself does not; the
 * login page hands a key only to the web app and the extensions the server lists.
 */

const json = { 'content-type': 'application/json-patch+json' };

describe('login links and whom the login page trusts', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  const attacker = { email: `mallory-${Date.now()}@example.com`, password: 'attacker password 1', userName: 'Mallory' };
  const victim = { email: `alice-${Date.now()}@example.com`, password: 'victim password 1', userName: 'Alice' };

  /** A fresh token (or temp key) of an account, as its owner could put in a link. */
  async function credentialOf(who: { email: string; password: string }, kind: 'token' | 'tempKey'): Promise<string> {
    const login = await fetch(`${stack.origin}/api/Account/Login`, { method: 'POST', headers: json, body: JSON.stringify(who) }).then((r) => r.json());
    if (kind === 'tempKey') return login.Data.tempKey;
    const exchanged = await fetch(`${stack.origin}/api/User/GetTokenForTempKey?tempKey=${login.Data.tempKey}`).then((r) => r.json());
    return exchanged.Data;
  }
  const webToken = (page: Page) => page.evaluate(() => localStorage.getItem('tandem.auth.token'));
  const extensionToken = async () => ((await readExtensionStorage(ext.control, 'tandem.auth.token')) as { value?: string | null } | undefined)?.value ?? null;

  beforeAll(async () => {
    [stack, ext] = await Promise.all([startStack({ AUTH_RATE_LIMIT: '1000' }), launchWithExtension()]);
    await useServer(ext.control, stack.origin);
    for (const who of [attacker, victim]) {
      const res = await fetch(`${stack.origin}/api/Account/AddUser`, { method: 'POST', headers: json, body: JSON.stringify(who) });
      expect((await res.json()).Code).toBe(10000);
    }
  });
  afterAll(async () => {
    await ext?.close();
    await stack?.close();
  });

  it('asks a signed-out web app before a link signs it in, and stays signed out when told to', async () => {
    const page = await ext.browser.newPage();
    await page.goto(`${stack.origin}/?token=${await credentialOf(attacker, 'token')}`);
    await page.waitForSelector('[data-testid="link-login-dialog"]');
    await waitForText(page, new RegExp(attacker.email.replace(/[.]/g, '\\.')));
    await screenshot(page, 'security-login-link-question-en');
    expect(await webToken(page)).toBeNull();
    expect(page.url()).not.toContain('token=');
    await page.click('[data-testid="link-login-stay"]');
    await page.waitForSelector('[data-testid="link-login-dialog"]', { hidden: true });
    expect(await webToken(page)).toBeNull();
    expect(await extensionToken()).toBeNull();
    await page.close();
  });

  it('asks an extension page signed in as someone else, and switches only on "Continue"', async () => {
    const panel = await ext.browser.newPage();
    await panel.setViewport({ width: 400, height: 800 });
    // Signed in as the victim first, through a login the panel itself started (state it kept).
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
    const state = await panel.evaluate(async () => {
      const states = [{ state: 'e2e-started-here-0123456789', expiresAt: Date.now() + 60_000 }];
      await chrome.storage.local.set({ 'tandem.login.pendingStates': { v: 1, value: states } });
      return states[0].state;
    });
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html?tempKey=${await credentialOf(victim, 'tempKey')}&state=${state}`);
    await waitForText(panel, /Ask a question/);
    const victimToken = await extensionToken();
    expect(victimToken).toBeTruthy();
    expect(await panel.$('[data-testid="link-login-dialog"]')).toBeNull();

    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html?tempKey=${await credentialOf(attacker, 'tempKey')}`);
    await panel.waitForSelector('[data-testid="link-login-dialog"]');
    expect(await panel.$eval('[data-testid="link-login-email"]', (e) => e.textContent)).toBe(attacker.email);
    await screenshot(panel, 'security-login-link-side-panel-en');
    expect(await extensionToken()).toBe(victimToken);
    await panel.click('[data-testid="link-login-continue"]');
    await panel.waitForSelector('[data-testid="link-login-dialog"]', { hidden: true });
    await expect.poll(extensionToken).not.toBe(victimToken);
    await panel.close();
  });

  it('signs in with one click when the browser started the login itself at the central page', async () => {
    const page = await ext.browser.newPage();
    await page.goto(`${stack.origin}/login`);
    await page.waitForSelector('form input[type="email"]');
    await page.type('input[type="email"]', victim.email);
    await page.type('input[type="password"]', victim.password);
    await page.click('form button[type="submit"]');
    await page.waitForFunction((origin) => location.href === `${origin}/`, {}, stack.origin);
    await expect.poll(() => webToken(page)).toContain('"value":"');
    expect(await page.$('[data-testid="link-login-dialog"]')).toBeNull();
    await page.close();
  });

  it('hands no key to an extension the server does not list, and says so', async () => {
    const page = await ext.browser.newPage();
    const foreign = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/callback.html';
    await page.goto(`${stack.origin}/login?callback=${encodeURIComponent(foreign)}`);
    await waitForText(page, /This app is not allowed to sign in with Tandem/);
    expect(await page.$('input[type="password"]')).toBeNull();
    await screenshot(page, 'security-login-not-allowed-en');
    await page.close();
  });

  it('offers the sign-in form to a callback at the configured extension', async () => {
    // Chrome does not let a web page navigate to an extension page that is not web-accessible, so the
    // extension signs in through the framed login (tests/e2e/extension.e2e.test.ts); the page still
    // accepts its id as a callback, unlike any other extension's.
    const page = await ext.browser.newPage();
    const callback = `chrome-extension://${ext.extensionId}/sidepanel.html`;
    await page.goto(`${stack.origin}/login?callback=${encodeURIComponent(callback)}&state=from-the-extension-0123`);
    await page.waitForSelector('form input[type="password"]');
    expect(await page.$('[data-testid="not-allowed"]')).toBeNull();
    await page.close();
  });
});
