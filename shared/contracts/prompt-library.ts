import { z } from 'zod';
import { IdSchema, LanguageSchema, PageQuerySchema, pagedSchema } from './common.ts';
import { PromptTagIdsSchema, PromptTagRefSchema } from './prompt-tag.ts';
import { AppliesToSchema, MAX_QF_DESCRIPTION_CHARS, MAX_QF_NAME_CHARS, QuickFunctionCategorySchema } from './quick-function.ts';

/**
 * The prompt library (the Prompt, UserPrompt and admin UserPrompt route families): one place to browse
 * the operators' recommended prompts (AiPrompWord) and the community's prompts — users' own prompts
 * they shared and an operator approved. A library prompt is used (counted once per user, prompt and
 * day; the counts make "popular") or copied into the user's own prompts (a user quick function).
 *
 * Sharing: a user submits one of their own prompts (a snapshot of its text, with a title, description,
 * tags and language) → pending; an operator approves it (visible in the library) or rejects it with a
 * reason (the author is told, and sees the reason). Submitting the same own prompt again (an edit)
 * replaces the snapshot and puts it back to pending, out of the library until approved again.
 * An operator may unpublish an approved prompt; the author may withdraw a submission (deleted).
 *
 * Routes (every answer is the usual { Code, Msg, Data } envelope):
 * - GET  /api/Prompt/GetPromptList ?page&count&language&tagId&q&source&sort → paged LibraryPrompt (public)
 * - GET  /api/Prompt/GetPromptById ?promptId → LibraryPrompt (public; hidden, pending or unknown: 10404)
 * - POST /api/Prompt/UsePrompt  { promptId } → UsePromptResult (login)
 * - POST /api/Prompt/CopyToMine { promptId } → UserQuickFunction (login; counts toward the own-prompt limit)
 * - POST /api/UserPrompt/Submit SubmitPromptBody → PromptSubmission (login)
 * - GET  /api/UserPrompt/GetMySubmissions → PromptSubmission[] (login)
 * - POST /api/UserPrompt/Withdraw { promptSubmissionId } → null (login; only one's own)
 * Admin (role admin, 10403 otherwise; each write in the audit log, target `promptSubmission`):
 * - GET  /api/admin/UserPrompt/GetList ?page&count&state&q → paged AdminPromptSubmission
 * - POST /api/admin/UserPrompt/Approve   { promptSubmissionId } → AdminPromptSubmission (pending only)
 * - POST /api/admin/UserPrompt/Reject    { promptSubmissionId, reason } → AdminPromptSubmission (pending only)
 * - POST /api/admin/UserPrompt/Unpublish { promptSubmissionId, reason? } → AdminPromptSubmission (approved only)
 * Refusals: 10400 bad input, 10404 not found or not yours, 10409 not in a state that allows it
 * (promptSubmissionNotPending, promptSubmissionNotApproved) or too many pending (promptSubmissionsPendingTooMany).
 */

/** How many submissions one user may have waiting for review at once. */
export const MAX_PENDING_PROMPT_SUBMISSIONS = 5;
export const MAX_PROMPT_REVIEW_REASON_CHARS = 300;
export const MAX_PROMPT_SEARCH_CHARS = 100;

export const PromptSourceSchema = z.enum(['recommended', 'community']);
export type PromptSource = z.infer<typeof PromptSourceSchema>;

export const PromptSubmissionStateSchema = z.enum(['pending', 'approved', 'rejected', 'unpublished']);
export type PromptSubmissionState = z.infer<typeof PromptSubmissionStateSchema>;

/** A prompt of the library, in the language it was written in. */
export const LibraryPromptSchema = z.object({
  /** A recommended prompt's aiPrompWordId, or a community prompt's promptSubmissionId. */
  promptId: z.string(),
  source: PromptSourceSchema,
  title: z.string(),
  description: z.string(),
  content: z.string(),
  category: QuickFunctionCategorySchema,
  icon: z.string(),
  language: LanguageSchema,
  /** Its tags, named in the prompt's language, in the tags' order. */
  tags: z.array(PromptTagRefSchema),
  /** The author's nickname (community prompts); null for the operators' recommended prompts. */
  authorName: z.string().nullable(),
  /** Uses counted by UsePrompt (each user at most once a day). */
  useCount: z.number().int(),
  /** When it joined the library (a community prompt: when it was approved). */
  publishTime: z.string(),
});
export type LibraryPrompt = z.infer<typeof LibraryPromptSchema>;
export const LibraryPromptPageSchema = pagedSchema(LibraryPromptSchema);

export const PromptListQuerySchema = PageQuerySchema.extend({
  /** Default: the caller's accept-language. */
  language: LanguageSchema.optional(),
  /** Only the prompts carrying this tag (an unknown tag: none). */
  tagId: IdSchema.optional(),
  /** Words found in the title, description or content (any case). */
  q: z.string().trim().max(MAX_PROMPT_SEARCH_CHARS).optional(),
  source: z.enum(['all', 'recommended', 'community']).default('all'),
  /** popular: most used first; new: most recently published first. */
  sort: z.enum(['popular', 'new']).default('popular'),
});
export type PromptListQuery = z.infer<typeof PromptListQuerySchema>;

export const PromptIdQuerySchema = z.object({ promptId: IdSchema });
export const PromptIdBodySchema = z.object({ promptId: IdSchema });

export const UsePromptResultSchema = z.object({
  /** False when the caller had already used it today: counted once a day. */
  counted: z.boolean(),
  useCount: z.number().int(),
});
export type UsePromptResult = z.infer<typeof UsePromptResultSchema>;

// ---- sharing (UserPrompt) ----

export const SubmitPromptBodySchema = z.object({
  /** The caller's own prompt (a quick function with content, not a group) to share. */
  userQuickFunctionId: IdSchema,
  /** Default: the own prompt's name. */
  title: z.string().trim().min(1, 'promptNameRequired').max(MAX_QF_NAME_CHARS).optional(),
  /** Default: the own prompt's description. */
  description: z.string().trim().max(MAX_QF_DESCRIPTION_CHARS).optional(),
  /** Default: the own prompt's tags. */
  tagIds: PromptTagIdsSchema.optional(),
  /** The language the prompt is written in (the library shows it to readers of that language). Default: the caller's. */
  language: LanguageSchema.optional(),
});
export type SubmitPromptBody = z.infer<typeof SubmitPromptBodySchema>;

export const PromptSubmissionSchema = z.object({
  promptSubmissionId: z.string(),
  /** The own prompt it was shared from; null once that was deleted (the shared copy stays). */
  userQuickFunctionId: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  content: z.string(),
  category: QuickFunctionCategorySchema,
  icon: z.string(),
  appliesTo: z.array(AppliesToSchema),
  language: LanguageSchema,
  tags: z.array(PromptTagRefSchema),
  state: PromptSubmissionStateSchema,
  /** The reviewer's reason (rejected, unpublished); '' otherwise. */
  reason: z.string(),
  useCount: z.number().int(),
  submitTime: z.string(),
  /** When it was last approved, rejected or unpublished; null while waiting for its first review. */
  reviewTime: z.string().nullable(),
});
export type PromptSubmission = z.infer<typeof PromptSubmissionSchema>;
export const PromptSubmissionListSchema = z.array(PromptSubmissionSchema);

export const PromptSubmissionIdBodySchema = z.object({ promptSubmissionId: IdSchema });

// ---- review (admin UserPrompt) ----

export const AdminPromptSubmissionSchema = PromptSubmissionSchema.extend({
  authorId: z.string(),
  authorName: z.string(),
  authorEmail: z.string(),
});
export type AdminPromptSubmission = z.infer<typeof AdminPromptSubmissionSchema>;
export const AdminPromptSubmissionPageSchema = pagedSchema(AdminPromptSubmissionSchema);

export const AdminPromptSubmissionListQuerySchema = PageQuerySchema.extend({
  state: PromptSubmissionStateSchema.optional(),
  /** Words in the title, description, content, or the author's e-mail or nickname. */
  q: z.string().trim().max(MAX_PROMPT_SEARCH_CHARS).optional(),
});
export type AdminPromptSubmissionListQuery = z.infer<typeof AdminPromptSubmissionListQuerySchema>;

const reasonText = z.string().trim().max(MAX_PROMPT_REVIEW_REASON_CHARS, 'promptReviewReasonTooLong');

export const AdminRejectPromptBodySchema = z.object({
  promptSubmissionId: IdSchema,
  /** Told to the author: what to change. */
  reason: z.preprocess((v) => v ?? '', reasonText.min(1, 'promptReviewReasonRequired')),
});
export const AdminUnpublishPromptBodySchema = z.object({
  promptSubmissionId: IdSchema,
  reason: reasonText.optional(),
});
