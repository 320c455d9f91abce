import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../fixtures/documents.ts';
import { TINY_PNG } from '../fixtures/fake-images.ts';
import { startFakeSearxng, type FakeSearxng } from '../fixtures/fake-searxng.ts';
import { type ExtensionBrowser, launchWithExtension, LIVE_PAGE_SENTENCE, openSignedInPanel, openTabBeside, screenshot, settled, type Stack, startStack, useServer } from './harness.ts';

/**
 * Giving the model context from the side panel, in Chromium with the extension loaded: the page in
 * the tab beside it, a pasted image, a dropped PDF, and the model switch that drops what the new
 * model cannot read. The fake upstream records what the model received.
 */
describe('Context for the assistant, in the side panel', () => {
  let stack: Stack;
  let searx: FakeSearxng;
  let ext: ExtensionBrowser;
  let panel: Page;
  /** The last message the model received, as the OpenAI protocol carries it. */
  const lastUserContent = () => stack.upstream.requests.at(-1)!.body.messages.at(-1).content as unknown;
  const composerChip = (name: string) => `[data-testid="composer"] ::-p-text(${name})`;

  beforeAll(async () => {
    searx = await startFakeSearxng();
    // gpt-4o-mini is catalogued as a vision model, basic-model reads text only; both may search.
    [stack, ext] = await Promise.all([
      startStack({ OPENAI_MODELS: 'basic-model:0,gpt-4o-mini:0', SEARXNG_URL: searx.url, READER_ALLOWLIST: searx.host }),
      launchWithExtension(),
    ]);
    await useServer(ext.control, stack.origin);
    panel = await openSignedInPanel(ext, stack);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && panel && !panel.isClosed()) {
      await screenshot(panel, `failed-context-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });

  afterAll(async () => {
    await ext?.close();
    await stack?.close();
    await searx?.close();
  });

  /** Sends a message and waits until its answer has ended. */
  async function send(text: string): Promise<void> {
    await panel.locator('textarea').fill(text);
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('::-p-aria(Stop)', { timeout: 5_000 }).catch(() => {});
    await panel.waitForSelector('::-p-aria(Send)');
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'));
  }

  it('reads the page in the tab beside it, as its scripts left it, and the answer quotes it', async () => {
    const site = await openTabBeside(ext, `${stack.siteOrigin}/live`);
    await site.waitForFunction((s) => document.body.innerText.includes(s), {}, LIVE_PAGE_SENTENCE);

    const read = await panel.waitForSelector('::-p-aria(Read this page: Otter fur | Field Notes)', { timeout: 15_000 });
    await read!.click();
    await panel.waitForSelector(composerChip('Otter fur | Field Notes'));
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'));
    await screenshot(panel, 'side-panel-tab-read-en');

    await send('How dense is otter fur?');
    const sent = lastUserContent() as string;
    // The sentence exists only in the live page (its script wrote it): read in the tab, not refetched.
    expect(sent).toContain(LIVE_PAGE_SENTENCE);
    expect(sent.trim().endsWith('How dense is otter fur?')).toBe(true);
    // The answer (the fake echoes what it was given) quotes the page.
    const answer = await panel.$$eval('[data-testid="chat-turn"] [data-author="model"]', (bubbles) => (bubbles.at(-1) as HTMLElement).innerText);
    expect(answer).toContain(LIVE_PAGE_SENTENCE);
    await site.close();
  });

  it('sends a pasted image and a dropped PDF to the model', async () => {
    await panel.bringToFront();
    const pdf = await makePdf([['Tandem field guide, page one.'], ['Otters use stones as tools, page two.']]);
    // A screenshot pasted from the clipboard, and a PDF dragged in from the desktop.
    await panel.evaluate(
      (png, doc) => {
        const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const paste = new DataTransfer();
        paste.items.add(new File([bytes(png)], 'clipboard.png', { type: 'image/png' }));
        document.querySelector('textarea')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }));
        const drop = new DataTransfer();
        drop.items.add(new File([bytes(doc)], 'guide.pdf', { type: 'application/pdf' }));
        const target = document.querySelector('textarea')!;
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: drop, bubbles: true, cancelable: true }));
        }
      },
      TINY_PNG.toString('base64'),
      pdf.toString('base64'),
    );
    await panel.waitForSelector(composerChip('guide.pdf'));
    await panel.waitForSelector('[data-testid="composer"] img');
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'));
    await screenshot(panel, 'side-panel-attachments-en');

    await send('What do these say?');
    const parts = lastUserContent() as { type: string; text?: string; image_url?: { url: string } }[];
    expect(Array.isArray(parts)).toBe(true);
    const image = parts.find((p) => p.type === 'image_url');
    expect(image?.image_url?.url).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
    expect(text).toContain('Tandem field guide, page one.');
    expect(text).toContain('Otters use stones as tools, page two.');
    // auto took the model that can see the image.
    expect(stack.upstream.requests.at(-1)!.model).toBe('gpt-4o-mini');
    // The sent message shows what went with it.
    await panel.waitForSelector('[data-testid="chat-turn"] ::-p-text(guide.pdf)');
    await screenshot(panel, 'side-panel-attachments-answer-en');
  });

  it('asks before switching to a model that cannot read the attachments, and drops them only then', async () => {
    await panel.evaluate((png) => {
      const paste = new DataTransfer();
      paste.items.add(new File([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], 'photo.png', { type: 'image/png' }));
      document.querySelector('textarea')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }));
    }, TINY_PNG.toString('base64'));
    await panel.waitForSelector(composerChip('photo.png'));
    await panel.waitForFunction(() => !document.querySelector('[data-testid="composer"] .mantine-Loader-root'));

    const pick = async () => {
      await panel.locator('[data-testid="model-picker"]').click();
      await panel.locator('[data-model-id="basic-model"]').click();
      return panel.waitForSelector('::-p-aria([name="Switch model?"][role="dialog"])');
    };
    await pick();
    await screenshot(panel, 'side-panel-model-switch-en');
    await panel.locator('::-p-aria([name="Keep current model"][role="button"])').click();
    await panel.waitForSelector('::-p-aria([name="Switch model?"][role="dialog"])', { hidden: true });
    expect(await panel.$(composerChip('photo.png'))).not.toBeNull();
    expect(await panel.$eval('[data-testid="model-picker"]', (b) => b.textContent)).not.toContain('basic-model');

    await pick();
    await panel.locator('::-p-aria([name="Switch and remove"][role="button"])').click();
    await panel.waitForSelector(composerChip('photo.png'), { hidden: true });
    expect(await panel.$eval('[data-testid="model-picker"]', (b) => b.textContent)).toContain('basic-model');
  });

  it("searches the web: the answer's [n] markers link to the pages read, listed as its sources", async () => {
    const article = (title: string, text: string) => `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${text.repeat(4)}</p></article></body></html>`;
    searx.pages.set('rafting', article('Otters raft together', 'Sea otters hold paws in groups called rafts. '));
    searx.pages.set('tools', article('Otters and stones', 'Otters keep a favourite stone in a pouch under the arm. '));
    searx.results([
      { title: 'Otters raft together', url: searx.page('rafting'), content: 'Rafts of otters' },
      { title: 'Otters and stones', url: searx.page('tools'), content: 'Stone tools' },
    ]);
    stack.upstream.reset();
    stack.upstream.script('basic-model', { chunks: ['Otters hold paws in rafts [1] ', 'and carry a stone [2].'] });
    // The switch dialog of the step before may still be fading out over the composer.
    await panel.waitForSelector('.mantine-Modal-root', { hidden: true });
    await settled(panel);
    await panel.locator('::-p-aria([name="Search the web"][role="button"])').click();
    await panel.waitForSelector('::-p-aria([name="Web search is on"][role="button"])');
    await send('What do otters do?');

    // The model was given the pages it cites, numbered.
    const given = JSON.stringify(stack.upstream.requests.at(-1)!.body.messages);
    expect(given).toContain('Sea otters hold paws in groups called rafts.');
    expect(given).toContain('[2]');
    const links = await panel.$$eval('[data-testid="chat-turn"]:last-of-type .md-cite-link', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      ['1', searx.page('rafting')],
      ['2', searx.page('tools')],
    ]);
    const sources = await panel.waitForSelector('[data-testid="chat-turn"]:last-of-type [data-testid="answer-sources"]');
    expect(await sources!.evaluate((el) => (el as HTMLElement).innerText)).toMatch(/Otters raft together[\s\S]*Otters and stones/);
    await screenshot(panel, 'side-panel-web-search-en');
  });
});
