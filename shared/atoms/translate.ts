import { translatePrefsPersisted } from '../storage/translate-prefs.ts';
import { atomWithPersisted } from './persisted.ts';

/** The user's translation preferences: target language, bilingual or replace, per-site lists, typed-text trigger. */
export const translatePrefsAtom = atomWithPersisted(translatePrefsPersisted);
