import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, makeScannedPdf } from '../fixtures/documents.ts';
import { type ExtensionBrowser, launchWithExtension, openSignedInPanel, openTabBeside, screenshot, screenshotOnFailure, type Stack, startStack, useServer } from './harness.ts';

/**
 * "Read this page" beside a PDF, in Chromium with the extension loaded: the extension fetches the
 * PDF itself with the user's cookies, the server reads it page by page, the chip shows its pages,
 * and the model gets the pages numbered (and is asked to cite them). A scan without a text layer,
 * and a file:// PDF without file access, are refused with a message saying why.
 */

const SESSION_COOKIE = 'otter_session=signed-in-42';

type PdfSite = { server: Server; origin: string; requests: { url: string; headers: IncomingHttpHeaders }[] };

/** A small site on loopback: a public PDF at a .pdf address, one behind a login cookie (no .pdf in its address), a scan. */
async function startPdfSite(files: { report: Buffer; privateReport: Buffer; scan: Buffer }): Promise<PdfSite> {
  const requests: PdfSite['requests'] = [];
  const pdf = (res: import('node:http').ServerResponse, bytes: Buffer) =>
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': bytes.length, 'content-disposition': 'inline' }).end(bytes);
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    if (req.url?.startsWith('/docs/otter-report.pdf')) return pdf(res, files.report);
    if (req.url === '/scans/old-survey.pdf') return pdf(res, files.scan);
    if (req.url === '/members/report') {
      if (!(req.headers.cookie ?? '').split(/;\s*/).includes(SESSION_COOKIE)) {
        return res.writeHead(403, { 'content-type': 'text/plain' }).end('Sign in first');
      }
      return pdf(res, files.privateReport);
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

// Uploads are read by the server's PDF worker: slow on a busy two-core machine.
describe('Reading a PDF in the tab beside the side panel', { timeout: 180_000 }, () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let site: PdfSite;
  let panel: Page;
  let folder: string;
  const composerChip = (name: string) => `[data-testid="composer"] ::-p-text(${name})`;
  const lastUserContent = () => stack.upstream.requests.at(-1)!.body.messages.at(-1).content as unknown;
  const textOf = (content: unknown) =>
    typeof content === 'string' ? content : (content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text).join('\n');

  screenshotOnFailure('pdf-tab', () => [panel]);

  beforeAll(async () => {
    const picture = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#777766' } }).png().toBuffer();
    site = await startPdfSite({
      report: await makePdf(
        [['Otter survey 2026', 'Spring count at the river.'], ['Page two findings:', 'Otters were seen 42 times at the weir.'], ['Closing notes.']],
        { title: 'Otter survey 2026' },
      ),
      privateReport: await makePdf([['Members only'], ['Members report page two:', 'The otter holt has 3 entrances.']], { title: 'Members report' }),
      scan: await makeScannedPdf(picture, 2),
    });
    folder = mkdtempSync(path.join(os.tmpdir(), 'tandem-pdf-'));
    writeFileSync(path.join(folder, 'local-notes.pdf'), await makePdf([['Local notes']]));
    [stack, ext] = await Promise.all([startStack({ OPENAI_MODELS: 'basic-model:0' }), launchWithExtension()]);
    await useServer(ext.control, stack.origin);
    panel = await openSignedInPanel(ext, stack);
  }, 120_000);

  afterAll(async () => {
    await ext?.close();
    await stack?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** Presses "Read this page" for the tab titled `title`, and waits for its chip to settle. */
  async function readPage(title: string, lang: 'en' | 'zh' = 'en'): Promise<void> {
    const label = lang === 'en' ? `Read this page: ${title}` : `读取此网页：${title}`;
    const read = await panel.waitForSelector(`::-p-aria(${label})`, { timeout: 15_000 });
    await read!.click();
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'), { timeout: 90_000 });
  }

  async function send(text: string): Promise<void> {
    await panel.locator('textarea').fill(text);
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('::-p-aria(Stop)', { timeout: 5_000 }).catch(() => {});
    await panel.waitForSelector('::-p-aria(Send)', { timeout: 90_000 });
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'));
  }

  async function setLanguage(lang: 'en' | 'zh'): Promise<void> {
    await ext.control.evaluate((value) => chrome.storage.local.set({ 'tandem.language': { v: 1, value } }), lang);
    await panel.reload();
    await panel.waitForSelector('textarea');
  }

  it('reads a PDF page by page: the chip shows its pages, the model gets them numbered and cites them', async () => {
    const tab = await openTabBeside(ext, `${site.origin}/docs/otter-report.pdf?from=mail`);
    await readPage('Otter survey 2026');
    await panel.waitForSelector(composerChip('Otter survey 2026'));
    const pages = await panel.$eval('[data-testid="composer"] [data-testid="attachment-pages"]', (el) => el.textContent);
    expect(pages).toBe('3 pages');

    stack.upstream.script('basic-model', { chunks: ['The otters were seen 42 times at the weir ', '(p. 2).'] });
    await send('How often were otters seen?');
    const sent = textOf(lastUserContent());
    expect(sent).toContain('--- Page 2 ---\nPage two findings:\nOtters were seen 42 times at the weir.');
    expect(sent).toContain('--- Page 3 ---');
    expect(sent).toContain('cite the page each point comes from as (p. N)');
    expect(sent.trim().endsWith('How often were otters seen?')).toBe(true);
    await panel.waitForSelector('[data-testid="chat-turn"] ::-p-text((p. 2))');
    await screenshot(panel, 'pdf-tab-chat-en');
    await tab.close();
  });

  it('fetches a PDF behind the user login with the user cookies (found by its content type)', async () => {
    // The user is signed in to the site: the browser holds its session cookie.
    await ext.browser.setCookie({ name: 'otter_session', value: 'signed-in-42', domain: '127.0.0.1', path: '/' });
    const tab = await openTabBeside(ext, `${site.origin}/members/report`);
    const before = site.requests.length;
    await setLanguage('zh');
    await readPage('Members report', 'zh');
    await panel.waitForSelector(composerChip('Members report'));
    expect(await panel.$eval('[data-testid="composer"] [data-testid="attachment-pages"]', (el) => el.textContent)).toBe('2 页');
    // The extension's own request carried the cookie (the server answers 403 without it).
    const fetched = site.requests.slice(before).filter((r) => r.url === '/members/report');
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((r) => (r.headers.cookie ?? '').includes(SESSION_COOKIE))).toBe(true);

    stack.upstream.script('basic-model', { chunks: ['洞穴有 3 个入口 ', '(p. 2)。'] });
    // The panel speaks Chinese here (its Send button is not "Send"): the answer shows when it has ended.
    await panel.locator('textarea').fill('洞穴有几个入口？');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('[data-testid="chat-turn"] ::-p-text(洞穴有 3 个入口)', { timeout: 90_000 });
    const sent = textOf(lastUserContent());
    expect(sent).toContain('--- Page 2 ---\nMembers report page two:\nThe otter holt has 3 entrances.');
    await panel.waitForSelector('[data-testid="chat-turn"] ::-p-text((p. 2))');
    await screenshot(panel, 'pdf-tab-chat-zh');
    await setLanguage('en');
    await tab.close();
  });

  it('says a scanned PDF has no text layer, and attaches nothing', async () => {
    await setLanguage('en');
    stack.upstream.reset();
    const tab = await openTabBeside(ext, `${site.origin}/scans/old-survey.pdf`);
    await readPage('old-survey.pdf');
    await panel.waitForSelector('[data-testid="composer"] ::-p-text(has no text layer (it looks scanned); Tandem cannot read it)');
    expect(await panel.$('[data-testid="composer"] .attachment-chip[data-status="error"]')).not.toBeNull();
    await screenshot(panel, 'pdf-tab-scanned-en');
    // Nothing of it goes with a message.
    await panel.click('[data-testid="composer"] .attachment-chip[data-status="error"] button[aria-label^="Remove"]');
    await panel.waitForSelector('[data-testid="composer"] .attachment-chip[data-status="error"]', { hidden: true });
    await tab.close();
  });

  it('reads a PDF opened from this computer (file://) when file access is allowed', async () => {
    // Chromium allows file access to an extension loaded with --load-extension; without it the chip
    // says how to turn on "Allow access to file URLs" (chat.content.pdf.fileAccess).
    const tab = await openTabBeside(ext, `file://${path.join(folder, 'local-notes.pdf')}`);
    await readPage('local-notes.pdf');
    await panel.waitForSelector(composerChip('local-notes.pdf'));
    expect(await panel.$eval('[data-testid="composer"] [data-testid="attachment-pages"]', (el) => el.textContent)).toBe('1 page');
    await tab.close();
  });
});
