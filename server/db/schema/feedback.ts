import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Uninstall feedback (AddFeedback): the reasons chosen, the user's words for "other", and which
 * browser, extension version and language it came from. Usually sent signed out (the extension is
 * gone), so user_id is mostly null; no address is kept.
 */
export const feedbacks = pgTable(
  'feedbacks',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    reasons: jsonb('reasons').$type<string[]>().notNull(),
    otherText: text('other_text').notNull().default(''),
    browser: text('browser').notNull(),
    version: text('version').notNull().default(''),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedbacks_created_idx').on(t.createdAt)],
);
