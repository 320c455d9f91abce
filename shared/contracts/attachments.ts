import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * The spec's attachment kinds (product spec §3): web page, picture, file, text, chat message. How each
 * travels with AddMessage (shared/contracts/chat.ts): a web page, a picture and a file are uploaded
 * media (`chatMediaIds`: media types html, image, file), a text is the page selection (`selection`),
 * and a chat message is an earlier answer of the user's own (`attachments`, kind `chatMessage`).
 */
export const AttachmentKindSchema = z.enum(['webPage', 'picture', 'file', 'text', 'chatMessage']);
export type AttachmentKind = z.infer<typeof AttachmentKindSchema>;

/** The kind of an uploaded media item (MediaType), as the spec names attachments. */
export const MEDIA_ATTACHMENT_KIND = { html: 'webPage', image: 'picture', file: 'file' } as const satisfies Record<string, AttachmentKind>;

/**
 * The spec's content group types with their wire numbers (product spec §3): what a group of context
 * a message carries is made of — web page 1, image 2, chat 3, text 4, file 5.
 */
export const ContentGroupType = { webPage: 1, image: 2, chat: 3, text: 4, file: 5 } as const;
export const ContentGroupTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
export type ContentGroupType = z.infer<typeof ContentGroupTypeSchema>;

/** The content group of each attachment kind: a picture is an image group, a chat message a chat group. */
export const ATTACHMENT_CONTENT_GROUP: Record<AttachmentKind, ContentGroupType> = {
  webPage: ContentGroupType.webPage,
  picture: ContentGroupType.image,
  chatMessage: ContentGroupType.chat,
  text: ContentGroupType.text,
  file: ContentGroupType.file,
};

/** An earlier answer of the caller's own, attached to a new question: its text goes to the model as context. */
export const ChatMessageAttachmentSchema = z.object({ kind: z.literal('chatMessage'), chatMessageId: IdSchema });
export type ChatMessageAttachment = z.infer<typeof ChatMessageAttachmentSchema>;

/**
 * AddMessage's `attachments`: the kinds that are not uploaded media nor the page selection. One
 * earlier answer per question.
 */
export const MessageAttachmentSchema = z.discriminatedUnion('kind', [ChatMessageAttachmentSchema]);
export type MessageAttachment = z.infer<typeof MessageAttachmentSchema>;
export const MAX_MESSAGE_ATTACHMENTS = 1;
