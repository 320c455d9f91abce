import type { Language } from '../contracts/common.ts';
import type { PageBridge } from '../messaging/page-bridge.ts';
import { loadPersisted, watchPersisted } from '../storage/active.ts';
import { setLanguage } from './i18n.ts';
import { languagePersisted } from './language.ts';

/** How long the web page waits for the extension's bridge before it keeps its own language. */
export const LANGUAGE_SYNC_READY_TIMEOUT_MS = 3_000;

/**
 * On the web app: one language choice with the extension. At start the page takes the extension's
 * choice (getCachedUserConfig); a choice made on the page afterwards is sent to the extension
 * (webUpdatesUserSetting), whose pages follow it at once. Without the extension nothing happens.
 * Returns the stop function; its `started` settles once the start-up exchange is over.
 */
export function startLanguageSync(bridge: PageBridge, readyTimeoutMs = LANGUAGE_SYNC_READY_TIMEOUT_MS): (() => void) & { started: Promise<void> } {
  let stopped = false;
  let stopWatching: (() => void) | undefined;
  /** The language last agreed with the extension, so adopting its choice is not sent back. */
  let agreed: Language | null = null;

  const send = (language: Language | null) => {
    if (stopped || language === null || language === agreed) return;
    agreed = language;
    bridge.request('webUpdatesUserSetting', { setting: { language } }).catch(() => {
      // The extension went away (reloaded, removed): the page's own choice stands.
    });
  };

  const started = (async () => {
    if (!(await bridge.ready(readyTimeoutMs)) || stopped) return;
    const config = await bridge.request('getCachedUserConfig', undefined).catch(() => null);
    if (stopped) return;
    const theirs = config?.language ?? null;
    if (theirs) {
      agreed = theirs;
      if ((await loadPersisted(languagePersisted)) !== theirs) await setLanguage(theirs);
    } else {
      // The extension has no choice yet: it takes the page's, if the page made one.
      send(await loadPersisted(languagePersisted));
    }
    if (!stopped) stopWatching = watchPersisted(languagePersisted, send);
  })();

  const stop = () => {
    stopped = true;
    stopWatching?.();
  };
  return Object.assign(stop, { started });
}
