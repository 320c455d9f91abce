import { z } from 'zod';
import { MAX_MESSAGE_ATTACHMENTS, MessageAttachmentSchema } from './attachments.ts';
import { IdSchema, PageQuerySchema, pagedSchema } from './common.ts';
import { MediaTypeSchema } from './media.ts';
import { ChatParamsSchema } from './param-tools.ts';
import { ChatSelectionSchema, MessageQuickFunctionSchema, MessageSelectionSchema } from './quick-function.ts';

/** The client sends an absent session as undefined, null or '' alike. */
const optionalId = z.preprocess((v) => (v === null || v === '' ? undefined : v), IdSchema.optional());

export const MAX_INPUT_CHARS = 32_000;
export const MAX_MEDIA_PER_MESSAGE = 5;
export const MAX_SESSION_TITLE_CHARS = 100;

const addMessageFields = {
  chatSessionId: optionalId,
  aiModelId: IdSchema,
  /** May be empty when a quickFunctionId is given (the tool's name is then shown). */
  inputMessage: z.string().trim().max(MAX_INPUT_CHARS),
  /** Uploaded media (AddChatMedia) attached to this message; an id repeated counts once. */
  chatMediaIds: z
    .array(IdSchema)
    .max(MAX_MEDIA_PER_MESSAGE, 'attachmentCountExceed')
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
  webSearch: z.boolean().nullish(),
  pluginIds: z.array(z.union([IdSchema, z.number().int()])).max(20).nullish(),
  /** A quick function (built-in or own, shared/contracts/quick-function.ts) whose template frames the message. */
  quickFunctionId: IdSchema.nullish(),
  /** Text selected on a page, sent to the model as a separate, delimited part (never inside the template). */
  selection: ChatSelectionSchema.nullish(),
  /**
   * Attachments that are neither uploaded media nor the page selection (shared/contracts/attachments.ts):
   * an earlier answer of the caller's own (kind `chatMessage`), sent to the model as a delimited part
   * like a selection. Not together with `selection`: one attached text per question.
   */
  attachments: z.array(MessageAttachmentSchema).max(MAX_MESSAGE_ATTACHMENTS, 'attachmentCountExceed').nullish(),
  /**
   * A new version of one of this chat's exchanges (Ask again, an edited question): the message answers
   * the conversation that exchange answered, beside it (the same parent), not after the chat's end.
   * Needs chatSessionId. Without it the message follows the exchange the chat shows last.
   */
  versionOf: optionalId,
  /**
   * The chat's parameters (temperature, maximum answer length, system prompt: ParamTools) for a new
   * chat, checked against the model's bounds and stored with it. Ignored with chatSessionId: an
   * existing chat's are set by ParamTools/SaveBySession.
   */
  chatParams: ChatParamsSchema.nullish(),
};
const refineMessage = (v: { inputMessage: string; quickFunctionId?: string | null; versionOf?: string; chatSessionId?: string; selection?: unknown; attachments?: readonly unknown[] | null }, ctx: z.RefinementCtx) => {
  if (!v.inputMessage && !v.quickFunctionId) ctx.addIssue({ code: 'custom', path: ['inputMessage'], message: 'inputMessageRequired' });
  if (v.versionOf && !v.chatSessionId) ctx.addIssue({ code: 'custom', path: ['versionOf'], message: 'versionOfNeedsSession' });
  if (v.selection && v.attachments?.length) ctx.addIssue({ code: 'custom', path: ['attachments'], message: 'oneAttachedText' });
};
export const AddMessageBodySchema = z.object(addMessageFields).superRefine(refineMessage);
export type AddMessageBody = z.infer<typeof AddMessageBodySchema>;

/** Files uploaded by ResponsesUpload one SendResponses message may carry. */
export const MAX_RESPONSES_FILES = 5;

/**
 * POST /api/Chat/SendResponses: AddMessage through the Responses API (docs/api.md#the-responses-api).
 * The same body and stream; the model must have a deployment that speaks it, and `responsesFileIds`
 * (ResponsesUpload ids, the caller's own) go to the model as input_file parts.
 */
export const SendResponsesBodySchema = z
  .object({
    ...addMessageFields,
    responsesFileIds: z
      .array(IdSchema)
      .max(MAX_RESPONSES_FILES, 'attachmentCountExceed')
      .nullish()
      .transform((v) => [...new Set(v ?? [])]),
  })
  .superRefine(refineMessage);
export type SendResponsesBody = z.infer<typeof SendResponsesBodySchema>;

/** ResponsesUpload's answer: our id of the file (for SendResponses) and what was uploaded. */
export const ResponsesFileSchema = z.object({
  responsesFileId: z.string(),
  aiModelId: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  byteSize: z.number().int(),
});
export type ResponsesFile = z.infer<typeof ResponsesFileSchema>;
/** ResponsesUpload's text fields: the model whose Responses deployment receives the file. */
export const ResponsesUploadFieldsSchema = z.object({ aiModelId: IdSchema });

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

/** A source the answer cites as [index] (web search results), numbered from 1. */
export const ChatCitationSchema = z.object({ index: z.number().int().min(1), title: z.string(), url: z.string() });
export type ChatCitation = z.infer<typeof ChatCitationSchema>;

/**
 * A function-plugin call the model made while answering (web_search, read_url, generate_image): what
 * it asked, and what it got back (a short text for people; `images` for generated pictures).
 */
export const ChatToolCallSchema = z.object({
  toolCallId: z.string(),
  toolName: z.string(),
  /** The arguments as the model sent them (JSON text). */
  input: z.string(),
  status: z.enum(['running', 'completed', 'error']),
  /** What the tool answered, for the collapsible view (truncated for long results). */
  output: z.string(),
  /** Addresses of images the tool produced (generate_image), served by the server. */
  images: z.array(z.string()).default([]),
});
export type ChatToolCall = z.infer<typeof ChatToolCallSchema>;

/**
 * Extra fields an AddMessage event may carry besides the eight fields above (clients that do not know them ignore
 * them): the sources of a web-searched answer (sent once they are known), and the tool calls so far
 * (the whole list each time it changes).
 */
export const ChatStreamExtrasSchema = z.object({
  Citations: z.array(ChatCitationSchema).optional(),
  ToolCalls: z.array(ChatToolCallSchema).optional(),
});
export type ChatStreamExtras = z.infer<typeof ChatStreamExtrasSchema>;

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

/** Far more text than one answer holds: an offset past it is a mistake, refused before any lookup. */
const MAX_RESUME_OFFSET = 10_000_000;

/**
 * ResumeMessage: continue following an answer (on another surface, or after a dropped connection).
 * `offset` is how much of OutputMessage the client already has, in UTF-16 code units as JavaScript
 * counts `string.length` (the sum of the OutputMessage lengths it appended); the stream sends the
 * text from there on, so an offset inside a surrogate pair continues with its second half.
 */
export const ResumeMessageQuerySchema = z.object({
  chatMessageId: IdSchema,
  offset: z.coerce.number().int().min(0).max(MAX_RESUME_OFFSET).default(0),
});
export type ResumeMessageQuery = z.infer<typeof ResumeMessageQuerySchema>;

export const SessionListQuerySchema = PageQuerySchema.extend({
  sessionTitle: z.string().trim().max(MAX_SESSION_TITLE_CHARS).optional(),
});
export type SessionListQuery = z.infer<typeof SessionListQuerySchema>;

/** An item of an older server has no lastActiveTime: as far as the client can tell, the chat was last active when it was made. */
const lastActiveFromCreateTime = (v: unknown) =>
  v && typeof v === 'object' && (v as { lastActiveTime?: unknown }).lastActiveTime == null
    ? { ...v, lastActiveTime: (v as { createTime?: unknown }).createTime }
    : v;

export const ChatSessionItemSchema = z.preprocess(
  lastActiveFromCreateTime,
  z.object({
    chatSessionId: z.string(),
    sessionTitle: z.string(),
    sessionDescribe: z.string(),
    createTime: z.string(),
    /** When the chat last had a message: the history is sorted by it (after the pinned chats) and grouped by its date. */
    lastActiveTime: z.string(),
    /** Pinned to the top of the history (PinSession). Absent from older servers: false. */
    pinned: z.boolean().default(false),
    /** An answer of this chat is still being written (on any surface): opening it continues it live. Absent from older servers: false. */
    answering: z.boolean().default(false),
  }),
);
export type ChatSessionItem = z.infer<typeof ChatSessionItemSchema>;
export const ChatSessionPageSchema = pagedSchema(ChatSessionItemSchema);

/** GetChatSession: one of the caller's chats, by id (the open chat's header shows its title). */
export const SessionQuerySchema = z.object({ chatSessionId: IdSchema });
export type SessionQuery = z.infer<typeof SessionQuerySchema>;

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
  /** Sources cited as [n] in outputMessage (absent from older servers: none). */
  citations: z.array(ChatCitationSchema).default([]),
  /** Function-plugin calls made while answering (absent from older servers: none). */
  toolCalls: z.array(ChatToolCallSchema).default([]),
  /** The quick function used for this message; the server always sends it (null: none; absent from older servers). */
  quickFunction: MessageQuickFunctionSchema.nullish(),
  /** The page text attached to this message; the server always sends it (null: none; absent from older servers). */
  selection: MessageSelectionSchema.nullish(),
  /** null while the answer is still streaming. */
  finishReason: z.string().nullable(),
  createTime: z.string(),
  finishTime: z.string().nullable(),
  /**
   * The versions of this exchange's turn (Ask again, an edited question: exchanges with the same
   * parent), in the order they were made: their ids, which one this is (from 1) and how many there
   * are. The server always sends them; absent from older servers (one version).
   */
  versionIds: z.array(z.string()).optional(),
  versionIndex: z.number().int().min(1).optional(),
  versionCount: z.number().int().min(1).optional(),
});
export type ChatMessageItem = z.infer<typeof ChatMessageItemSchema>;
export const ChatMessagePageSchema = pagedSchema(ChatMessageItemSchema);

/**
 * SwitchVersion: shows the branch through one of the caller's exchanges (another version of a turn,
 * or a search hit). chatSessionId, when given, must be the exchange's chat.
 */
export const SwitchVersionBodySchema = z.object({ chatSessionId: optionalId, chatMessageId: IdSchema });
export type SwitchVersionBody = z.infer<typeof SwitchVersionBodySchema>;
/**
 * What the chat shows after a switch: `list` is its exchanges from the chosen one down to the branch's
 * last, oldest first (a branch longer than MAX_SWITCH_LIST below it: its newest MAX_SWITCH_LIST
 * exchanges); `total` counts the exchanges of the whole branch shown, as the message list does.
 */
export const SwitchVersionResultSchema = pagedSchema(ChatMessageItemSchema);
export const MAX_SWITCH_LIST = 100;

/** What an export shows of one exchange: the question with what was attached, and the answer with its sources. */
export type ChatExchange = Pick<ChatMessageItem, 'inputMessage' | 'outputMessage' | 'modelName' | 'chatMedias' | 'citations' | 'selection'>;

export const UpdateSessionTitleBodySchema = z.object({
  chatSessionId: IdSchema,
  sessionTitle: z.string().trim().min(1, 'sessionTitleRequired').max(MAX_SESSION_TITLE_CHARS),
});
export type UpdateSessionTitleBody = z.infer<typeof UpdateSessionTitleBodySchema>;

/** PinSession: pins one of the caller's chats to the top of the history (pinned: true) or unpins it. */
export const PinSessionBodySchema = z.object({
  chatSessionId: IdSchema,
  pinned: z.boolean(),
});
export type PinSessionBody = z.infer<typeof PinSessionBodySchema>;

export const DeleteSessionsBodySchema = z.object({
  ids: z.array(IdSchema).max(100).default([]),
  /** Deletes all of the caller's sessions; ids are then ignored. */
  isDelAll: z.boolean().default(false),
});
export type DeleteSessionsBody = z.infer<typeof DeleteSessionsBodySchema>;
export const DeleteSessionsResultSchema = z.object({ deleted: z.number().int() });

export const DeleteMessageBodySchema = z.object({ chatMessageId: IdSchema });
export type DeleteMessageBody = z.infer<typeof DeleteMessageBodySchema>;
