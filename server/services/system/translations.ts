import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { and, asc, eq } from 'drizzle-orm';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type {
  AdminResetTranslationBody,
  AdminSaveTranslationBody,
  AdminTranslation,
  AdminTranslationListQuery,
  LanguageOverrides,
} from '../../../shared/contracts/translations.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { placeholdersOf } from '../../../shared/utils/placeholders.ts';
import type { AppContext } from '../../context.ts';
import { translationOverrides } from '../../db/schema/language-log.ts';
import { AppError } from '../../core/errors.ts';

/**
 * Translations served by the server (docs/api.md#translations). The built-in strings ship with the
 * client (locales/); the server reads the same files to list them in the console and to check an
 * override against its built-in string, and stores only the operators' overrides.
 */

type Strings = Map<string, string>;
export type BuiltInStrings = Record<Language, Strings>;

const LOCALES = new URL('../../../locales/', import.meta.url);

/** Nested keys flattened as i18next reads them: { chat: { a: 'x' } } → chat.a. */
function flatten(value: unknown, prefix: string, into: Strings): void {
  if (typeof value === 'string') {
    into.set(prefix, value);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  }
}

async function readBuiltIn(): Promise<BuiltInStrings> {
  const strings: BuiltInStrings = { en: new Map(), zh: new Map() };
  // The user surfaces' strings: the shared files and each feature's; the console's own (admin-*) are
  // not served to the apps, so they cannot be overridden here.
  const features = (await readdir(new URL('features/', LOCALES))).filter((f) => /^(?!admin-).+\.(en|zh)\.json$/.test(f)).sort();
  for (const lang of ['en', 'zh'] as const) {
    const files = [`${lang}.json`, ...features.filter((f) => f.endsWith(`.${lang}.json`)).map((f) => `features/${f}`)];
    for (const file of files) {
      const feature = new Map<string, string>();
      flatten(JSON.parse(await readFile(new URL(file, LOCALES), 'utf8')), '', feature);
      // As the client adds them: keys already present are kept.
      for (const [k, v] of feature) if (!strings[lang].has(k)) strings[lang].set(k, v);
    }
  }
  return strings;
}

let builtIn: Promise<BuiltInStrings> | undefined;

/** Read once per process: the files change only with a new release. */
export function builtInStrings(): Promise<BuiltInStrings> {
  builtIn ??= readBuiltIn().catch((err: unknown) => {
    builtIn = undefined;
    throw err;
  });
  return builtIn;
}

/** A language's overrides, versioned by their content (the same on every instance). */
export async function getLanguageOverrides(ctx: AppContext, language: Language, clientVersion?: string): Promise<LanguageOverrides> {
  const rows = await ctx.db
    .select({ key: translationOverrides.key, value: translationOverrides.value })
    .from(translationOverrides)
    .where(eq(translationOverrides.language, language))
    .orderBy(asc(translationOverrides.key));
  const strings = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const version = rows.length ? createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16) : '0';
  return { language, version, strings: clientVersion === version ? null : strings };
}

type OverrideRow = typeof translationOverrides.$inferSelect;

function toAdmin(key: string, strings: BuiltInStrings, rows: OverrideRow[]): AdminTranslation {
  const of = (lang: Language) => rows.find((r) => r.language === lang);
  const times = rows.map((r) => r.updatedAt.getTime());
  return {
    key,
    builtIn: { en: strings.en.get(key) ?? null, zh: strings.zh.get(key) ?? null },
    override: { en: of('en')?.value ?? null, zh: of('zh')?.value ?? null },
    updateTime: times.length ? new Date(Math.max(...times)).toISOString() : null,
  };
}

/** Every built-in key, searched by key or any of its strings, with its overrides; in key order. */
export async function adminListTranslations(ctx: AppContext, query: AdminTranslationListQuery): Promise<Paged<AdminTranslation>> {
  const strings = await builtInStrings();
  const rows = await ctx.db.select().from(translationOverrides);
  const byKey = new Map<string, OverrideRow[]>();
  for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const needle = query.search?.toLowerCase();
  const all = [...new Set([...strings.en.keys(), ...strings.zh.keys()])]
    .sort()
    .map((key) => toAdmin(key, strings, byKey.get(key) ?? []))
    .filter((x) => !query.overridden || x.override.en !== null || x.override.zh !== null)
    .filter(
      (x) =>
        !needle || [x.key, x.builtIn.en, x.builtIn.zh, x.override.en, x.override.zh].some((text) => text?.toLowerCase().includes(needle)),
    );
  const start = (query.page - 1) * query.count;
  return { list: all.slice(start, start + query.count), total: all.length };
}

/** One key as the console shows it; null when it is not a built-in key. */
export async function adminGetTranslation(ctx: AppContext, key: string): Promise<AdminTranslation | null> {
  const strings = await builtInStrings();
  if (!strings.en.has(key) && !strings.zh.has(key)) return null;
  const rows = await ctx.db.select().from(translationOverrides).where(eq(translationOverrides.key, key));
  return toAdmin(key, strings, rows);
}

/**
 * Sets a key's override in one language. Only built-in keys; the value keeps the built-in string's
 * placeholders exactly (the language's own built-in, else English), or the app would show an
 * unfilled {{name}} or drop a value.
 */
export async function adminSaveTranslation(ctx: AppContext, body: AdminSaveTranslationBody): Promise<AdminTranslation> {
  const strings = await builtInStrings();
  const base = strings[body.language].get(body.key) ?? strings.en.get(body.key);
  if (base === undefined) throw new AppError(Codes.NotFound, 'translationKeyUnknown', { key: body.key });
  const expected = placeholdersOf(base);
  const got = placeholdersOf(body.value);
  if (expected.join('\n') !== got.join('\n')) {
    const list = (names: string[]) => (names.length ? names.map((n) => `{{${n}}}`).join(', ') : '—');
    throw new AppError(Codes.BadRequest, 'translationPlaceholders', { expected: list(expected), got: list(got) });
  }
  await ctx.db
    .insert(translationOverrides)
    .values({ language: body.language, key: body.key, value: body.value })
    .onConflictDoUpdate({ target: [translationOverrides.language, translationOverrides.key], set: { value: body.value, updatedAt: new Date() } });
  return (await adminGetTranslation(ctx, body.key))!;
}

/** Back to the built-in string (nothing to do when there was no override). */
export async function adminResetTranslation(ctx: AppContext, body: AdminResetTranslationBody): Promise<AdminTranslation> {
  const found = await adminGetTranslation(ctx, body.key);
  if (!found) throw new AppError(Codes.NotFound, 'translationKeyUnknown', { key: body.key });
  await ctx.db.delete(translationOverrides).where(and(eq(translationOverrides.language, body.language), eq(translationOverrides.key, body.key)));
  return (await adminGetTranslation(ctx, body.key))!;
}
