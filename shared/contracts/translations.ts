import { z } from 'zod';
import { LanguageSchema, PageQuerySchema, pagedSchema } from './common.ts';

/**
 * Translations served by the server (the Language family): operators override any built-in string
 * per language; the server stores only those overrides and serves them, the client applies them over
 * its built-in strings (docs/api.md#translations).
 */

/** A string's key as the client's i18next knows it: dot-separated, e.g. chat.notLoginTip. */
export const TranslationKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.-]+$/, 'translationKeyInvalid');

export const MAX_TRANSLATION_CHARS = 2000;

/** GET /api/Language/GetLanguage: `version` is what the client holds; when it is current, strings is null. */
export const GetLanguageQuerySchema = z.object({
  lang: LanguageSchema,
  version: z.string().trim().max(64).optional(),
});

export const LanguageOverridesSchema = z.object({
  language: LanguageSchema,
  /** Changes whenever an override of this language changes (also sent as the ETag header). */
  version: z.string(),
  /** Flat key → value; null when the caller's version is current. */
  strings: z.record(z.string(), z.string()).nullable(),
});
export type LanguageOverrides = z.infer<typeof LanguageOverridesSchema>;

/** One built-in key as the console lists it, with its built-in strings and the overrides. */
export const AdminTranslationSchema = z.object({
  key: z.string(),
  builtIn: z.object({ en: z.string().nullable(), zh: z.string().nullable() }),
  override: z.object({ en: z.string().nullable(), zh: z.string().nullable() }),
  updateTime: z.string().nullable(),
});
export type AdminTranslation = z.infer<typeof AdminTranslationSchema>;

export const AdminTranslationListQuerySchema = PageQuerySchema.extend({
  /** Part of the key or of any of its strings, whatever the case. */
  search: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(200).optional()),
  /** Only keys with an override. */
  overridden: z.preprocess((v) => (v === 'true' ? true : v === 'false' || v === '' ? undefined : v), z.boolean().optional()),
});
export type AdminTranslationListQuery = z.infer<typeof AdminTranslationListQuerySchema>;
export const AdminTranslationPageSchema = pagedSchema(AdminTranslationSchema);

export const AdminTranslationKeyQuerySchema = z.object({ key: TranslationKeySchema });

export const AdminSaveTranslationBodySchema = z.object({
  key: TranslationKeySchema,
  language: LanguageSchema,
  value: z.string().trim().min(1, 'translationValueRequired').max(MAX_TRANSLATION_CHARS),
});
export type AdminSaveTranslationBody = z.infer<typeof AdminSaveTranslationBodySchema>;

export const AdminResetTranslationBodySchema = z.object({ key: TranslationKeySchema, language: LanguageSchema });
export type AdminResetTranslationBody = z.infer<typeof AdminResetTranslationBodySchema>;

