import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The admin audit log: one row per successful admin write, added by addRoute after the handler
 * (server/http/route.ts). Append-only: no route updates or deletes rows. The actor is kept by id
 * and e-mail without a foreign key, so a row outlives the admin's account.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    /** The route without /api/admin: User/GrantPoints, AiModel/Save, ... */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('admin_audit_log_target_idx').on(t.targetType, t.targetId, t.createdAt.desc()),
    index('admin_audit_log_actor_idx').on(t.actorId, t.createdAt.desc()),
  ],
);

/**
 * Password-reset tokens an operator hands out (User/SendPasswordReset), stored only as SHA-256
 * hashes. Single use, one hour; a new one for the account invalidates older ones (usedAt set).
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdBy: text('created_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId).where(sql`${t.usedAt} is null`)],
);
