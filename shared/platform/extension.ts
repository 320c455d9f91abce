import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod';
import { PdfFetchError, readBounded, startsLikePdf } from '../utils/pdf-tab.ts';
import type { DocumentReading } from '../utils/read-document.ts';
import type { VideoReading } from '../utils/video-transcript.ts';
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
const VideoReadingSchema = z.object({
  kind: z.literal('video'),
  platform: z.enum(['youtube', 'bilibili']),
  title: z.string().max(1000),
  url: z.string().max(100_000),
  durationSeconds: z.number().min(0),
  language: z.string().max(100),
  source: z.enum(['panel', 'captions', 'description']),
  segments: z.array(z.object({ start: z.number().min(0), text: z.string().max(100_000) })).max(100_000),
  chapters: z.array(z.object({ start: z.number().min(0), title: z.string().max(1000) })).max(1000),
  description: z.string().max(100_000),
  live: z.boolean(),
  note: z.string().max(100),
}) satisfies z.ZodType<VideoReading>;

const DocumentReadingSchema = z.object({
  title: z.string().max(1000),
  url: z.string().max(100_000),
  icon: z.string().max(100_000),
  markdown: z.string().max(2_000_000),
  video: VideoReadingSchema.optional(),
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
 * The content type of the document open in tab `tabId` (document.contentType: "application/pdf" for
 * a PDF in the browser's viewer, whatever its address); '' when the tab cannot be read.
 */
export async function tabContentType(tabId: number): Promise<string> {
  try {
    const [injection] = await browser.scripting.executeScript({ target: { tabId }, func: () => document.contentType });
    return typeof injection?.result === 'string' ? injection.result.slice(0, 200) : '';
  } catch {
    return '';
  }
}

/** A file:// address, read with XMLHttpRequest (what extension pages may read files with, once allowed). */
function readFileUrl(url: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', url);
    request.responseType = 'arraybuffer';
    request.onprogress = (event) => {
      if (event.loaded > maxBytes) {
        request.abort();
        reject(new PdfFetchError('tooLarge'));
      }
    };
    request.onload = () => {
      const bytes = new Uint8Array(request.response as ArrayBuffer);
      if (bytes.byteLength > maxBytes) reject(new PdfFetchError('tooLarge'));
      else resolve(bytes);
    };
    request.onerror = () => reject(new PdfFetchError('network'));
    signal?.addEventListener('abort', () => {
      request.abort();
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    });
    request.send();
  });
}

/**
 * The bytes of the PDF at `url`, fetched by the extension as the user's browser: with the user's
 * cookies (credentials included; the extension's host access lets it read any site's answer), so a
 * PDF behind the user's login comes as the user sees it. At most `maxBytes` (refused as 'tooLarge'
 * as soon as more is seen). A file:// PDF needs the user's "Allow access to file URLs"
 * ('fileAccess' without it). Failures are PdfFetchErrors; an abort rejects as fetch does.
 */
export async function fetchPdf(url: string, maxBytes: number, signal?: AbortSignal): Promise<Blob> {
  let bytes: Uint8Array;
  if (url.startsWith('file:')) {
    if (!(await browser.extension.isAllowedFileSchemeAccess())) throw new PdfFetchError('fileAccess');
    bytes = await readFileUrl(url, maxBytes, signal);
  } else {
    let response: Response;
    try {
      response = await fetch(url, { credentials: 'include', redirect: 'follow', cache: 'no-store', signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new PdfFetchError('network');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new PdfFetchError('httpStatus', response.status);
    }
    bytes = await readBounded(response, maxBytes);
  }
  if (!startsLikePdf(bytes)) throw new PdfFetchError('notPdf');
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });
}

/**
 * The visible part of the active tab of window `windowId` (the side panel's own window when
 * absent), as a data URL: PNG, or JPEG when asked (a fraction of the size, for very large screens).
 */
export function captureVisibleTab(windowId: number | undefined, format: 'png' | 'jpeg' = 'png'): Promise<string> {
  const options: Browser.extensionTypes.ImageDetails = format === 'jpeg' ? { format, quality: 85 } : { format };
  return windowId === undefined ? browser.tabs.captureVisibleTab(options) : browser.tabs.captureVisibleTab(windowId, options);
}

/**
 * Moves the video playing in tab `tabId` to `seconds` and plays it (a timestamp of an answer about
 * that video). Answers false when the page has no video element.
 */
export async function seekTabVideo(tabId: number, seconds: number): Promise<boolean> {
  const [injection] = await browser.scripting.executeScript({
    target: { tabId },
    func: (at: number) => {
      const video = document.querySelector('video');
      if (!video) return false;
      video.currentTime = at;
      void video.play().catch(() => undefined);
      return true;
    },
    args: [seconds],
  });
  return injection?.result === true;
}

/** The tabs as the platform offers them to components (TabAccess). */
export const extensionTabs: TabAccess = {
  queryActiveTab,
  watchActiveTab,
  readTabPage,
  captureVisibleTab,
  tabContentType,
  fetchPdf,
  seekTabVideo,
  // The translator's config and preferences load on the first use (not in the side panel's entry).
  translatePage: async (tabId, language) => (await import('./page-translate.ts')).togglePageTranslation(tabId, language),
};
