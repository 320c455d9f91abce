import { z } from 'zod';
import { PageQuerySchema, pagedSchema } from './common.ts';

/**
 * The most matches SearchMessages counts: counting every match of a common word over 100k messages
 * costs more than the page (each candidate is lower-cased and scanned), so the total stops here and
 * the dialog says "more than" (bench/search).
 */
export const SEARCH_TOTAL_CAP = 100;

/** Longest search text: a phrase, not a document. */
export const MAX_SEARCH_CHARS = 100;

/** GET /api/Chat/SearchMessages: the caller's messages whose question or answer contains `q` (any case). */
export const MessageSearchQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().min(1, 'searchTextRequired').max(MAX_SEARCH_CHARS),
});
export type MessageSearchQuery = z.infer<typeof MessageSearchQuerySchema>;

/**
 * One message that matched: the part of its text around the first match, and where the match sits
 * in that snippet (in UTF-16 code units, as the client slices strings), so it can be highlighted.
 */
export const MessageSearchHitSchema = z.object({
  chatSessionId: z.string(),
  sessionTitle: z.string(),
  chatMessageId: z.string(),
  /** Which side matched first: the user's question or the model's answer. */
  field: z.enum(['input', 'output']),
  snippet: z.string(),
  matchStart: z.number().int().min(0),
  matchLength: z.number().int().min(0),
  createTime: z.string(),
});
export type MessageSearchHit = z.infer<typeof MessageSearchHitSchema>;

export const MessageSearchPageSchema = pagedSchema(MessageSearchHitSchema);
export type MessageSearchPage = z.infer<typeof MessageSearchPageSchema>;
