import i18next from 'i18next';

/** A feature's strings: nested keys as in locales/en.json. */
export type FeatureStrings = { readonly [key: string]: string | FeatureStrings };

let pending: FeatureStrings[] = [];

const add = (strings: FeatureStrings) => i18next.addResourceBundle('en', 'translation', strings, true, false);

/**
 * Adds a feature's English strings (locales/features/<feature>.en.json) when its module is first
 * imported, so a screen that loads when first opened brings its words with it instead of growing
 * the side panel's entry. Keys already present are kept. A module evaluated before i18next starts
 * has its strings added when it does (addPendingStrings). The Chinese files of every feature come
 * with the Chinese chunk (i18n.ts), which is fetched only for a page shown in Chinese.
 */
export function addEnglishStrings(strings: FeatureStrings): void {
  if (i18next.isInitialized) add(strings);
  else pending.push(strings);
}

/** Called by initI18n once i18next has started. */
export function addPendingStrings(): void {
  for (const strings of pending) add(strings);
  pending = [];
}
