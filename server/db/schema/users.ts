import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    /** null: an account made through a sign-in provider that has not set a password yet. */
    passwordHash: text('password_hash'),
    userName: text('user_name').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    status: text('status', { enum: ['active', 'closed'] }).notNull().default('active'),
    /** The invite code this account signed up with (someone else's), as sent. */
    inviteCode: text('invite_code'),
    /** This account's own invite code, made when first asked for (docs/economy.md#invites). */
    ownInviteCode: text('own_invite_code').unique(),
    /** An operator disabled the own code: sign-ups with it link no inviter and credit nothing (docs/economy.md#invites). */
    inviteCodeDisabledAt: timestamp('invite_code_disabled_at', { withTimezone: true }),
    /** Who invited this account: set at sign-up when inviteCode names an account. */
    invitedBy: text('invited_by'),
    settings: jsonb('settings').notNull().default({}),
    /** Wrong passwords in a row since the last good login or reset (docs/security.md#login-back-off). */
    failedLogins: integer('failed_logins').notNull().default(0),
    /** Password logins are refused until then, after LOGIN_BACKOFF_AFTER failures in a row. */
    loginBlockedUntil: timestamp('login_blocked_until', { withTimezone: true }),
    /**
     * The user's picture: the id of its file in the file store (`avatars/<id>`, a 256×256 WebP), a new
     * random id for each upload; null without one (server/services/accounts/head-img.ts).
     */
    headImg: text('head_img'),
    /**
     * An optional phone number the user gave (Settings → Account), stored normalised: a leading +
     * and digits only (shared/contracts/account.ts PhoneSchema). Operators find accounts by it.
     */
    phone: text('phone'),
    /**
     * When the account proved it owns its e-mail (a verification link opened); null: not verified.
     * Accounts made before verification existed start as not verified (docs/api.md#verified-e-mail).
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_invited_by_idx').on(t.invitedBy),
    // GetHeadImg finds a picture by its id; most accounts have none.
    uniqueIndex('users_head_img_uq').on(t.headImg).where(sql`${t.headImg} is not null`),
    // One account per phone number; most accounts have none.
    uniqueIndex('users_phone_uq').on(t.phone).where(sql`${t.phone} is not null`),
  ],
);

/** Single-use keys handed out by the login page, exchanged for a token within 60 s. */
export const tempKeys = pgTable('temp_keys', {
  keyHash: text('key_hash').primaryKey(),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Bearer tokens, stored only as SHA-256 hashes. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The login this token belongs to: the first token's hash, carried by each renewal, so Logout
     * ends the whole chain (server/services/accounts/auth.ts).
     */
    loginId: text('login_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId), index('auth_tokens_login_idx').on(t.loginId)],
);

/**
 * Plan time a user holds: a paid invoice, a redeem code's days, an operator's grant. Free users have
 * none; the plan in force is the highest level of the orders that have not ended (activeVipOrderSql
 * in server/services/accounts/auth.ts). docs/economy.md#orders.
 */
export const vipOrders = pgTable(
  'vip_orders',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    packageLevel: integer('package_level').notNull(),
    packageName: text('package_name').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull().defaultNow(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** stripe (a paid invoice), redeem (a code's days), admin (ExtendEndTime); grant for orders older than this column. */
    source: text('source', { enum: ['stripe', 'redeem', 'admin', 'grant'] }).notNull().default('grant'),
    packageId: text('package_id'),
    period: text('period', { enum: ['month', 'year'] }),
    /** What was paid, in minor units of `currency` (paid orders only). */
    amount: integer('amount'),
    currency: text('currency'),
    /** One order per paid invoice. */
    stripeInvoiceId: text('stripe_invoice_id').unique(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** One order per operator's requestId (ExtendEndTime). */
    requestId: text('request_id').unique(),
    /** Plan points the order granted, and how many of them were taken back (refund, expiry). */
    pointsGranted: integer('points_granted').notNull().default(0),
    pointsTaken: integer('points_taken').notNull().default(0),
    /** Set once the grant's unspent part was expired or refunded: nothing more is taken for it. */
    pointsSettledAt: timestamp('points_settled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** A chargeback of the invoice (open, won, lost); a lost one (or its funds withdrawn) also sets refundedAt. */
    disputeStatus: text('dispute_status', { enum: ['open', 'won', 'lost'] }),
    /** Removed from the user's list by the user; an order that has not ended stays in force. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  },
  (t) => [
    index('vip_orders_user_end_idx').on(t.userId, t.endTime),
    index('vip_orders_user_created_idx').on(t.userId, t.createdAt),
    // The expiry sweep reads only the grants not settled yet.
    index('vip_orders_points_open_idx').on(t.endTime).where(sql`${t.pointsSettledAt} is null and ${t.pointsGranted} > 0`),
  ],
);
