import { z } from 'zod';
import { LanguageSchema } from './common.ts';

/**
 * The invite poster (the Poster route families, docs/api.md#invite-poster): a portrait PNG made on the
 * server for one account and one language, with the product's name and picture, the account's name
 * and picture (or initial), the operator's headline and words, and a QR code of the account's invite
 * link. Made once per account, language and version (a new one when the account's name, picture or
 * code, the product's name or the operator's poster settings change), then served from the file store.
 *
 * Routes (failures are the usual { Code, Msg, Data } envelope; success is the PNG):
 * - GET /api/Poster/GetPosterByCode ?code=&lang= → image/png (public: an invite code is made to be
 *       shared; 10404 posterCodeUnknown for a code no active account has; 10429 while the server is
 *       making as many posters as it takes at once)
 * Admin (role admin, 10403 otherwise; writes in the audit log, target `poster`):
 * - GET  /api/admin/Poster/Get → AdminPosterSettings
 * - POST /api/admin/Poster/Save (AdminSavePosterBody → AdminPosterSettings)
 * - POST /api/admin/Poster/SavePicture (multipart/form-data, one file as `picture`; PNG, JPEG or WebP) → AdminPosterSettings
 * - GET  /api/admin/Poster/Preview ?lang=&headline=&subtext=&accentColor= → image/png with a sample account
 *       (each draft field, when given, stands in for the saved one: the console's live preview)
 */

export const POSTER = {
  /** The PNG's size in pixels: portrait, the shape phones share. */
  width: 1080,
  height: 1920,
  headlineMaxChars: 40,
  subtextMaxChars: 120,
  /** The operator's picture: field name, bytes at most, what a file chooser offers. */
  pictureField: 'picture',
  pictureMaxBytes: 5 * 1024 * 1024,
  pictureAccept: 'image/png,image/jpeg,image/webp',
  defaultAccentColor: '#7b7ddb',
} as const;

export const GET_POSTER_BY_CODE_PATH = '/api/Poster/GetPosterByCode';

const HexColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'posterColorInvalid')
  .transform((v) => v.toLowerCase());

const text = (max: number) => z.string().trim().max(max, 'posterTextTooLong');

/** GET /api/Poster/GetPosterByCode: the poster of the account whose invite code this is. */
export const PosterByCodeQuerySchema = z.object({
  code: z.string().trim().min(1).max(32),
  /** The poster's language; default the caller's (Accept-Language). */
  lang: LanguageSchema.optional(),
});
export type PosterByCodeQuery = z.infer<typeof PosterByCodeQuerySchema>;

/** What operators set; an empty headline or sub-text shows the built-in words of that language. */
export const AdminSavePosterBodySchema = z.object({
  headlineEn: text(POSTER.headlineMaxChars),
  headlineZh: text(POSTER.headlineMaxChars),
  subtextEn: text(POSTER.subtextMaxChars),
  subtextZh: text(POSTER.subtextMaxChars),
  accentColor: HexColorSchema,
  /** True: the operator's picture is removed (the poster shows the product's name in its place). */
  removePicture: z.boolean().optional(),
});
export type AdminSavePosterBody = z.infer<typeof AdminSavePosterBodySchema>;

export const AdminPosterSettingsSchema = z.object({
  headlineEn: z.string(),
  headlineZh: z.string(),
  subtextEn: z.string(),
  subtextZh: z.string(),
  accentColor: z.string(),
  hasPicture: z.boolean(),
  /** The words shown where a field is empty, per language. */
  defaults: z.object({ en: z.object({ headline: z.string(), subtext: z.string() }), zh: z.object({ headline: z.string(), subtext: z.string() }) }),
  /** Null until an operator first saves. */
  updateTime: z.string().nullable(),
});
export type AdminPosterSettings = z.infer<typeof AdminPosterSettingsSchema>;

/** GET /api/admin/Poster/Preview: the poster with a sample account; drafts stand in for the saved words. */
export const AdminPosterPreviewQuerySchema = z.object({
  /** Required: a request without one is a mistake, not a wish for English. */
  lang: LanguageSchema,
  headline: text(POSTER.headlineMaxChars).optional(),
  subtext: text(POSTER.subtextMaxChars).optional(),
  accentColor: HexColorSchema.optional(),
});
export type AdminPosterPreviewQuery = z.infer<typeof AdminPosterPreviewQuerySchema>;
