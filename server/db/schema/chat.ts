import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { ChatParams } from '../../../shared/contracts/param-tools.ts';
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
    /** When the user pinned the chat to the top of the history (PinSession); null: not pinned. */
    pinnedAt: timestamp('pinned_at', { withTimezone: true }),
    /**
     * The last exchange of the branch the chat shows (chat/versions.ts): its path up by parent_id is
     * what the message list, the model's context and a new share read. Null: none (an empty chat), or
     * not set (then the newest exchange stands in). No foreign key: kept by the statements that write it.
     */
    currentLeafId: text('current_leaf_id'),
    /**
     * The parameters the user set for this chat (ParamTools/SaveBySession, or AddMessage's chatParams
     * for a new chat): temperature, maximum answer length, system prompt. Null: none set. Read with
     * the session row by the send path and clamped to the answering model's bounds then.
     */
    params: jsonb('params').$type<ChatParams>(),
  },
  (t) => [
    // The history's order, ties included (lastActiveAt, then id): a page is read from the index in
    // order, without sorting a heavy user's 100k sessions (bench/history). NULLS FIRST as ORDER BY
    // ... DESC means it: drizzle's default DESC NULLS LAST index cannot serve that order.
    index('chat_sessions_user_active_idx').on(t.userId, t.lastActiveAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The pinned chats that head the history, most recently pinned first (chat/sessions.ts): a user's
    // few pins, read apart from the rest so that neither read sorts.
    index('chat_sessions_user_pinned_idx')
      .on(t.userId, t.pinnedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.pinnedAt} is not null`),
    // Substring search on titles stays fast at 100k sessions (pg_trgm, created by the first migration).
    index('chat_sessions_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
  ],
);

/**
 * One exchange: the user's input and the model's output. The row is written with the input before
 * the upstream is called; the output grows as it streams. finishReason null means still streaming.
 * Exchanges form a tree (answer versions, docs/api.md#answer-versions): each has the exchange before it
 * on its path as parent; the versions of a turn are exchanges with the same parent.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').notNull().references(() => chatSessions.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The exchange before this one on its path (same session); null for a first turn. No foreign key
     * (a self-reference would make deleting a long chat check every row's children): deleting an
     * exchange re-attaches its children to its parent in the same transaction (chat/versions.ts).
     */
    parentId: text('parent_id'),
    inputMessage: text('input_message').notNull(),
    /** Media attached with the input (AddChatMedia ids). */
    mediaIds: jsonb('media_ids').$type<string[]>().notNull().default([]),
    outputMessage: text('output_message').notNull().default(''),
    /** Sources the answer cites as [n] (web search), in their numbered order. */
    citations: jsonb('citations').$type<{ index: number; title: string; url: string }[]>().notNull().default([]),
    /** Function-plugin calls the model made while answering, with their results (ChatToolCall). */
    toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull().default([]),
    /** The quick function the message used (MessageQuickFunction), null for none. */
    quickFunction: jsonb('quick_function').$type<{ quickFunctionId: string; name: string; icon: string }>(),
    /** The page text attached to the message (MessageSelection), null for none. */
    selection: jsonb('selection').$type<{ text: string; title: string; url: string; chatMessageId?: string }>(),
    /** The quick function's rendered text sent to the model in place of inputMessage, null for none. */
    promptText: text('prompt_text'),
    requestedModelId: text('requested_model_id').notNull(),
    aiModelId: text('ai_model_id'),
    modelName: text('model_name'),
    finishReason: text('finish_reason'),
    errorMessage: text('error_message'),
    pointsCost: integer('points_cost').notNull().default(0),
    /** A token-priced answer's charge was settled against its tokens (ledger.ts settleTokenCharge): once only. */
    pointsSettled: boolean('points_settled').notNull().default(false),
    /**
     * Token metering, written with the answer's end (docs/admin-stats.md#token-metering): the
     * deployment that answered (kept when it is deleted: no foreign key), the tokens the provider
     * reported (or estimated, `tokensEstimated`), and the ms from sending the request to the first
     * output of the deployment that answered. Null until known, and for answers no deployment gave.
     */
    deploymentId: text('deployment_id'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    tokensEstimated: boolean('tokens_estimated').notNull().default(false),
    firstTokenMs: integer('first_token_ms'),
    /** The instance streaming the answer (server_instances.id; PostgreSQL only), for crash recovery. */
    writerInstanceId: integer('writer_instance_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('chat_messages_session_idx').on(t.sessionId, t.createdAt),
    // A turn's versions (the children of one exchange, or a chat's first turns), in the order made.
    index('chat_messages_session_parent_idx').on(t.sessionId, t.parentId, t.createdAt),
    index('chat_messages_unfinished_idx').on(t.updatedAt).where(sql`${t.finishReason} is null`),
    // The dashboard's rollups fold answers by when they finished (usage-rollup.ts), and read the ones
    // finished after the last fold live.
    index('chat_messages_finished_idx').on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
    // Full-text search (chat-search.ts): a rare text is found through the trigram indexes; a common
    // one by walking the user's messages newest first until a page is full (bench/search). Finished
    // answers only: a streaming answer's every flush would otherwise re-index its whole text.
    index('chat_messages_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('chat_messages_input_trgm_idx').using('gin', sql`lower(${t.inputMessage}) gin_trgm_ops`).where(sql`${t.finishReason} is not null`),
    index('chat_messages_output_trgm_idx').using('gin', sql`lower(${t.outputMessage}) gin_trgm_ops`).where(sql`${t.finishReason} is not null`),
  ],
);
