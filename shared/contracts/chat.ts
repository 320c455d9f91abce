import { z } from 'zod';
import { IdSchema, PageQuerySchema, pagedSchema } from './common.ts';
import { MediaTypeSchema } from './media.ts';

/** The client sends an absent session as undefined, null or '' alike. */
const optionalId = z.preprocess((v) => (v === null || v === '' ? undefined : v), IdSchema.optional());

export const MAX_INPUT_CHARS = 32_000;
export const MAX_MEDIA_PER_MESSAGE = 5;
export const MAX_SESSION_TITLE_CHARS = 100;

export const AddMessageBodySchema = z.object({
  chatSessionId: optionalId,
  aiModelId: IdSchema,
  inputMessage: z.string().trim().min(1, 'inputMessageRequired').max(MAX_INPUT_CHARS),
  /** Uploaded media (AddChatMedia) attached to this message; an id repeated counts once. */
  chatMediaIds: z
    .array(IdSchema)
    .max(MAX_MEDIA_PER_MESSAGE)
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
  webSearch: z.boolean().nullish(),
  pluginIds: z.array(z.union([IdSchema, z.number().int()])).max(20).nullish(),
});
export type AddMessageBody = z.infer<typeof AddMessageBodySchema>;

/**
 * Data of every `data:` event of the AddMessage stream. OutputMessage is the text to append (or the
 * whole answer when ReplaceMessage is true); FinishReason is null until the last event.
 */
export const ChatStreamDataSchema = z.object({
  ChatMessageId: z.string(),
  ChatSessionId: z.string(),
  InputMessage: z.string(),
  OutputMessage: z.string(),
  FinishReason: z.string().nullable(),
  ModelName: z.string(),
  ModelId: z.string(),
  ReplaceMessage: z.boolean(),
});
export type ChatStreamData = z.infer<typeof ChatStreamDataSchema>;

/** Why an answer ended: the upstream's own reasons plus ours. */
export const ChatFinishReasons = {
  stop: 'stop',
  length: 'length',
  userStopped: 'user-stopped',
  clientDisconnected: 'client-disconnected',
  error: 'error',
  interrupted: 'interrupted',
} as const;

export const StopMessageBodySchema = z.object({ chatMessageId: IdSchema });
export type StopMessageBody = z.infer<typeof StopMessageBodySchema>;

export const SessionListQuerySchema = PageQuerySchema.extend({
  sessionTitle: z.string().trim().max(MAX_SESSION_TITLE_CHARS).optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuerySchema>;

export const ChatSessionItemSchema = z.object({
  chatSessionId: z.string(),
  sessionTitle: z.string(),
  sessionDescribe: z.string(),
  createTime: z.string(),
});
export type ChatSessionItem = z.infer<typeof ChatSessionItemSchema>;
export const ChatSessionPageSchema = pagedSchema(ChatSessionItemSchema);

export const MessageListQuerySchema = PageQuerySchema.extend({
  chatSessionId: IdSchema,
  /** desc pages from the newest message back, so a long chat opens at its end. */
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type MessageListQuery = z.infer<typeof MessageListQuerySchema>;

/** What a sent message shows of a media item attached to it (its chip in the user's bubble). */
export const MessageMediaSchema = z.object({
  chatMediaId: z.string(),
  mediaType: MediaTypeSchema,
  title: z.string(),
  url: z.string(),
  icon: z.string(),
});
export type MessageMedia = z.infer<typeof MessageMediaSchema>;

export const ChatMessageItemSchema = z.object({
  chatMessageId: z.string(),
  chatSessionId: z.string(),
  inputMessage: z.string(),
  outputMessage: z.string(),
  aiModelId: z.string().nullable(),
  modelName: z.string().nullable(),
  chatMediaIds: z.array(z.string()),
  /** The media items of chatMediaIds that still exist, in the same order (absent from older servers: none). */
  chatMedias: z.array(MessageMediaSchema).default([]),
  /** null while the answer is still streaming. */
  finishReason: z.string().nullable(),
  createTime: z.string(),
  finishTime: z.string().nullable(),
});
export type ChatMessageItem = z.infer<typeof ChatMessageItemSchema>;
export const ChatMessagePageSchema = pagedSchema(ChatMessageItemSchema);

export const UpdateSessionTitleBodySchema = z.object({
  chatSessionId: IdSchema,
  sessionTitle: z.string().trim().min(1, 'sessionTitleRequired').max(MAX_SESSION_TITLE_CHARS),
});
export type UpdateSessionTitleBody = z.infer<typeof UpdateSessionTitleBodySchema>;

export const DeleteSessionsBodySchema = z.object({
  ids: z.array(IdSchema).max(100).default([]),
  /** Deletes all of the caller's sessions; ids are then ignored. */
  isDelAll: z.boolean().default(false),
});
export type DeleteSessionsBody = z.infer<typeof DeleteSessionsBodySchema>;
export const DeleteSessionsResultSchema = z.object({ deleted: z.number().int() });

export const DeleteMessageBodySchema = z.object({ chatMessageId: IdSchema });
export type DeleteMessageBody = z.infer<typeof DeleteMessageBodySchema>;
