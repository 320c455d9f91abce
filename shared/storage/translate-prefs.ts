import { DEFAULT_TRANSLATE_PREFS, TranslatePrefsSchema, type TranslatePrefs } from '../contracts/translate.ts';
import { definePersisted } from './persisted.ts';

/**
 * The user's translation preferences (shared/contracts/translate.ts). Declared here, not beside the
 * atom, so the content scripts can decode them without loading Jotai.
 */
export const translatePrefsPersisted = definePersisted<TranslatePrefs>({
  key: 'tandem.translate.prefs',
  version: 1,
  schema: TranslatePrefsSchema,
  fallback: DEFAULT_TRANSLATE_PREFS,
});
