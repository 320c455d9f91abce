import { z } from 'zod';
import { IdSchema, LanguageSchema } from './common.ts';

/**
 * Prompt tags (the TagPrompt route families): labels operators keep, with a name in English and in
 * Chinese, that recommended prompts (AiPrompWord) and the user's own prompts (user quick functions)
 * carry. The prompt library is browsed and filtered by tag. Deleting a tag takes it off every prompt;
 * the prompts stay.
 *
 * Routes (every answer is the usual { Code, Msg, Data } envelope):
 * - GET  /api/TagPrompt/GetTagPromptList ?language=   → PromptTag[] (public: names in `language`, default the
 *        caller's accept-language; in sort order; `promptCount`: online recommended prompts of that language
 *        carrying the tag)
 * - GET  /api/AiPrompWord/GetAiPrompWordByRecomment ?language=&tagId= (also /api/Chat/GetAiPrompWordByRecomment)
 *        → RecommendedPrompt[] with `tags` (shared/contracts/quick-function.ts)
 * - SaveUserQuickFunction takes `tagIds` (absent: unchanged); a UserQuickFunction lists its `tagIds`.
 * Admin (role admin, 10403 otherwise; every write in the audit log, target `promptTag`):
 * - GET  /api/admin/TagPrompt/GetList → AdminPromptTag[]; POST Save (AdminSavePromptTagBody → AdminPromptTag,
 *        no tagPromptId: create), POST Delete ({ tagPromptId })
 * - POST /api/admin/AiPrompWord/Save takes `tagIds` (absent: unchanged).
 * Bad input answers 10400 (promptTagNameRequired, promptTagNameTooLong, promptTagsTooMany, promptTagUnknown);
 * a name used by another tag (either language, any case) answers 10409 promptTagNameTaken.
 */

export const MAX_PROMPT_TAG_NAME_CHARS = 30;
/** How many tags one prompt may carry. */
export const MAX_TAGS_PER_PROMPT = 10;

/** A tag as a prompt lists it: its id and its name in the reader's language. */
export const PromptTagRefSchema = z.object({ tagPromptId: z.string(), name: z.string() });
export type PromptTagRef = z.infer<typeof PromptTagRefSchema>;

/** A tag of the public list, in the caller's language. */
export const PromptTagSchema = PromptTagRefSchema.extend({
  sort: z.number().int(),
  /** Online recommended prompts of the list's language that carry the tag. */
  promptCount: z.number().int(),
});
export type PromptTag = z.infer<typeof PromptTagSchema>;
export const PromptTagListSchema = z.array(PromptTagSchema);
export const PromptTagListQuerySchema = z.object({ language: LanguageSchema.optional() });

/** The tags a prompt is saved with (repeats dropped); each must be an existing tag. */
export const PromptTagIdsSchema = z
  .array(IdSchema)
  .max(MAX_TAGS_PER_PROMPT, 'promptTagsTooMany')
  .transform((ids) => [...new Set(ids)]);

// ---- admin ----

export const AdminPromptTagSchema = z.object({
  tagPromptId: z.string(),
  nameEn: z.string(),
  nameZh: z.string(),
  sort: z.number().int(),
  createTime: z.string(),
  /** Recommended prompts (any language, online or not) carrying it. */
  promptCount: z.number().int(),
  /** Users' own prompts carrying it. */
  userPromptCount: z.number().int(),
});
export type AdminPromptTag = z.infer<typeof AdminPromptTagSchema>;
export const AdminPromptTagListSchema = z.array(AdminPromptTagSchema);

/** An absent name reads as empty, so it gets its own message rather than "expected string". */
const tagName = z.preprocess(
  (v) => v ?? '',
  z.string().trim().min(1, 'promptTagNameRequired').max(MAX_PROMPT_TAG_NAME_CHARS, 'promptTagNameTooLong'),
);

export const AdminSavePromptTagBodySchema = z.object({
  /** Absent: create. */
  tagPromptId: IdSchema.nullish(),
  nameEn: tagName,
  nameZh: tagName,
  /** Absent: after the others (create) or unchanged (update). */
  sort: z.number().int().min(0).max(1_000_000).optional(),
});
export type AdminSavePromptTagBody = z.infer<typeof AdminSavePromptTagBodySchema>;
export const AdminPromptTagIdBodySchema = z.object({ tagPromptId: IdSchema });
