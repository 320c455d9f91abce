import { browser, type Browser } from 'wxt/browser';

/**
 * The extension APIs the UI needs beyond storage (DESIGN.md rule 3: the one place besides
 * shared/storage/extension.ts that touches `browser`). Nothing runs at module load; callers use
 * these only on extension pages (`usePlatform().isExtension`).
 */

/** The tab the side panel sits beside, as far as the chat needs it. */
export interface ActiveTab {
  id?: number;
  url: string;
  title: string;
  favIconUrl?: string;
}

/** The active tab of the last focused window; null when there is none or its address is hidden. */
export async function queryActiveTab(): Promise<ActiveTab | null> {
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  // url and title need the "tabs" permission (wxt.config.ts); without it they are absent.
  if (!tab?.url) return null;
  return { id: tab.id, url: tab.url, title: tab.title || tab.url, favIconUrl: tab.favIconUrl || undefined };
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
