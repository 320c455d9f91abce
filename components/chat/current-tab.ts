import { useEffect, useState } from 'react';
import type { ActiveTab, TabAccess } from '../../shared/platform/platform.ts';

/**
 * The active tab of the last focused window, followed as the user switches tabs or windows and as
 * pages finish loading or change their title. `tabs` is the platform's (usePlatform().tabs):
 * extension pages only.
 */
export function useCurrentTab(tabs: TabAccess): ActiveTab | null {
  const [tab, setTab] = useState<ActiveTab | null>(null);

  useEffect(() => {
    let alive = true;
    // Answers can come back out of order: only the latest query's is kept.
    let latest = 0;
    const refresh = () => {
      const asked = ++latest;
      tabs.queryActiveTab().then(
        (found) => {
          if (alive && asked === latest) setTab(found);
        },
        (error: unknown) => {
          console.warn('reading the active tab failed', error);
          if (alive && asked === latest) setTab(null);
        },
      );
    };
    refresh();
    const unwatch = tabs.watchActiveTab(refresh);
    return () => {
      alive = false;
      unwatch();
    };
  }, [tabs]);

  return tab;
}

/** Why the extension cannot read a tab's page: the browser's own pages, its extension store, or not a web page. */
export type UnreadableReason = 'browserPage' | 'storePage' | 'notWebPage';

/** Browsers keep extensions out of their extension stores, even with access to every site. */
const STORE_PAGES = [
  { host: 'chromewebstore.google.com', path: '/' },
  { host: 'chrome.google.com', path: '/webstore' },
  { host: 'microsoftedge.microsoft.com', path: '/addons' },
];

/** Schemes of the browser's own pages (settings, extensions, new tab, devtools, page source). */
const BROWSER_SCHEMES = /^(chrome|edge|about|chrome-extension|extension|devtools|view-source|chrome-search|chrome-untrusted|brave|opera|vivaldi):/i;

/** Why the page at `url` cannot be read in its tab, or null when it can (an http(s) web page). */
export function unreadableReason(url: string): UnreadableReason | null {
  if (BROWSER_SCHEMES.test(url)) return 'browserPage';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'notWebPage';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'notWebPage';
  const host = parsed.hostname.toLowerCase();
  if (STORE_PAGES.some((store) => host === store.host && parsed.pathname.startsWith(store.path))) return 'storePage';
  return null;
}
