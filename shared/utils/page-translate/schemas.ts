import { z } from 'zod';
import { SiteHostSchema, TRANSLATE_MAX_SEGMENT_CHARS, TRANSLATE_MAX_SEGMENTS, TranslateLanguageSchema } from '../../contracts/translate.ts';
import { PAGE_TRANSLATOR_SOURCE } from './protocol.ts';

/** The messages a tab's page translator (or the every-page content script) sends the background. */
export const PageTranslatorMessageSchema = z.discriminatedUnion('type', [
  z.object({
    source: z.literal(PAGE_TRANSLATOR_SOURCE),
    type: z.literal('translate'),
    targetLanguage: TranslateLanguageSchema,
    segments: z.array(z.string().max(TRANSLATE_MAX_SEGMENT_CHARS)).min(1).max(TRANSLATE_MAX_SEGMENTS),
    estimate: z.boolean().optional(),
  }),
  z.object({ source: z.literal(PAGE_TRANSLATOR_SOURCE), type: z.literal('site'), list: z.enum(['always', 'never']), host: SiteHostSchema }),
  z.object({ source: z.literal(PAGE_TRANSLATOR_SOURCE), type: z.literal('autoStart') }),
  /** The floating handle's "Translate page": as the context menu's item. */
  z.object({ source: z.literal(PAGE_TRANSLATOR_SOURCE), type: z.literal('toggle') }),
]);
export type PageTranslatorMessage = z.infer<typeof PageTranslatorMessageSchema>;

/** The background's answer to a translate message: the result, or why not (signedOut: no token; noPoints; busy: too many requests for now; failed). */
export type PageTranslatorReply =
  | { ok: true; translations: string[]; tagsKept: boolean[]; cost: number }
  | { ok: false; code: 'signedOut' | 'noPoints' | 'busy' | 'failed'; message: string };
