import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A favourite answer: a COPY of a chat answer with its question, model and time, kept by its owner.
 * The source chat and message are referenced by id without a foreign key, so deleting the chat leaves
 * the favourite (and its link, which then reports the source gone: favourites.ts checks at read time).
 * One favourite per source message and user (saving again answers the existing one).
 */
export const favourites = pgTable(
  'favourites',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    aiModelId: text('ai_model_id'),
    modelName: text('model_name'),
    /** When the source answer was written. */
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
    sourceSessionId: text('source_session_id'),
    sourceMessageId: text('source_message_id'),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('favourites_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('favourites_user_source_uq').on(t.userId, t.sourceMessageId),
  ],
);
