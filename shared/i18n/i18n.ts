import i18next, { type i18n } from 'i18next';
import type { Language } from '../contracts/common.ts';
import { loadPersisted, watchPersisted, writePersisted } from '../storage/active.ts';
import { browserLanguages, detectLanguage, languagePersisted } from './language.ts';
import en from '../../locales/en.json';
import zh from '../../locales/zh.json';

export const resources = { en: { translation: en }, zh: { translation: zh } } as const;

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
      resources,
      lng,
      fallbackLng: 'en',
      supportedLngs: ['en', 'zh'],
      // React escapes what it renders; escaping here too would double-escape.
      interpolation: { escapeValue: false },
    });
  } else if (i18next.language !== lng) {
    await i18next.changeLanguage(lng);
  }
  stopFollowing?.();
  stopFollowing = watchPersisted(languagePersisted, (choice) => {
    const next = choice ?? detectLanguage(languages);
    if (i18next.language !== next) void i18next.changeLanguage(next);
  });
  return i18next;
}

/** The language in use ('en' until initI18n has run). */
export function currentLanguage(): Language {
  return i18next.language === 'zh' ? 'zh' : 'en';
}

/** Changes the UI language and stores the choice. */
export async function setLanguage(language: Language): Promise<void> {
  await Promise.all([i18next.changeLanguage(language), writePersisted(languagePersisted, language)]);
}
