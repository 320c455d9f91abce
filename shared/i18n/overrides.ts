import type { i18n } from 'i18next';
import { z } from 'zod';
import { LanguageSchema, type Language } from '../contracts/common.ts';
import type { LanguageOverrides } from '../contracts/translations.ts';
import { loadPersisted, writePersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';

/**
 * Operators' overrides of the built-in strings (docs/api.md#translations). The built-in strings show
 * at once; the overrides come from the server afterwards (the last ones fetched are kept in storage
 * and applied before the first render, so an offline start shows them too) and replace the built-in
 * string of each key they name. Keys of a feature whose strings arrive later get their override when
 * those strings arrive; a key whose override is removed gets its built-in string back.
 */

/** Translation loading: up to 10 parallel reads, 5 retries, 350 ms before the first retry (doubling). */
export const OVERRIDE_PARALLEL_READS = 10;
export const OVERRIDE_RETRIES = 5;
export const OVERRIDE_FIRST_DELAY_MS = 350;

const OverrideSetSchema = z.object({ version: z.string().max(64), strings: z.record(z.string(), z.string()) });
type OverrideSet = z.infer<typeof OverrideSetSchema>;

export const overridesPersisted = definePersisted<Partial<Record<Language, OverrideSet>>>({
  key: 'tandem.translationOverrides',
  version: 1,
  schema: z.partialRecord(LanguageSchema, OverrideSetSchema),
  fallback: {},
});

/** Reads one language's overrides; `version` is the one held (the answer's strings are then null). */
export type FetchOverrides = (language: Language, version: string | undefined) => Promise<LanguageOverrides>;

/** Runs tasks with at most `limit` of them under way at once. */
export function createReadPool(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (running >= limit) return;
    const start = queue.shift();
    if (start) {
      running++;
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() =>
        task()
          .then(resolve, reject)
          .finally(() => {
            running--;
            next();
          }),
      );
      next();
    });
}

/** Calls `read` until it succeeds, retrying `retries` times, `firstDelayMs` after the first failure and twice as long after each next one. */
export async function withRetries<T>(read: () => Promise<T>, retries = OVERRIDE_RETRIES, firstDelayMs = OVERRIDE_FIRST_DELAY_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      // An answer that will not change (the server has no such route): not asked again.
      if (attempt >= retries || (err as { final?: unknown } | null)?.final === true) throw err;
      await new Promise((resolve) => setTimeout(resolve, firstDelayMs * 2 ** attempt));
    }
  }
}

export type TranslationOverrides = {
  /** Fetches the overrides of `language` (once per page), applies and stores them; resolves when done or given up. */
  load(language: Language): Promise<void>;
  stop(): void;
};

/**
 * Applies the stored overrides now and keeps them applied as strings arrive; `load` fetches fresh
 * ones. Call after i18next has started (initI18n).
 */
export function startTranslationOverrides(instance: i18n, fetchOverrides: FetchOverrides, stored: Partial<Record<Language, OverrideSet>> = {}): TranslationOverrides {
  const wanted: Partial<Record<Language, Record<string, string>>> = {};
  const versions: Partial<Record<Language, string>> = {};
  /** Per language, the built-in string of each key now overridden. */
  const originals: Record<Language, Map<string, string>> = { en: new Map(), zh: new Map() };
  let applying = false;

  /** Brings the store in line with `wanted[language]`; true when a string changed. */
  const apply = (language: Language): boolean => {
    if (!instance.hasResourceBundle(language, 'translation')) return false;
    const want = wanted[language] ?? {};
    const kept = originals[language];
    let changed = false;
    applying = true;
    try {
      for (const [key, original] of kept) {
        if (key in want) continue;
        instance.addResource(language, 'translation', key, original, { silent: true });
        kept.delete(key);
        changed = true;
      }
      for (const [key, value] of Object.entries(want)) {
        const current: unknown = instance.getResource(language, 'translation', key);
        // Not there yet (a feature's strings come with its screen): applied when they arrive.
        if (typeof current !== 'string') continue;
        if (!kept.has(key)) kept.set(key, current);
        if (current !== value) {
          instance.addResource(language, 'translation', key, value, { silent: true });
          changed = true;
        }
      }
    } finally {
      applying = false;
    }
    return changed;
  };

  const set = (language: Language, overrides: OverrideSet) => {
    wanted[language] = overrides.strings;
    versions[language] = overrides.version;
    // Screens already shown in this language render again with the new strings.
    if (apply(language) && instance.language === language) instance.emit('languageChanged', language);
  };

  for (const language of LanguageSchema.options) {
    const held = stored[language];
    if (held) set(language, held);
  }

  const onAdded = (language: string) => {
    if (!applying && (language === 'en' || language === 'zh')) apply(language);
  };
  instance.store.on('added', onAdded);

  const pool = createReadPool(OVERRIDE_PARALLEL_READS);
  const loads = new Map<Language, Promise<void>>();
  let stopped = false;

  const fetchOne = async (language: Language) => {
    try {
      const fresh = await pool(() => withRetries(() => fetchOverrides(language, versions[language])));
      if (stopped || fresh.strings === null) return;
      const next = { version: fresh.version, strings: fresh.strings };
      set(language, next);
      const all = await loadPersisted(overridesPersisted);
      await writePersisted(overridesPersisted, { ...all, [language]: next });
    } catch {
      // Offline or the server failed five retries: the stored overrides (or the built-in strings) stay.
    }
  };

  return {
    load(language) {
      let loading = loads.get(language);
      if (!loading) {
        loading = fetchOne(language);
        loads.set(language, loading);
      }
      return loading;
    },
    stop() {
      stopped = true;
      instance.store.off('added', onAdded);
    },
  };
}
