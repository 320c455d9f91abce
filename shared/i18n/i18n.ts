import i18next, { type i18n } from 'i18next';
import type { Language } from '../contracts/common.ts';
import { loadPersisted, watchPersisted, writePersisted } from '../storage/active.ts';
import { addPendingStrings } from './feature-strings.ts';
import { browserLanguages, detectLanguage, languagePersisted } from './language.ts';
import en from '../../locales/en.json';

/**
 * English is the fallback and ships with every page; Chinese is a chunk of its own, fetched before
 * it is first shown (a page in English never downloads it).
 */
async function ensureLoaded(language: Language): Promise<void> {
  if (language === 'en' || i18next.hasResourceBundle(language, 'translation')) return;
  const { default: zh } = await import('../../locales/zh.json');
  i18next.addResourceBundle('zh', 'translation', zh);
  // Each feature's Chinese file (feature-strings.ts): small chunks fetched alongside. The admin
  // console's own strings stay out of the extension: its entry (admin/main.tsx) adds them.
  const features = import.meta.glob<{ default: Record<string, unknown> }>(['../../locales/features/*.zh.json', '!../../locales/features/admin-*.zh.json']);
  for (const strings of await Promise.all(Object.values(features).map((load) => load()))) {
    i18next.addResourceBundle('zh', 'translation', strings.default, true, false);
  }
}

let latestSwitch = 0;

/** Switches i18next to `language`, its translations loaded first; a later switch wins over a slower earlier one. */
async function switchTo(language: Language): Promise<void> {
  const mine = ++latestSwitch;
  await ensureLoaded(language);
  if (mine === latestSwitch && i18next.language !== language) await i18next.changeLanguage(language);
}

let stopFollowing: (() => void) | undefined;

/**
 * Starts i18next (the shared default instance, which the request helper's messages use too) in the
 * stored language, or the browser's when none was chosen, and keeps following the stored choice so
 * a change made in another context (popup, side panel, web tab) applies here as well.
 */
export async function initI18n(languages: readonly string[] = browserLanguages()): Promise<i18n> {
  const stored = await loadPersisted(languagePersisted);
  const lng = stored ?? detectLanguage(languages);
  if (!i18next.isInitialized) {
    await i18next.init({
      resources: { en: { translation: en } },
      // Chinese arrives later (ensureLoaded): start in English, then switch once it is there.
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: ['en', 'zh'],
      // React escapes what it renders; escaping here too would double-escape.
      interpolation: { escapeValue: false },
      // A key missing in every language (English is the fallback of Chinese) shows its default text
      // when the call gives one, else nothing: never the key itself.
      parseMissingKeyHandler: (_key: string, defaultValue?: string) => defaultValue ?? '',
    });
    addPendingStrings();
  }
  await switchTo(lng);
  stopFollowing?.();
  stopFollowing = watchPersisted(languagePersisted, (choice) => void switchTo(choice ?? detectLanguage(languages)));
  return i18next;
}

/** The language in use ('en' until initI18n has run). */
export function currentLanguage(): Language {
  return i18next.language === 'zh' ? 'zh' : 'en';
}

/** Changes the UI language and stores the choice. */
export async function setLanguage(language: Language): Promise<void> {
  await Promise.all([switchTo(language), writePersisted(languagePersisted, language)]);
}
