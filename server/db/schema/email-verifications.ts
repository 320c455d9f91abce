import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * E-mail verification links (docs/api.md#verified-e-mail), stored only as SHA-256 hashes of their
 * tokens. Single use, valid EMAIL_VERIFY_TTL; a new link for the account marks the older ones used.
 * The rows also count the mails an account asked for (the hourly limit) and say when the last one
 * went out (sentAt: null when the mail could not be sent).
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was sent to: a link proves only the address it went to. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_verifications_user_created_idx').on(t.userId, t.createdAt)],
);
