import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Context a user attached for the model (spec §3 media item). A web page (`html`) keeps its readable
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_media_user_idx').on(t.userId, t.createdAt)],
);
