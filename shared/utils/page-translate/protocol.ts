/**
 * The page translator's messages (entrypoints/page-translator.ts and the every-page content script
 * to the background). No zod here: the every-page content script imports this file and stays small;
 * the background validates with shared/utils/page-translate/schemas.ts.
 */
export const PAGE_TRANSLATOR_SOURCE = 'tandem-page-translator';
/** The script entrypoints/page-translator.ts is built to. */
export const PAGE_TRANSLATOR_SCRIPT = '/page-translator.js';

/** What the background gives the injected engine before it runs (globalThis.__tandemTranslateConfig). */
export interface PageTranslatorConfig {
  /** toggle: a second trigger shows the original; start: translate unless it already is (a site always translated). */
  mode: 'toggle' | 'start';
  targetLanguage: string;
  display: 'bilingual' | 'replace';
  /** The bar shows the price of what is on screen and waits for the user's Translate (nothing charged before). */
  ask: boolean;
  /** The app's language, for the in-page bar's words. */
  language: 'en' | 'zh';
}

/** What the injected engine answers: the page is now translated, or shows its original. */
export type PageTranslationState = 'translated' | 'original';

/** Whether the raw stored translation preferences list `host` among the sites always translated (and not never). */
export function isAlwaysTranslated(raw: unknown, host: string): boolean {
  const value = (raw as { value?: { alwaysSites?: unknown; neverSites?: unknown } } | undefined)?.value;
  const always = Array.isArray(value?.alwaysSites) ? value.alwaysSites : [];
  const never = Array.isArray(value?.neverSites) ? value.neverSites : [];
  return host !== '' && always.includes(host) && !never.includes(host);
}
