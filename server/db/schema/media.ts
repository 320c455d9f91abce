import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** One part of a long video's transcript, summarised: its time range and the summary. */
export type VideoPartSummary = { from: string; to: string; summary: string };

/**
 * Context a user attached for the model (media item). A web page (`html`) keeps its readable
 * text as Markdown; only its owner can attach or see it.
 */
export const chatMedia = pgTable(
  'chat_media',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    mediaType: text('media_type').$type<'image' | 'file' | 'html'>().notNull(),
    title: text('title').notNull().default(''),
    /** The page's address after redirects (html). */
    url: text('url').notNull().default(''),
    /** The page's icon address (html), absolute; '' when it has none. */
    icon: text('icon').notNull().default(''),
    /** What the model reads: the page's readable content as Markdown. */
    contentText: text('content_text').notNull().default(''),
    /** Characters of the content before it was cut to the stored maximum. */
    contentChars: integer('content_chars').notNull().default(0),
    /** An uploaded file's or image's name as the user gave it; '' for pages read from an address. */
    fileName: text('file_name').notNull().default(''),
    /** The stored bytes' MIME type, sniffed from the content (image, file); '' when nothing is stored. */
    mimeType: text('mime_type').notNull().default(''),
    /** Size of the stored bytes. */
    byteSize: integer('byte_size').notNull().default(0),
    /** Where the bytes are in the file store (local folder or S3); '' when nothing is stored. */
    storageKey: text('storage_key').notNull().default(''),
    /** 'chat' (AddChatMedia, UploadMediaByFile), 'ai' (AddChatFileToAi), 'page' (UploadMedia), 'draw' (AddDraw). */
    purpose: text('purpose').notNull().default('chat'),
    /**
     * A long video transcript's part summaries (chat/video-parts.ts), in order, made once when it did not
     * fit a model's context; a follow-up about the same video reads them instead of summarising again.
     */
    partSummaries: jsonb('part_summaries').$type<VideoPartSummary[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_media_user_idx').on(t.userId, t.createdAt)],
);
