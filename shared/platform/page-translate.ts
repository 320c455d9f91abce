import { browser } from 'wxt/browser';
import type { Language } from '../contracts/common.ts';
import type { TranslateLanguage, TranslatePrefs } from '../contracts/translate.ts';
import { PAGE_TRANSLATOR_SCRIPT, type PageTranslationState, type PageTranslatorConfig } from '../utils/page-translate/protocol.ts';
import { loadPersisted } from '../storage/active.ts';
import { translatePrefsPersisted } from '../storage/translate-prefs.ts';

/** The language a page is translated into: the user's choice, else the app's (en → en, zh → zh-Hans). */
export function pageTargetLanguage(prefs: TranslatePrefs, language: Language): TranslateLanguage {
  return prefs.targetLanguage ?? (language === 'zh' ? 'zh-Hans' : 'en');
}

/**
 * Translates the page of tab `tabId` (its bar in the app's `language`), or (mode toggle, on a translated page) shows its original:
 * the config is left in the tab's isolated world, then the engine (entrypoints/page-translator.ts) is
 * injected; it answers the page's state. Extension pages and the background only.
 */
export async function togglePageTranslation(tabId: number, language: Language, mode: PageTranslatorConfig['mode'] = 'toggle'): Promise<PageTranslationState> {
  const prefs = await loadPersisted(translatePrefsPersisted);
  const config: PageTranslatorConfig = { mode, targetLanguage: pageTargetLanguage(prefs, language), display: prefs.display, language, ask: mode === 'toggle' && prefs.askFirst };
  await browser.scripting.executeScript({
    target: { tabId },
    func: (value: PageTranslatorConfig) => {
      (globalThis as { __tandemTranslateConfig?: PageTranslatorConfig }).__tandemTranslateConfig = value;
    },
    args: [config],
  });
  const [injection] = await browser.scripting.executeScript({ target: { tabId }, files: [PAGE_TRANSLATOR_SCRIPT] });
  return injection?.result === 'original' ? 'original' : 'translated';
}
