import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type BrowserContext, type ElementHandle, type Frame, type Page, type Viewport } from 'puppeteer-core';
import { afterEach } from 'vitest';
import { BUILT_IN_EXTENSION_ID } from '../../shared/contracts/extension.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { reservePort } from '../helpers/ports.ts';
import { createUser } from '../helpers/users.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The unpacked extension, built by the global setup; the server serves the same folder as the web app. */
const EXTENSION_DIR = path.join(root, '.output', 'chrome-mv3');
/** Where every run leaves its screenshots (named in the README). */
const SCREENSHOT_DIR = path.join(root, 'tests', 'e2e', 'screenshots');
/** The web app's two sizes in the tests: a desktop window and a 390-px phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };
export const CHROMIUM = process.env.PUPPETEER_EXECUTABLE_PATH || '/usr/bin/chromium';

export type Stack = {
  /** The server's origin, as the browser reaches it (the build's host, so the bridge matches). */
  origin: string;
  /**
   * A small website on loopback the server's page reader is allowed to read: an article at /otters,
   * and at /live one whose text its own script writes (only a reader of the live page sees it).
   */
  siteOrigin: string;
  upstream: FakeOpenAI;
  server: TestApp;
  close(): Promise<void>;
};

/**
 * The server on PGlite (in memory) with a fake OpenAI-compatible upstream, serving the extension's
 * build as the web app. It listens on loopback at a free port of `localhost`, the host the build's
 * permissions and bridge content script cover.
 */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const upstream = await startFakeOpenAI();
  const site = await startSite();
  // The port is only known after listening, and PUBLIC_URL (CORS, login page URL) needs it:
  // hold one while the app is made, then start on it.
  const { port, release } = await reservePort();
  const origin = `http://localhost:${port}`;
  const server = await createTestApp(
    {
      PUBLIC_URL: origin,
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: upstream.baseUrl,
      OPENAI_MODELS: 'basic-model:0,standard-model:1,pro-model:2',
      // Test users get their tokens from GetTokenForTest (tests/helpers/users.ts).
      TEST_TOKEN_ROUTE: 'true',
      ...env,
      // The test site, plus what the caller allows (a fake search engine's pages).
      READER_ALLOWLIST: [new URL(site.origin).host, env.READER_ALLOWLIST].filter(Boolean).join(','),
    },
    { webDir: EXTENSION_DIR },
  ).finally(release);
  await server.app.listen({ port, host: '127.0.0.1' });
  return {
    origin,
    siteOrigin: site.origin,
    upstream,
    server,
    async close() {
      await server.close();
      await upstream.close();
      await new Promise((resolve) => site.server.close(resolve));
    },
  };
}

const SITE_ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Sea otters | Field Notes</title></head>
<body><nav><a href="/">Home</a></nav><article><h1>Sea otters</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This is called rafting.</p>
<p>${'They eat sea urchins, crabs and clams, and use stones as tools to open the shells. '.repeat(8)}</p>
</article><footer>Field Notes</footer></body></html>`;

/** What the /live page's script writes into it once it runs. */
export const LIVE_PAGE_SENTENCE = 'Otters have the densest fur of any animal: about a million hairs per square inch.';

const LIVE_ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Otter fur | Field Notes</title></head>
<body><article id="a"><h1>Otter fur</h1><p>Loading…</p></article>
<script>document.getElementById('a').innerHTML = '<h1>Otter fur</h1><p>${LIVE_PAGE_SENTENCE}</p>' +
  '<p>${'Air trapped in the fur keeps them warm and dry in cold water. '.repeat(6)}</p>';</script></body></html>`;

function startSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/otters') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SITE_ARTICLE);
    else if (req.url === '/live') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LIVE_ARTICLE);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

export type ExtensionBrowser = {
  browser: Browser;
  extensionId: string;
  /** A page of the extension's origin, to read and write its storage. */
  control: Page;
  close(): Promise<void>;
};

/**
 * Headless Chromium with the unpacked extension loaded (extension ids and flags: docs/architecture.md#testing).
 * `lang` is the browser's language (its own pages need the chromium-l10n package for another than en-US);
 * `extensionDir` the unpacked build (the benchmarks load a copy of it, bench/extension.ts).
 */
export async function launchWithExtension(lang = 'en-US', extensionDir = EXTENSION_DIR): Promise<ExtensionBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'tandem-e2e-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    // On Linux the browser's own language comes from the environment (--lang sets what pages are told).
    ...(lang === 'en-US' ? {} : { env: { ...process.env, LANGUAGE: lang.replace('-', '_'), LANG: `${lang.replace('-', '_')}.UTF-8` } }),
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--lang=${lang}`,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && /^chrome-extension:\/\/\w+\/background\.js$/.test(t.url()),
    { timeout: 20_000 },
  );
  const extensionId = new URL(target.url()).host;
  // Storage is read and written from a page of the extension's origin: the worker's target can be
  // attached before its globals exist.
  const control = await browser.newPage();
  await control.goto(`chrome-extension://${extensionId}/manifest.json`);
  return {
    browser,
    extensionId,
    control,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export { BUILT_IN_EXTENSION_ID };

/** The server stack and Chromium with the extension, started together, the extension pointed at the server. */
export async function startStackWithExtension(env: Record<string, string> = {}): Promise<{ stack: Stack; ext: ExtensionBrowser }> {
  const [stack, ext] = await Promise.all([startStack(env), launchWithExtension()]);
  await useServer(ext.control, stack.origin);
  return { stack, ext };
}

/** The address of the extension's side panel, with a route (`#/invited`) or query after it. */
export function sidePanelUrl(ext: ExtensionBrowser, suffix = ''): string {
  return `chrome-extension://${ext.extensionId}/sidepanel.html${suffix}`;
}

/** A page of the browser at the side panel's size (the panel is a narrow page of its own), showing the panel. */
export async function openSidePanel(ext: ExtensionBrowser, suffix = ''): Promise<Page> {
  const page = await ext.browser.newPage();
  await page.setViewport({ width: 400, height: 800 });
  await page.goto(sidePanelUrl(ext, suffix));
  return page;
}

/** A new user signed in to the extension (through the API: the login frame has its own test), and the side panel open on the chat. */
export async function openSignedInPanel(ext: ExtensionBrowser, stack: Stack): Promise<Page> {
  const user = await createUser(stack.server.app);
  await signInExtension(ext.control, user.token);
  const panel = await openSidePanel(ext);
  await waitForText(panel, /Ask a question, paste some text/);
  return panel;
}

/** Reads a key of the extension's local storage (the persisted envelope `{ v, value }`). */
export async function readExtensionStorage(control: Page, key: string): Promise<unknown> {
  return control.evaluate(async (k) => (await chrome.storage.local.get(k))[k], key);
}

/** Points the extension at the test server, as the settings page would. */
export async function useServer(control: Page, origin: string): Promise<void> {
  await control.evaluate((url) => chrome.storage.local.set({ 'tandem.serverUrl': { v: 1, value: url } }), origin);
}

/** Saves a picture of the page once its transitions (drawers, dialogs) have ended. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/**
 * Opens route `hash` (e.g. '#/invited') of an open side panel with a full load, not a same-document
 * hash change, so no navigation the app had under way (after a sign-in, say) can land after it; then
 * waits for `selector`. A miss says where the panel was and what it showed.
 */
export async function openPanelRoute(panel: Page, ext: ExtensionBrowser, hash: string, selector: string, timeout = 30_000): Promise<ElementHandle<Element>> {
  await panel.goto('about:blank');
  await panel.goto(sidePanelUrl(ext, hash));
  const found = await panel.waitForSelector(selector, { timeout }).catch(() => null);
  if (found) return found;
  const seen = await panel.evaluate(() => `${location.hash}: ${document.body.innerText.slice(0, 400)}`).catch((e) => String(e));
  throw new Error(`${selector} did not appear on ${hash}; the panel showed ${seen}`);
}

/** After each failed test of the file: a picture of each of its pages still open, named after `suite` and the test. */
export function screenshotOnFailure(suite: string, pages: () => (Page | undefined)[]): void {
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const page of pages()) {
      if (page && !page.isClosed()) await screenshot(page, `failed-${suite}-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });
}

/** Signs the extension in as `token`: the stored login its pages and background read. */
export async function signInExtension(control: Page, token: string): Promise<void> {
  await control.evaluate((t) => chrome.storage.local.set({ 'tandem.auth.token': { v: 1, value: t } }), token);
}

/**
 * Opens `url` in a tab of a window of its own, brought to the front: the side panel follows the
 * active tab of the last focused window. A PDF or a download may end its navigation with an error,
 * which is left to the caller's own checks.
 */
export async function openTabBeside(ext: ExtensionBrowser, url: string, viewport?: Viewport): Promise<Page> {
  const tab = await ext.browser.newPage({ type: 'window' });
  if (viewport) await tab.setViewport(viewport);
  await tab.goto(url).catch(() => {});
  await tab.bringToFront();
  return tab;
}

/** Signs the web app open in `page` in as `token`: the stored login it reads when it starts. */
export async function signInWebApp(page: Page, token: string): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('tandem.auth.token', JSON.stringify({ v: 1, value: t })), token);
}

/**
 * The web app signed in as `token`, in a browser context of its own (not the extension's profile),
 * open at its home at `viewport` (the narrow layout is chosen at start-up).
 */
export async function openWebApp(ext: ExtensionBrowser, origin: string, token: string, viewport = DESKTOP): Promise<{ context: BrowserContext; web: Page }> {
  const context = await ext.browser.createBrowserContext();
  const web = await context.newPage();
  await web.setViewport(viewport);
  await web.goto(`${origin}/`);
  await signInWebApp(web, token);
  await web.goto(`${origin}/`);
  return { context, web };
}

/** Waits until no CSS transition or animation is running (Mantine's drawers and dialogs slide in). */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), { timeout: 5_000 });
}

/**
 * Waits for the login frame (the server's /login inside the dialog or drawer) to be ready and as tall
 * as its page. The dialog may replace its frame while it opens (it reloads the frame, and the login
 * page address can change once the system settings arrive), which detaches a frame found earlier: look again.
 */
export async function loginFrame(page: Page, origin: string, timeout = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const handle = await page.waitForSelector(`iframe[src^="${origin}/login"]`, { timeout });
    const frame = await handle!.contentFrame();
    try {
      await frame.waitForSelector('form input[type="email"]', { timeout: 3_000 });
      await frameFitted(frame);
      return frame;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/**
 * Waits until the login frame is as tall as its page (the dialog takes the height the page posts after
 * each change) and the dialog has stopped moving, so a click lands where the element is.
 */
export async function frameFitted(frame: Frame, timeout = 5_000): Promise<void> {
  const element = (await frame.frameElement())!;
  const deadline = Date.now() + timeout;
  for (;;) {
    const page = await frame.evaluate(() => Math.ceil(document.getElementById('root')!.getBoundingClientRect().height));
    const box = await element.evaluate((e) => Math.round(e.getBoundingClientRect().height));
    if (page === box) break;
    if (Date.now() > deadline) throw new Error(`the login frame is ${box} px tall, its page ${page} px`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await settled(frame.page());
}

/** Fills and submits the central login page's form (sign in, or sign up first). */
export async function submitLoginForm(
  frame: Frame,
  account: { email: string; password: string; userName?: string },
  mode: 'signIn' | 'signUp',
): Promise<void> {
  if (mode === 'signUp') {
    await frame.locator('[role="tab"]:nth-child(2)').click();
    await frame.waitForSelector('input[autocomplete="nickname"]');
    await frameFitted(frame);
  }
  await frame.type('input[type="email"]', account.email);
  await frame.type('input[type="password"]', account.password);
  if (mode === 'signUp' && account.userName) await frame.type('input[autocomplete="nickname"]', account.userName);
  await frame.click('form button[type="submit"]');
}

/** Waits until the page's visible text matches. */
export async function waitForText(scope: Page | Frame, text: RegExp, timeout = 15_000): Promise<void> {
  await scope.waitForFunction(
    (source, flags) => new RegExp(source, flags).test(document.body?.innerText ?? ''),
    { timeout },
    text.source,
    text.flags,
  );
}

/**
 * What a page (the control page) sees of changes to the extension's local storage: a count per key,
 * and the waiters to wake at the next change. Installed by the first wait.
 */
type StorageWatch = { tandemStorageChanges?: Record<string, number>; tandemStorageWaiters?: (() => void)[] };

/**
 * Waits until a key of the extension's storage holds a value that passes check: reads it, and again
 * after each change of the storage, until the timeout. (The functions run in the page hold no named
 * inner functions: the test runner's transform would wrap them in a helper the page does not have.)
 */
export async function waitForExtensionStorage(
  control: Page,
  key: string,
  check: (value: unknown) => boolean,
  timeout = 15_000,
): Promise<unknown> {
  const deadline = Date.now() + timeout;
  for (;;) {
    // The key's change count is taken before its value is read: a change in between ends the wait below at once.
    const { value, changes } = await control.evaluate(async (k) => {
      const page = window as StorageWatch;
      if (!page.tandemStorageChanges) {
        const counts: Record<string, number> = (page.tandemStorageChanges = {});
        const waiters: (() => void)[] = (page.tandemStorageWaiters = []);
        chrome.storage.onChanged.addListener((changed, area) => {
          if (area !== 'local') return;
          for (const name of Object.keys(changed)) counts[name] = (counts[name] ?? 0) + 1;
          for (const wake of waiters.splice(0)) wake();
        });
      }
      const changes = page.tandemStorageChanges[k] ?? 0;
      return { changes, value: (await chrome.storage.local.get(k))[k] as unknown };
    }, key);
    if (check(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`extension storage ${key} stayed ${JSON.stringify(value)}`);
    // Until the storage changes again (the key may have), or the time is up.
    await control.evaluate(
      (k, seen, ms) =>
        new Promise<void>((resolve) => {
          const page = window as StorageWatch;
          if ((page.tandemStorageChanges?.[k] ?? 0) > seen) return resolve();
          page.tandemStorageWaiters?.push(resolve);
          setTimeout(resolve, ms);
        }),
      key,
      changes,
      left,
    );
  }
}
