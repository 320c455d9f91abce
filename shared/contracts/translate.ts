import { z } from 'zod';

/**
 * Translation (POST /api/System/TransText): text, or a list of segments, into one target language,
 * the source detected. It runs through the model the operator chose for translation (the
 * `translation_model` setting; the cheapest basic model when unset) and is charged through the
 * ledger by length, at `translation_points_per_1k_chars` (docs/api.md#translation). The page
 * translator, the selection card, the typed-text trigger and the web app's Translate page all call it.
 */

/** The languages a user can translate into (BCP 47; Chinese told apart as Simplified and Traditional). */
export const TRANSLATE_LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'ja', 'ko', 'fr', 'de', 'es', 'pt', 'it', 'ru', 'ar', 'he', 'hi', 'id', 'vi', 'th', 'tr', 'nl', 'pl', 'uk'] as const;
export const TranslateLanguageSchema = z.enum(TRANSLATE_LANGUAGES, { message: 'translateLanguageInvalid' });
export type TranslateLanguage = z.infer<typeof TranslateLanguageSchema>;

/** Languages written right to left: a translation into one is shown with dir="rtl". */
export const RTL_LANGUAGES: readonly TranslateLanguage[] = ['ar', 'he'];

/** At most this many segments per request (the page translator sends batches of paragraphs). */
export const TRANSLATE_MAX_SEGMENTS = 60;
/** One segment's length, in characters. */
export const TRANSLATE_MAX_SEGMENT_CHARS = 5000;
/** All segments of one request together, in characters (what one model call translates). */
export const TRANSLATE_MAX_TOTAL_CHARS = 12_000;

/**
 * A segment may carry inline formatting as numbered placeholder tags, `<t0>text</t0>` (a link, an
 * emphasis, inline code kept as is): the translation keeps each tag once, around the translated words,
 * so the caller can put the links and formatting back. A translation that loses or invents a tag is
 * answered with its tags stripped (`tagsKept` false for it) rather than wrongly placed.
 */
export const TRANSLATE_TAG = /<\/?t(\d{1,3})>/g;

/** How long a request's idempotency key (`requestId`) keeps its answer. */
export const TRANSLATE_REQUEST_ID_TTL_MS = 10 * 60_000;

const SegmentSchema = z.string().max(TRANSLATE_MAX_SEGMENT_CHARS, 'translateSegmentTooLong');

export const TransTextBodySchema = z
  .object({
    /** One text (a selection, what the user typed, a pasted document's chunk). */
    text: SegmentSchema.optional(),
    /** Or several segments (a page's paragraphs), translated in the same order. */
    segments: z.array(SegmentSchema).max(TRANSLATE_MAX_SEGMENTS, 'translateTooManySegments').optional(),
    targetLanguage: TranslateLanguageSchema,
    /** True: answer only what it would cost (nothing is translated or charged). */
    estimate: z.boolean().optional(),
    /**
     * The client's idempotency key (a UUID), the same on a retry of the same request: within
     * TRANSLATE_REQUEST_ID_TTL_MS a repeat with it is answered the first one's translation (waiting for
     * it while it runs) without a second charge or model call; the same key with another body is refused.
     */
    requestId: z.uuid({ message: 'translateRequestIdInvalid' }).optional(),
  })
  .refine((b) => (b.text === undefined) !== (b.segments === undefined), { message: 'translateTextRequired', path: ['text'] })
  .refine((b) => (b.text ?? '').trim() !== '' || (b.segments ?? []).some((s) => s.trim() !== ''), { message: 'translateTextRequired', path: ['text'] })
  .refine((b) => (b.text?.length ?? 0) + (b.segments ?? []).reduce((n, s) => n + s.length, 0) <= TRANSLATE_MAX_TOTAL_CHARS, {
    message: 'translateTooLong',
    path: ['segments'],
  });
export type TransTextBody = z.infer<typeof TransTextBodySchema>;

export const TransTextResultSchema = z.object({
  /** One per segment (or one for `text`), in order; empty for an empty segment; [] for an estimate. */
  translations: z.array(z.string()),
  /** Per translation: false when its placeholder tags could not be kept (they were stripped). */
  tagsKept: z.array(z.boolean()),
  /** The source language detected (BCP 47, e.g. "fr"), or null when unsure or for an estimate. */
  detectedLanguage: z.string().nullable(),
  targetLanguage: TranslateLanguageSchema,
  /** Characters counted for the price (placeholder tags and whitespace-only segments not counted). */
  chars: z.number().int().nonnegative(),
  /** Points charged (or, for an estimate, that would be charged). */
  cost: z.number().int().nonnegative(),
  /** The points left after the charge (for an estimate, now). */
  balance: z.number().int(),
});
export type TransTextResult = z.infer<typeof TransTextResultSchema>;

/**
 * Documents the Translate page cannot read itself: POST /api/System/DocumentText reads their text on
 * the server (as it reads attachments for the model, under the same limits) and answers it, nothing
 * kept or charged. The page then translates it as pasted text and downloads a .txt.
 */
export const SERVER_DOCUMENT_EXTENSIONS = ['docx', 'pdf'] as const;
/** The most text the Translate page takes at once, in characters; a longer document's text is refused. */
export const TRANSLATE_DOCUMENT_MAX_CHARS = 200_000;
/** Between a PDF's pages in its text: a form feed on a line of its own (a page break in a .txt file). */
export const PAGE_BREAK = '\f';

export const DocumentTextSchema = z.object({
  /** The file's name as kept (cleaned). */
  fileName: z.string(),
  /** Its paragraphs separated by a blank line; a PDF's pages by PAGE_BREAK lines. */
  text: z.string(),
  /** A PDF's pages; null for a DOCX. */
  pageCount: z.number().int().nonnegative().nullable(),
});
export type DocumentText = z.infer<typeof DocumentTextSchema>;

/** A site as the per-site lists hold it: its host name, lower-case (e.g. "en.wikipedia.org"). */
export const SiteHostSchema = z.string().trim().toLowerCase().min(1).max(253);

/**
 * The user's translation preferences, kept on the device (extension storage in the extension,
 * localStorage on the web) under shared/atoms/translate.ts's declaration. Content scripts read
 * them too, so every field has a default and the whole object is validated when read back.
 */
export const TranslatePrefsSchema = z.object({
  /** null: the app's language (en → en, zh → zh-Hans). */
  targetLanguage: TranslateLanguageSchema.nullable().default(null),
  /** A whole page: the translation under each paragraph, or in its place. */
  display: z.enum(['bilingual', 'replace']).default('bilingual'),
  /** A whole page asked for (not a site always translated): its bar first shows the price of what is on screen and waits for Translate. */
  askFirst: z.boolean().default(true),
  /** Sites translated as soon as a page of theirs opens, and sites never offered translation. */
  alwaysSites: z.array(SiteHostSchema).max(500).default([]),
  neverSites: z.array(SiteHostSchema).max(500).default([]),
  /** What the user types: off, or three spaces at the end of a field replace its text with the translation. */
  typedTrigger: z.enum(['off', 'triple-space']).default('off'),
  /** The language what the user types is translated into. */
  typedLanguage: TranslateLanguageSchema.default('en'),
});
export type TranslatePrefs = z.infer<typeof TranslatePrefsSchema>;
export const DEFAULT_TRANSLATE_PREFS: TranslatePrefs = TranslatePrefsSchema.parse({});
