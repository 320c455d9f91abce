import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * Personalization and memory (docs/api.md#personalization-and-memory): what a user tells the
 * assistant about themselves (the personalization form: occupation, desired assistant traits, other
 * info, and the preferred answer language) and the facts they asked it to remember. The server adds
 * both to the system prompt of every message, framed as information the user gave about themselves
 * (never as instructions), within PERSONALIZATION_MAX_CHARS, unless switched off.
 *
 * Routes (login: 10402 otherwise; each user reaches only their own: another's id answers 10404):
 * - GET  /api/Personalization/Get                              → Personalization
 * - POST /api/Personalization/Save   SavePersonalizationBody   → Personalization (only the fields sent change)
 * - GET  /api/Personalization/GetSystemPrompt                   → SystemPromptPreview (exactly the text added)
 * - GET  /api/Memory/GetList                                    → MemoryList (newest first)
 * - POST /api/Memory/Save            SaveMemoryBody            → Memory (the same fact again answers the one kept)
 * - POST /api/Memory/Update          UpdateMemoryBody          → Memory
 * - POST /api/Memory/Delete          MemoryIdBody              → null
 * - POST /api/Memory/DeleteAll                                  → null
 * - POST /api/Memory/SetEnabled      SetMemoryEnabledBody      → Personalization
 *
 * Memory is never written by the model: when the user asks the assistant to remember something, the
 * model calls the tool REMEMBER_TOOL_NAME, the answer carries that call (a ChatToolCall whose input
 * is RememberToolInput), and the client offers "Save / Dismiss"; Save calls /api/Memory/Save with the
 * answer's chatMessageId as sourceMessageId.
 */

/** Each text field of the form. */
export const MAX_PERSONALIZATION_FIELD_CHARS = 500;
/** The preferred answer language, as the user names it ("English", "中文", "Deutsch"). */
export const MAX_ANSWER_LANGUAGE_CHARS = 40;
/** One remembered fact. */
export const MAX_MEMORY_FACT_CHARS = 300;
/** Facts a user may keep; saving one more is refused (memoryLimitReached). */
export const MAX_MEMORIES = 50;
/**
 * The whole addition to the system prompt. The profile always fits (its fields are bounded); facts
 * follow newest first, and the oldest that no longer fit are left out.
 */
export const PERSONALIZATION_MAX_CHARS = 4000;
/** The tool through which the model proposes a fact to remember (never saved without the user). */
export const REMEMBER_TOOL_NAME = 'remember';

/** pending: not shown yet (new accounts); done / skipped: shown once, never again. */
export const OnboardingStateSchema = z.enum(['pending', 'done', 'skipped']);
export type OnboardingState = z.infer<typeof OnboardingStateSchema>;

export const PersonalizationSchema = z.object({
  /** Whether the profile is added to the system prompt. */
  enabled: z.boolean(),
  occupation: z.string(),
  /** Desired assistant traits: chips and free text, as one text. */
  traits: z.string(),
  otherInfo: z.string(),
  /** null: answer in the language of the question. */
  answerLanguage: z.string().nullable(),
  /** Whether remembered facts are added (and the remember tool offered). */
  memoryEnabled: z.boolean(),
  onboarding: OnboardingStateSchema,
});
export type Personalization = z.infer<typeof PersonalizationSchema>;

const field = z.string().trim().max(MAX_PERSONALIZATION_FIELD_CHARS);

/** Fields absent stay as they are. */
export const SavePersonalizationBodySchema = z
  .object({
    enabled: z.boolean(),
    occupation: field,
    traits: field,
    otherInfo: field,
    /** '' or null: the language of the question. */
    answerLanguage: z.string().trim().max(MAX_ANSWER_LANGUAGE_CHARS).nullable(),
    memoryEnabled: z.boolean(),
    /** The onboarding was finished or skipped (it cannot be set back to pending). */
    onboarding: z.enum(['done', 'skipped']),
  })
  .partial()
  .strict();
export type SavePersonalizationBody = z.infer<typeof SavePersonalizationBodySchema>;

export const SystemPromptPreviewSchema = z.object({
  /** Exactly what is added to the system prompt of the next message; '' when nothing is. */
  text: z.string(),
  maxChars: z.number().int(),
  /** Remembered facts left out because the bound was reached (the oldest). */
  omittedMemories: z.number().int(),
});
export type SystemPromptPreview = z.infer<typeof SystemPromptPreviewSchema>;

export const MemorySchema = z.object({
  memoryId: z.string(),
  fact: z.string(),
  /** The answer whose proposal the user saved; null when typed in settings or its chat is gone. */
  sourceMessageId: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Memory = z.infer<typeof MemorySchema>;

export const MemoryListSchema = z.object({
  list: z.array(MemorySchema),
  total: z.number().int(),
  max: z.number().int(),
  enabled: z.boolean(),
});
export type MemoryList = z.infer<typeof MemoryListSchema>;

const FactSchema = z.string().trim().min(1, 'memoryFactRequired').max(MAX_MEMORY_FACT_CHARS);

export const SaveMemoryBodySchema = z.object({
  fact: FactSchema,
  /** The answer that proposed it (the caller's own message). */
  sourceMessageId: IdSchema.nullish(),
});
export type SaveMemoryBody = z.infer<typeof SaveMemoryBodySchema>;

export const UpdateMemoryBodySchema = z.object({ memoryId: IdSchema, fact: FactSchema });
export type UpdateMemoryBody = z.infer<typeof UpdateMemoryBodySchema>;

export const MemoryIdBodySchema = z.object({ memoryId: IdSchema });

export const SetMemoryEnabledBodySchema = z.object({ enabled: z.boolean() });

/** The arguments of the remember tool, as the answer's tool call carries them. */
export const RememberToolInputSchema = z.object({ fact: z.string().trim().min(1).max(MAX_MEMORY_FACT_CHARS) });
export type RememberToolInput = z.infer<typeof RememberToolInputSchema>;
