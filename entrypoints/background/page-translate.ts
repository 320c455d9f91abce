import { browser, type Browser } from 'wxt/browser';
import { browserLanguages, detectLanguage, languagePersisted } from '../../shared/i18n/language.ts';
import { togglePageTranslation } from '../../shared/platform/page-translate.ts';
import { PAGE_TRANSLATOR_SOURCE } from '../../shared/utils/page-translate/protocol.ts';
import { PageTranslatorMessageSchema, type PageTranslatorMessage, type PageTranslatorReply } from '../../shared/utils/page-translate/schemas.ts';
import { loadPersisted, watchPersisted, writePersisted } from '../../shared/storage/active.ts';
import { translatePrefsPersisted } from '../../shared/storage/translate-prefs.ts';
import { callTranslate } from './translate-call.ts';

/** The command declared in wxt.config.ts (Alt+A): translates the active tab's page, or shows its original. */
export const TRANSLATE_PAGE_COMMAND = 'translate-page';

/** Translates (or shows the original of) a tab's page; failures (a browser page, no access) are logged only. */
export function translateTab(tabId: number | undefined, mode: 'toggle' | 'start' = 'toggle'): void {
  if (tabId === undefined) return;
  translateTabNow(tabId, mode).catch((error: unknown) => console.warn('page translation: injecting failed', error));
}

/** The app's language as the extension knows it: the user's choice, else the browser's. */
async function translateTabNow(tabId: number, mode: 'toggle' | 'start'): Promise<string> {
  const language = (await loadPersisted(languagePersisted)) ?? detectLanguage(browserLanguages());
  return togglePageTranslation(tabId, language, mode);
}

async function translateSegments(message: Extract<PageTranslatorMessage, { type: 'translate' }>): Promise<PageTranslatorReply> {
  const outcome = await callTranslate({ segments: message.segments, targetLanguage: message.targetLanguage, estimate: message.estimate });
  if (outcome.ok) return { ok: true, translations: outcome.result.translations, tagsKept: outcome.result.tagsKept, cost: outcome.result.cost };
  if (outcome.reason === 'signIn') return { ok: false, code: 'signedOut', message: outcome.message || 'not signed in' };
  return { ok: false, code: outcome.reason, message: outcome.message };
}

async function updateSite(list: 'always' | 'never', host: string): Promise<PageTranslatorReply> {
  const prefs = await loadPersisted(translatePrefsPersisted);
  const without = (sites: string[]) => sites.filter((site) => site !== host);
  const alwaysSites = list === 'always' ? [...without(prefs.alwaysSites), host].slice(-500) : without(prefs.alwaysSites);
  const neverSites = list === 'never' ? [...without(prefs.neverSites), host].slice(-500) : without(prefs.neverSites);
  await writePersisted(translatePrefsPersisted, { ...prefs, alwaysSites, neverSites });
  return { ok: true, translations: [], tagsKept: [], cost: 0 };
}

/**
 * A message of the page translator (injected in a tab) or of the every-page content script asking for
 * it on a site always translated. Only this extension's scripts in a tab's top frame count, and the
 * payload is checked. Answers whether it was taken (and then answers through `respond`).
 */
export function handlePageTranslatorMessage(message: unknown, sender: Browser.runtime.MessageSender, respond: (reply: PageTranslatorReply) => void): boolean {
  if (typeof message !== 'object' || message === null || (message as { source?: unknown }).source !== PAGE_TRANSLATOR_SOURCE) return false;
  if (sender.id !== browser.runtime.id || sender.tab?.id === undefined || (sender.frameId ?? 0) !== 0) return false;
  const parsed = PageTranslatorMessageSchema.safeParse(message);
  if (!parsed.success) {
    respond({ ok: false, code: 'failed', message: 'bad message' });
    return true;
  }
  const data = parsed.data;
  if (data.type === 'autoStart' || data.type === 'toggle') {
    translateTab(sender.tab.id, data.type === 'toggle' ? 'toggle' : 'start');
    respond({ ok: true, translations: [], tagsKept: [], cost: 0 });
    return true;
  }
  const work = data.type === 'translate' ? translateSegments(data) : updateSite(data.list, data.host);
  work.then(respond, (error: unknown) => respond({ ok: false, code: 'failed', message: String(error) }));
  return true;
}

/** What the end-to-end tests reach through the service worker (a shortcut cannot be pressed headless). */
export interface PageTranslateTestHooks {
  translateTab(tabId: number): Promise<string>;
}

/** The page translator's side in the background: its messages and the keyboard shortcut (the menu item is in selection.ts). */
export function wirePageTranslate(): void {
  // The storage cache is kept current only by a watch: Settings and the page's "Don't ask again"
  // write the preferences in other contexts, and a stale cache would ask (or show) as before.
  watchPersisted(translatePrefsPersisted, () => {});
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // true keeps the channel open for the answer; undefined leaves other messages to their listeners.
    return handlePageTranslatorMessage(message, sender, sendResponse) ? true : undefined;
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === TRANSLATE_PAGE_COMMAND) translateTab(tab?.id);
  });
  (globalThis as { tandemPageTranslate?: PageTranslateTestHooks }).tandemPageTranslate = {
    translateTab: (tabId) => translateTabNow(tabId, 'toggle'),
  };
}
