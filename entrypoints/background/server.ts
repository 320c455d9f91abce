import { browser } from 'wxt/browser';
import { setApiBase } from '../../shared/api/request.ts';
import { serverUrlFor, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { loadPersisted, watchPersisted } from '../../shared/storage/active.ts';

let known: string | undefined;

/**
 * The server URL once read. Message handlers that must stay synchronous (sidePanel.open needs the
 * sender's user gesture, which an await would lose) use it; undefined only on a cold start.
 */
export function knownServerUrl(): string | undefined {
  return known;
}

export async function loadServerUrl(): Promise<string> {
  return known ?? serverUrlFor(await loadPersisted(serverUrlPersisted));
}

/** The build's version ('' where there is no manifest to read: the tests' fake browser). */
function extensionVersion(): string {
  try {
    return browser.runtime.getManifest().version;
  } catch {
    return '';
  }
}

function setUninstallUrl(server: string): void {
  // Uninstalling opens the uninstall feedback page of the server the user used, saying which
  // build left (the page sends it with the answer): its version and browser (WXT's build target).
  const query = new URLSearchParams({ v: extensionVersion(), browser: String(import.meta.env.BROWSER ?? 'chrome') });
  try {
    browser.runtime.setUninstallURL(`${server}/feedback?${query}`).catch((error: unknown) => console.error('setUninstallURL failed', error));
  } catch (error) {
    console.error('setUninstallURL failed', error);
  }
}

/**
 * Follows the chosen server: the API base of the background's own calls (the logout message
 * revokes the token there) and the uninstall URL.
 */
export function wireServer(): () => void {
  const apply = (chosen: string | null) => {
    const url = serverUrlFor(chosen);
    if (url === known) return;
    known = url;
    setApiBase(url);
    setUninstallUrl(url);
  };
  const stopWatch = watchPersisted(serverUrlPersisted, apply);
  void loadPersisted(serverUrlPersisted).then(apply);
  return () => {
    stopWatch();
    known = undefined;
  };
}
