import { z } from 'zod';
import { IdSchema, PageQuerySchema, pagedSchema } from './common.ts';

/**
 * Favourite answers (docs/api.md#favourite-answers-save): a user keeps a COPY of an answer with its
 * question, model and time, and a reference to the chat message it came from. The copy is theirs to
 * edit (the chat is untouched) and outlives the chat: `sourceExists` says whether the message can
 * still be opened.
 */

/** The longest answer a favourite holds (characters of Markdown), as saved or as edited. */
export const MAX_FAVOURITE_ANSWER_CHARS = 100_000;
/** The longest question a favourite holds (a chat input is at most 32 000 characters). */
export const MAX_FAVOURITE_QUESTION_CHARS = 32_000;
/** Search text: at most this many characters. */
export const MAX_FAVOURITE_SEARCH_CHARS = 100;
/** The list shows this much of each answer (the whole copy is read with GetById). */
export const FAVOURITE_PREVIEW_CHARS = 600;
/** IsSaved answers for at most this many messages at once. */
export const MAX_IS_SAVED_IDS = 200;

export const FavouriteItemSchema = z.object({
  favouriteId: z.string(),
  question: z.string(),
  /** The saved answer, Markdown: as the model wrote it, or as the user edited it. */
  answer: z.string(),
  aiModelId: z.string().nullable(),
  modelName: z.string().nullable(),
  /** When the answer was written (the source message's time). */
  answerTime: z.string(),
  /** When it was saved. */
  createTime: z.string(),
  /** When the copy was last edited (createTime until then). */
  updateTime: z.string(),
  /** The chat and message it came from; null when not known. */
  chatSessionId: z.string().nullable(),
  chatMessageId: z.string().nullable(),
  /** The source message still exists (its chat was not deleted): the link may be offered. */
  sourceExists: z.boolean(),
  /** The answer was changed since it was saved. */
  edited: z.boolean(),
});
export type FavouriteItem = z.infer<typeof FavouriteItemSchema>;

/** An item of the list: the answer is cut to a preview of FAVOURITE_PREVIEW_CHARS. */
export const FavouriteListItemSchema = FavouriteItemSchema.extend({
  /** The answer was longer than the preview. */
  answerTruncated: z.boolean(),
});
export type FavouriteListItem = z.infer<typeof FavouriteListItemSchema>;

export const FavouritePageSchema = pagedSchema(FavouriteListItemSchema);
export type FavouritePage = z.infer<typeof FavouritePageSchema>;

export const FavouriteListQuerySchema = PageQuerySchema.extend({
  /** Text to find in the question or the answer (case-insensitive substring); empty lists all. */
  q: z.string().trim().max(MAX_FAVOURITE_SEARCH_CHARS).optional(),
});
export type FavouriteListQuery = z.infer<typeof FavouriteListQuerySchema>;

/** Saves the answer of one of the caller's chat messages; saving it again answers the same favourite. */
export const AddFavouriteBodySchema = z.object({ chatMessageId: IdSchema });
export type AddFavouriteBody = z.infer<typeof AddFavouriteBodySchema>;

export const FavouriteIdQuerySchema = z.object({ favouriteId: IdSchema });
export type FavouriteIdQuery = z.infer<typeof FavouriteIdQuerySchema>;

export const DeleteFavouriteBodySchema = z.object({ favouriteId: IdSchema });
export type DeleteFavouriteBody = z.infer<typeof DeleteFavouriteBodySchema>;

/** The edited copy: the answer (required, Markdown) and optionally the question. */
export const UpdateFavouriteBodySchema = z.object({
  favouriteId: IdSchema,
  answer: z.string().max(MAX_FAVOURITE_ANSWER_CHARS).refine((text) => text.trim().length > 0, 'messageRequired'),
  question: z.string().trim().max(MAX_FAVOURITE_QUESTION_CHARS).optional(),
});
export type UpdateFavouriteBody = z.infer<typeof UpdateFavouriteBodySchema>;

export const IsSavedBodySchema = z.object({ chatMessageIds: z.array(IdSchema).max(MAX_IS_SAVED_IDS) });
export type IsSavedBody = z.infer<typeof IsSavedBodySchema>;

/** The messages among those asked that the caller saved, each with its favourite. */
export const IsSavedResultSchema = z.object({
  list: z.array(z.object({ chatMessageId: z.string(), favouriteId: z.string() })),
});
export type IsSavedResult = z.infer<typeof IsSavedResultSchema>;
