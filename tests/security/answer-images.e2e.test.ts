import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeImages, TINY_PNG, type FakeImages } from '../fixtures/fake-images.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { launchWithExtension, screenshot, signInWebApp, startStack, useServer, type ExtensionBrowser, type Stack } from '../e2e/harness.ts';

/**
 * Answers that phone home (docs/security.md), in Chromium through the real web app and the
 * extension's side panel. A chat is made whose answer carries images on another host (an HTTP server
 * on loopback that records every request: another port is another origin), written the ways a
 * prompt-injected page would have the model write them: inline, reference-style, as a badge inside a
 * link, and as raw HTML. Opening that chat must make no request to that host at all; a click on a
 * placeholder loads its image through the server's proxy (so the host sees the server, never the
 * browser); Tandem's own images (an uploaded one, a drawn one) show with no click.
 */
let foreign: TestServer;
let images: FakeImages;
let stack: Stack;
let ext: ExtensionBrowser;
let user: TestUser;
let sessionId: string;
const pages: Page[] = [];

const at = (path: string) => `${foreign.url}${path}`;
const answer = () =>
  [
    'Here is what I found.',
    `Inline: ![chart](${at('/inline.png?secret=s1')})`,
    'Reference: ![logo][logo]',
    `[![build passing](${at('/badge.png?secret=s3')})](${at('/ci')})`,
    `<img src="${at('/raw.png?secret=s4')}">`,
    `Read [the report](${at('/report')}).`,
    `[logo]: ${at('/ref.png?secret=s2')}`,
  ].join('\n\n');

/** Attaches an image through the API, as the composer does. */
async function uploadImage(): Promise<string> {
  const form = new FormData();
  form.append('mediaType', 'image');
  form.append('pageTitle', '');
  form.append('pageUrl', '');
  form.append('aiModelId', 'gpt-4o-mini');
  form.append('imageFile', new Blob([TINY_PNG], { type: 'image/png' }), 'otter.png');
  const res = await fetch(`${stack.origin}/api/Chat/AddChatMedia`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
  const body = (await res.json()) as { Code: number; Msg: string; Data: { chatMediaId: string } };
  expect(body.Code, body.Msg).toBe(10000);
  return body.Data.chatMediaId;
}

/** The chat: the user's message with the uploaded image; the answer draws an image and writes the images above. */
async function makeChat(): Promise<string> {
  const chatMediaId = await uploadImage();
  stack.upstream.script('gpt-4o-mini', { toolCalls: [{ name: 'generate_image', arguments: { prompt: 'a lighthouse' } }], chunks: [answer()] });
  const res = await fetch(`${stack.origin}/api/Chat/AddMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ aiModelId: 'gpt-4o-mini', inputMessage: 'What did the page say?', chatMediaIds: [chatMediaId], pluginIds: ['generate_image'] }),
  });
  const events = parseChatStream(await res.text());
  expect(events.every((e) => e.Code === 10000), JSON.stringify(events.at(-1))).toBe(true);
  expect(images.requests).toHaveLength(1);
  return events[0].Data.ChatSessionId;
}

beforeAll(async () => {
  // Big enough to be seen in the screenshots.
  const picture = await sharp({ create: { width: 160, height: 90, channels: 3, background: '#e8590c' } }).png().toBuffer();
  foreign = await startTestServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(picture));
  images = await startFakeImages();
  [stack, ext] = await Promise.all([
    startStack({
      // A model that reads images, so the message may carry one.
      OPENAI_MODELS: 'gpt-4o-mini:0',
      IMAGES_BASE_URL: images.baseUrl,
      IMAGES_API_KEY: 'img-key',
      // The proxy, like the page reader, reaches loopback only where the allow-list says.
      READER_ALLOWLIST: new URL(foreign.url).host,
    }),
    launchWithExtension(),
  ]);
  user = await createUser(stack.server.app);
  await useServer(ext.control, stack.origin);
  await ext.control.evaluate((token) => chrome.storage.local.set({ 'tandem.auth.token': { v: 1, value: token } }), user.token);
  sessionId = await makeChat();
});

beforeEach(() => {
  foreign.requests.length = 0;
});

afterEach(async ({ task }) => {
  const page = pages.at(-1);
  if (task.result?.state === 'fail' && page && !page.isClosed()) await screenshot(page, `failed-answer-images-${task.name.slice(0, 30).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await ext?.close();
  await stack?.close();
  await images?.close();
  await foreign?.close();
});

/** Every request a page starts to the other host, seen by the browser as it starts it. */
const startedToForeign = new WeakMap<Page, string[]>();
async function watchedPage(): Promise<Page> {
  const page = await ext.browser.newPage();
  const started: string[] = [];
  startedToForeign.set(page, started);
  page.on('request', (request) => {
    if (request.url().startsWith(foreign.url)) started.push(request.url());
  });
  pages.push(page);
  return page;
}

/**
 * Waits until the chat shows its answer and Tandem's own images have loaded. Images are requested
 * when their elements are made, before any of them finishes loading: by then the browser would
 * have started a request to the other host, had the page asked for one.
 */
async function chatShown(page: Page): Promise<void> {
  await page.waitForFunction(() => /Read the report\./.test((document.querySelector('[data-author="model"] .md-view') as HTMLElement | null)?.innerText ?? ''), {
    timeout: 15_000,
  });
  // The uploaded image (the user's bubble) and the drawn one (the tool call), loaded: no click.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLImageElement>('.attachment-thumb, .tool-call-images img')].filter((img) => img.complete && img.naturalWidth > 0)
        .length === 2,
    { timeout: 15_000 },
  );
  expect(startedToForeign.get(page)).toEqual([]);
  expect(foreign.requests.map((r) => r.url)).toEqual([]);
}

/** What the page shows of the answer's images, and every image address in it. */
function imagesOf(page: Page) {
  return page.evaluate(() => ({
    placeholders: [...document.querySelectorAll('.md-view [data-md-image]')].map((p) => [p.getAttribute('data-md-image'), p.querySelector('button')?.textContent]),
    sources: [...document.querySelectorAll('img')].map((img) => img.src),
    text: (document.querySelector('[data-author="model"] .md-view') as HTMLElement).innerText,
  }));
}

/** Asks the page to load an image of the foreign host itself: its CSP must refuse. */
async function cspRefuses(page: Page, path: string): Promise<void> {
  const outcome = await page.evaluate(
    (src) =>
      new Promise<string>((resolve) => {
        const img = new Image();
        img.onload = () => resolve('loaded');
        img.onerror = () => resolve('refused');
        img.src = src;
        document.body.append(img);
      }),
    at(path),
  );
  expect(outcome).toBe('refused');
  expect(foreign.requests.map((r) => r.url)).not.toContain(path);
}

/** Clicks the placeholder of `url` and waits for its image, shown as a blob: URL. */
async function loadByClick(page: Page, url: string): Promise<string> {
  await page.locator(`.md-view [data-md-image="${url}"] button`).click();
  const handle = await page.waitForFunction(
    (u) => {
      const img = document.querySelector<HTMLImageElement>(`.md-view [data-md-image="${u}"] img`);
      return img && img.complete && img.naturalWidth > 0 ? img.src : null;
    },
    { timeout: 15_000 },
    url,
  );
  return (await handle.jsonValue()) as string;
}

/** The foreign host saw exactly one request, for `path`, from the server's reader and not a browser. */
function sawOnlyTheProxy(path: string): void {
  expect(foreign.requests.map((r) => r.url)).toEqual([path]);
  const { headers } = foreign.requests[0];
  expect(headers['user-agent']).toMatch(/TandemReader/);
  for (const header of ['referer', 'cookie', 'authorization', 'origin', 'sec-fetch-mode', 'sec-fetch-site']) expect(headers[header], header).toBeUndefined();
}

describe('images in answers, in the browser', () => {
  it('web app: opening the chat fetches nothing from the other host; own images show; a click loads one through the proxy', async () => {
    const web = await watchedPage();
    await web.setViewport({ width: 1280, height: 900 });
    await web.goto(stack.origin);
    await signInWebApp(web, user.token);
    const response = await web.goto(`${stack.origin}/${sessionId}`);
    await chatShown(web);
    // The web app's CSP: images from its own origin, data: and blob: only.
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(/img-src ([^;]*)/.exec(csp)?.[1].split(' ').sort()).toEqual(["'self'", 'blob:', 'data:']);

    const shown = await imagesOf(web);
    const host = new URL(foreign.url).host;
    expect(shown.placeholders).toEqual([
      [at('/inline.png?secret=s1'), `Load image from ${host}`],
      [at('/ref.png?secret=s2'), `Load image from ${host}`],
      [at('/badge.png?secret=s3'), `Load image from ${host}`],
    ]);
    expect(shown.sources.filter((src) => src.startsWith(foreign.url))).toEqual([]);
    // Raw HTML is shown as text, never as an element.
    expect(shown.text).toContain(`<img src="${at('/raw.png?secret=s4')}">`);
    // Tandem's own images come from the server itself.
    expect(shown.sources.filter((src) => !src.startsWith(`${stack.origin}/api/Chat/GetChatMedia?`))).toEqual([]);
    // Links open in a new tab without handing over the page or the chat's address.
    const rel = await web.$eval(`.md-view a[href="${at('/report')}"]`, (a) => [a.getAttribute('target'), a.getAttribute('rel')]);
    expect(rel[0]).toBe('_blank');
    expect(rel[1]!.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));

    await screenshot(web, 'answer-images-web-placeholders-en');

    await cspRefuses(web, '/csp-probe-web.png');
    expect(await loadByClick(web, at('/inline.png?secret=s1'))).toMatch(/^blob:/);
    sawOnlyTheProxy('/inline.png?secret=s1');
    // Only the clicked image: the others stay placeholders.
    expect(await web.$$eval('.md-view [data-md-image] button', (buttons) => buttons.length)).toBe(2);
    await screenshot(web, 'answer-images-web-loaded-en');

    // A badge's click loads its image; it does not follow the link around it.
    expect(await loadByClick(web, at('/badge.png?secret=s3'))).toMatch(/^blob:/);
    expect(web.url()).toBe(`${stack.origin}/${sessionId}`);
    expect((await ext.browser.pages()).some((p) => p.url().startsWith(at('/ci')))).toBe(false);
  });

  it('side panel: the same chat fetches nothing from the other host; own images show as blob: URLs; a click loads one through the proxy', async () => {
    const panel = await watchedPage();
    await panel.setViewport({ width: 400, height: 900 });
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html#/${sessionId}`);
    await chatShown(panel);

    const shown = await imagesOf(panel);
    expect(shown.placeholders.map(([url]) => url)).toEqual([at('/inline.png?secret=s1'), at('/ref.png?secret=s2'), at('/badge.png?secret=s3')]);
    // The extension's CSP lets in no other origin, the server's included: its images come as blob: URLs.
    expect(shown.sources.length).toBeGreaterThanOrEqual(2);
    expect(shown.sources.filter((src) => !src.startsWith('blob:'))).toEqual([]);
    await screenshot(panel, 'answer-images-side-panel-placeholders-en');

    await cspRefuses(panel, '/csp-probe-panel.png');
    expect(await loadByClick(panel, at('/ref.png?secret=s2'))).toMatch(/^blob:/);
    sawOnlyTheProxy('/ref.png?secret=s2');
    await screenshot(panel, 'answer-images-side-panel-loaded-en');
  });
});
