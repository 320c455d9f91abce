import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { chatSessions } from './chat.ts';
import { users } from './users.ts';

/**
 * Public read-only links to a chat (ShareSession): the snapshot is the session's messages up to
 * (upto_created_at, upto_message_id), the newest finished one when the link was made. A revoked
 * link keeps its row (revoked_at) so the owner's list can tell; deleting the chat deletes its links.
 */
export const chatShares = pgTable(
  'chat_shares',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull().references(() => chatSessions.id, { onDelete: 'cascade' }),
    uptoCreatedAt: timestamp('upto_created_at', { withTimezone: true }).notNull(),
    uptoMessageId: text('upto_message_id').notNull(),
    includeImages: boolean('include_images').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('chat_shares_user_idx').on(t.userId, t.createdAt)],
);
