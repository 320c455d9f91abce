/**
 * Takes the installation guide's screenshots (public/guide/<language>/<step>.webp, shown by /guide
 * in that language) in the Chromium the browser tests use, with the unpacked build loaded, once per
 * language: the home page's install buttons, chrome://extensions before and after turning on
 * developer mode (the switch, then "Load unpacked", outlined), and the side panel. Chromium's own
 * pages are in Chinese only with the chromium-l10n package installed. Run after a build:
 * node --import tsx scripts/guide-screenshots.ts
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { GUIDE_LANGUAGES } from '../components/newcomers/guide-steps.ts';
import { CHROMIUM, launchWithExtension, openSidePanel, settled, startStack, useServer, waitForText } from '../tests/e2e/harness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The browser's language for each of the guide's. */
const BROWSER_LANGUAGE: Record<(typeof GUIDE_LANGUAGES)[number], string> = { en: 'en-US', zh: 'zh-CN' };

async function save(page: Page, language: string, step: string): Promise<void> {
  await settled(page);
  const png = await page.screenshot({ type: 'png' });
  const file = path.join('public', 'guide', language, `${step}.webp`);
  await sharp(png).resize({ width: 900, withoutEnlargement: true }).webp({ quality: 72 }).toFile(path.join(root, file));
  console.log(file);
}

/** Outlines an element inside chrome://extensions' shadow roots (found by a path of selectors). */
async function outline(page: Page, selectors: string[]): Promise<void> {
  await page.evaluate((path) => {
    let node: Element | ShadowRoot | Document = document;
    for (const selector of path) {
      const found: Element | null = (node as ParentNode).querySelector(selector);
      if (!found) throw new Error(`not found: ${selector}`);
      node = found.shadowRoot ?? found;
    }
    const element = (node instanceof ShadowRoot ? node.host : node) as HTMLElement;
    element.style.outline = '3px solid #e8590c';
    element.style.outlineOffset = '3px';
    element.style.borderRadius = '6px';
  }, selectors);
}

async function shoot(language: (typeof GUIDE_LANGUAGES)[number]): Promise<void> {
  mkdirSync(path.join(root, 'public', 'guide', language), { recursive: true });
  const [stack, ext] = await Promise.all([startStack(), launchWithExtension(BROWSER_LANGUAGE[language])]);
  try {
    await useServer(ext.control, stack.origin);
    const home = await ext.browser.newPage();
    await home.setViewport({ width: 1100, height: 640 });
    await home.goto(`${stack.origin}/home`);
    await home.waitForSelector('[data-testid="install-chrome"]');
    await save(home, language, 'download');

    const page = await ext.browser.newPage();
    await page.setViewport({ width: 1100, height: 560 });
    await page.goto('chrome://extensions');
    await page.waitForFunction(() => !!document.querySelector('extensions-manager')?.shadowRoot?.querySelector('extensions-toolbar'));
    await save(page, language, 'extensions');

    const devMode = ['extensions-manager', 'extensions-toolbar', '#devMode'];
    await page.evaluate(() => {
      const toolbar = document.querySelector('extensions-manager')!.shadowRoot!.querySelector('extensions-toolbar')!.shadowRoot!;
      const toggle = toolbar.querySelector<HTMLElement>('#devMode')!;
      if (toggle.getAttribute('aria-pressed') !== 'true' && !(toggle as unknown as { checked: boolean }).checked) toggle.click();
    });
    await page.waitForFunction(() => !!document.querySelector('extensions-manager')!.shadowRoot!.querySelector('extensions-toolbar')!.shadowRoot!.querySelector('#loadUnpacked'));
    await outline(page, devMode);
    await save(page, language, 'developer');
    await page.reload();
    await page.waitForFunction(() => !!document.querySelector('extensions-manager')?.shadowRoot?.querySelector('extensions-toolbar')?.shadowRoot?.querySelector('#loadUnpacked'));
    await outline(page, ['extensions-manager', 'extensions-toolbar', '#loadUnpacked']);
    await save(page, language, 'load');

    const panel = await openSidePanel(ext);
    await panel.setViewport({ width: 400, height: 640 });
    await panel.waitForSelector('textarea');
    await waitForText(panel, /How can I help you today|Ask a question|今天我能帮你|提出问题/);
    await save(panel, language, 'pin');
  } finally {
    await ext.close();
    await stack.close();
  }
}

if (!existsSync(path.join(path.dirname(CHROMIUM), 'locales', 'zh-CN.pak')) && !existsSync('/usr/lib/chromium/locales/zh-CN.pak')) {
  console.warn('Chromium has no Chinese: its own pages will be in English (apt-get install chromium-l10n)');
}
for (const language of GUIDE_LANGUAGES) await shoot(language);
process.exit(0);
