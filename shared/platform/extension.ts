import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod';
import type { DocumentReading } from '../utils/read-document.ts';
import { togglePageTranslation } from './page-translate.ts';
import type { ActiveTab, TabAccess } from './platform.ts';

/**
 * The extension APIs the UI needs beyond storage (with shared/storage/extension.ts and
 * shared/messaging, the only code that touches `browser`). Nothing runs at module load. Extension
 * entrypoints give `extensionTabs` to startApp; components reach it as `usePlatform().tabs`.
 */

/** The active tab of the last focused window; null when there is none or its address is hidden. */
export async function queryActiveTab(): Promise<ActiveTab | null> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  // url and title need the "tabs" permission (wxt.config.ts); without it they are absent.
  if (!tab?.url) return null;
  return { id: tab.id, windowId: tab.windowId, url: tab.url, title: tab.title || tab.url, favIconUrl: tab.favIconUrl || undefined };
}

/**
 * Calls `onChange` when the active tab may have changed: another tab or window chosen, or the
 * active tab finished loading or changed its address or title. Returns the unsubscribe.
 */
export function watchActiveTab(onChange: () => void): () => void {
  const onUpdated = (_tabId: number, change: Browser.tabs.OnUpdatedInfo, updated: Browser.tabs.Tab) => {
    if (!updated.active) return;
    if (change.status === 'complete' || change.title !== undefined || change.url !== undefined) onChange();
  };
  const onActivated = () => onChange();
  const onFocusChanged = () => onChange();
  browser.tabs.onActivated.addListener(onActivated);
  browser.tabs.onUpdated.addListener(onUpdated);
  browser.windows?.onFocusChanged.addListener(onFocusChanged);
  return () => {
    browser.tabs.onActivated.removeListener(onActivated);
    browser.tabs.onUpdated.removeListener(onUpdated);
    browser.windows?.onFocusChanged.removeListener(onFocusChanged);
  };
}

/** The script entrypoints/tab-reader.ts is built to. */
const TAB_READER_SCRIPT = '/tab-reader.js';

/**
 * What the tab reader answers. It runs inside the page's renderer, which the page's own scripts
 * share: it is checked like any message from a page, and held to sizes the upload accepts anyway.
 */
const DocumentReadingSchema = z.object({
  title: z.string().max(1000),
  url: z.string().max(100_000),
  icon: z.string().max(100_000),
  markdown: z.string().max(2_000_000),
}) satisfies z.ZodType<DocumentReading>;

/**
 * Reads the page open in tab `tabId` as its user sees it (signed in, after its scripts ran): the tab
 * reader is injected into it and answers the page's title, address, icon and readable Markdown.
 * Needs host access to the page (wxt.config.ts); browser pages and the extension store refuse it.
 */
export async function readTabPage(tabId: number): Promise<DocumentReading> {
  const [injection] = await browser.scripting.executeScript({ target: { tabId }, files: [TAB_READER_SCRIPT] });
  const reading = DocumentReadingSchema.safeParse(injection?.result);
  if (!reading.success) throw new Error('the tab reader answered nothing usable');
  return reading.data;
}

/**
 * The visible part of the active tab of window `windowId` (the side panel's own window when
 * absent), as a data URL: PNG, or JPEG when asked (a fraction of the size, for very large screens).
 */
export function captureVisibleTab(windowId: number | undefined, format: 'png' | 'jpeg' = 'png'): Promise<string> {
  const options: Browser.extensionTypes.ImageDetails = format === 'jpeg' ? { format, quality: 85 } : { format };
  return windowId === undefined ? browser.tabs.captureVisibleTab(options) : browser.tabs.captureVisibleTab(windowId, options);
}

/** The tabs as the platform offers them to components (TabAccess). */
export const extensionTabs: TabAccess = { queryActiveTab, watchActiveTab, readTabPage, captureVisibleTab, translatePage: (tabId, language) => togglePageTranslation(tabId, language) };
