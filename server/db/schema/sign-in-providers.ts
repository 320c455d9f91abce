import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Sign-in providers an operator added in the console (docs/api.md#sign-in-with-another-account).
 * Those set in the environment (OIDC_PROVIDERS, GOOGLE_CLIENT_ID, ...) are not stored here; a key
 * used by both is the environment's. The client secret is encrypted at rest like an upstream key.
 */
export const signInProviders = pgTable('sign_in_providers', {
  /** The provider's key in every route and link: lower-case letters, digits, - and _. */
  providerKey: text('provider_key').primaryKey(),
  kind: text('kind', { enum: ['google', 'github', 'microsoft', 'oidc'] }).notNull(),
  displayName: text('display_name').notNull(),
  /** The OpenID issuer (oidc); unused for google, github and microsoft. */
  issuer: text('issuer'),
  /** Microsoft's tenant (common, organizations, consumers or a tenant id). */
  tenant: text('tenant'),
  clientId: text('client_id').notNull(),
  /** secretBox's form (server/services/system/secrets.ts); never answered to a client. */
  clientSecretEnc: text('client_secret_enc').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An account's link to its identity at a provider: one account per (provider, subject). */
export const userProviders = pgTable(
  'user_providers',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    providerKey: text('provider_key').notNull(),
    /** The provider's stable id of the person (`sub`, GitHub's numeric id). */
    subject: text('subject').notNull(),
    /** The e-mail the provider gave when linked, and whether it said it was verified. */
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The name the provider gave. */
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('user_providers_subject_uq').on(t.providerKey, t.subject), index('user_providers_user_idx').on(t.userId)],
);

/**
 * A sign-in or link on its way to a provider: made by GetProviderByAction, used once by the
 * callback within 10 minutes, only from the browser that started it (its cookie's hash).
 */
export const providerLogins = pgTable(
  'provider_logins',
  {
    /** SHA-256 of the `state` sent to the provider. */
    stateHash: text('state_hash').primaryKey(),
    /** SHA-256 of the starting browser's cookie. */
    browserHash: text('browser_hash').notNull(),
    providerKey: text('provider_key').notNull(),
    action: text('action', { enum: ['login', 'link'] }).notNull(),
    /** The signed-in account a link is for. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** A path on this server the browser is sent back to. */
    returnTo: text('return_to').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('provider_logins_expires_idx').on(t.expiresAt)],
);

/**
 * A provider identity whose verified e-mail names an existing account: linked only when the person
 * confirms they own that account (AutoLinkWeb), within 10 minutes, once. Its id reaches only the
 * browser whose cookie the callback checked.
 */
export const providerLinkRequests = pgTable('provider_link_requests', {
  /** SHA-256 of the id handed to the login page. */
  idHash: text('id_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  providerKey: text('provider_key').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  displayName: text('display_name'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});


