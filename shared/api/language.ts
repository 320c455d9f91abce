import type { Language } from '../contracts/common.ts';
import { LanguageOverridesSchema, type LanguageOverrides } from '../contracts/translations.ts';
import { apiGet } from './request.ts';

/** The operators' overrides of `language`'s built-in strings; strings is null when `version` is current (docs/api.md#translations). */
export function getLanguageOverrides(language: Language, version?: string): Promise<LanguageOverrides> {
  return apiGet('/api/Language/GetLanguage', { lang: language, version }, { data: LanguageOverridesSchema });
}
