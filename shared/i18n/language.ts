import { LanguageSchema, type Language } from '../contracts/common.ts';
import { definePersisted } from '../storage/persisted.ts';

/** Chinese when any of the browser's language codes contains "zh", else English. */
export function detectLanguage(languages: readonly string[]): Language {
  return languages.some((code) => code.toLowerCase().includes('zh')) ? 'zh' : 'en';
}

/** The browser's language list; older engines only have `navigator.language`. */
export function browserLanguages(nav: Pick<Navigator, 'languages' | 'language'> = navigator): readonly string[] {
  return nav.languages?.length ? nav.languages : [nav.language].filter(Boolean);
}

/** The user's explicit choice; null until they pick one, and the browser decides. */
export const languagePersisted = definePersisted<Language | null>({
  key: 'tandem.language',
  version: 1,
  schema: LanguageSchema.nullable(),
  fallback: null,
});
