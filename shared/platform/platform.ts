import type { DocumentReading } from '../utils/read-document.ts';
import { isInstalledAppMode } from './display-mode.ts';

/** Where this bundle runs: the web page, the extension, or mobile web (H5). */
export type Scene = 'web' | 'extension' | 'h5';

/** The tab the side panel sits beside, as far as the chat needs it. */
export interface ActiveTab {
  id?: number;
  /** The window the tab is in: the one a screenshot captures. */
  windowId?: number;
  url: string;
  title: string;
  favIconUrl?: string;
}

/**
 * The browser's tabs, as the chat uses them beside a page: the active tab and its changes, reading
 * its page, capturing it. Only extension pages have them (shared/platform/extension.ts, given by the
 * entrypoint at start-up); on the web page `Platform.tabs` is null and the UI hides those actions.
 */
export interface TabAccess {
  queryActiveTab(): Promise<ActiveTab | null>;
  /** Calls `onChange` when the active tab may have changed; returns the unsubscribe. */
  watchActiveTab(onChange: () => void): () => void;
  readTabPage(tabId: number): Promise<DocumentReading>;
  captureVisibleTab(windowId: number | undefined, format?: 'png' | 'jpeg'): Promise<string>;
  /** The content type of the tab's document ("application/pdf" for a PDF); '' when it cannot be read. */
  tabContentType(tabId: number): Promise<string>;
  /**
   * The bytes of a PDF the tab shows, fetched with the user's cookies, at most `maxBytes`; failures
   * are PdfFetchErrors (shared/utils/pdf-tab.ts).
   */
  fetchPdf(url: string, maxBytes: number, signal?: AbortSignal): Promise<Blob>;
  /** Moves the tab's video to `seconds` and plays it; false when the page has no video. */
  seekTabVideo(tabId: number, seconds: number): Promise<boolean>;
  /** Translates the tab's page in place, or shows its original (shared/platform/page-translate.ts); answers the page's state. */
  translatePage?(tabId: number, language: 'en' | 'zh'): Promise<'translated' | 'original'>;
}

export interface Platform {
  /** An extension page (side panel, popup, app.html inside the extension). */
  isExtension: boolean;
  scene: Scene;
  /** Narrow screen: width 768 or less. */
  isH5: boolean;
  /** Installed-app mode: standalone or fullscreen display, except at the root path. */
  standalone: boolean;
  /** The browser's tabs: extension pages only, null on the web page. */
  tabs: TabAccess | null;
}

/** The mobile web threshold. */
export const H5_MAX_WIDTH = 768;

/**
 * The spec's mobile/PC breakpoint (§9): from this width up, the wide layout (the chat's history
 * sidebar open beside it); a desktop screen narrower than this starts with the sidebar collapsed.
 */
export const WIDE_MIN_WIDTH = 1260;

/** A screen narrower than the wide layout, as a media query (what `useWideLayout` watches). */
export const BELOW_WIDE_QUERY = `(max-width: ${WIDE_MIN_WIDTH - 0.02}px)`;

/** What detection looks at; the defaults read the running page. */
export interface PlatformProbe {
  /** The global `chrome`, if any. */
  chrome: unknown;
  width: number;
  pathname: string;
  matchMedia: (query: string) => { matches: boolean };
}

function currentProbe(): PlatformProbe {
  return {
    chrome: typeof chrome === 'undefined' ? undefined : chrome,
    width: window.innerWidth,
    pathname: window.location.pathname,
    matchMedia: (query) => (typeof window.matchMedia === 'function' ? window.matchMedia(query) : { matches: false }),
  };
}

/**
 * Chosen once at start-up by each entrypoint. A normal web page has a `chrome` global without
 * `runtime.id`, so only a runtime id means "extension". Reads no extension API beyond that
 * property, so the web page may call it. The tabs are given by the entrypoint (startApp's `tabs`).
 */
export function detectPlatform(probe: PlatformProbe = currentProbe()): Platform {
  const runtime = (probe.chrome as { runtime?: { id?: string } } | undefined)?.runtime;
  const isExtension = !!runtime?.id;
  const isH5 = probe.width <= H5_MAX_WIDTH;
  const displayStandalone =
    probe.matchMedia('(display-mode: standalone)').matches || probe.matchMedia('(display-mode: fullscreen)').matches;
  return {
    isExtension,
    // The extension's panel is narrow too, but it is the extension scene: H5 means mobile web.
    scene: isExtension ? 'extension' : isH5 ? 'h5' : 'web',
    isH5,
    standalone: isInstalledAppMode(probe.pathname, { standalone: displayStandalone, fullscreen: false }),
    tabs: null,
  };
}
