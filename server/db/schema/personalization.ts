import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { chatMessages } from './chat.ts';
import { users } from './users.ts';

/**
 * Personalization and memory (docs/api.md#personalization-and-memory). One row per user who saved
 * anything or finished the onboarding; a user without a row has the defaults (on, empty, onboarding
 * pending). The text the chat adds to the system prompt is built from these tables and cached per
 * instance (server/services/personalization/personalization.ts).
 */
export const personalizations = pgTable('personalizations', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  occupation: text('occupation').notNull().default(''),
  traits: text('traits').notNull().default(''),
  otherInfo: text('other_info').notNull().default(''),
  /** null: the language of the question. */
  answerLanguage: text('answer_language'),
  memoryEnabled: boolean('memory_enabled').notNull().default(true),
  onboarding: text('onboarding', { enum: ['pending', 'done', 'skipped'] })
    .notNull()
    .default('pending'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Facts a user asked the assistant to remember (or typed in settings). */
export const memories = pgTable(
  'memories',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fact: text('fact').notNull(),
    /** The answer that proposed it; cleared when that chat is deleted (the fact stays). */
    sourceMessageId: text('source_message_id').references(() => chatMessages.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('memories_user_created_idx').on(t.userId, t.createdAt)],
);
