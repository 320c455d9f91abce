import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    describe: text('describe').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_sessions_user_active_idx').on(t.userId, t.lastActiveAt.desc()),
    // Substring search on titles stays fast at 100k sessions (pg_trgm, created by the first migration).
    index('chat_sessions_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
  ],
);

/**
 * One exchange: the user's input and the model's output. The row is written with the input before
 * the upstream is called; the output grows as it streams. finishReason null means still streaming.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').notNull().references(() => chatSessions.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    inputMessage: text('input_message').notNull(),
    /** Media attached with the input (AddChatMedia ids). */
    mediaIds: jsonb('media_ids').$type<string[]>().notNull().default([]),
    outputMessage: text('output_message').notNull().default(''),
    /** Sources the answer cites as [n] (web search), in their numbered order. */
    citations: jsonb('citations').$type<{ index: number; title: string; url: string }[]>().notNull().default([]),
    /** Function-plugin calls the model made while answering, with their results (ChatToolCall). */
    toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull().default([]),
    requestedModelId: text('requested_model_id').notNull(),
    aiModelId: text('ai_model_id'),
    modelName: text('model_name'),
    finishReason: text('finish_reason'),
    errorMessage: text('error_message'),
    pointsCost: integer('points_cost').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('chat_messages_session_idx').on(t.sessionId, t.createdAt),
    index('chat_messages_unfinished_idx').on(t.updatedAt).where(sql`${t.finishReason} is null`),
  ],
);
