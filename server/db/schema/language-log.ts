import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Operators' overrides of the client's built-in strings (the Language family), one per (language,
 * key); the built-in strings themselves ship with the client and are never stored.
 */
export const translationOverrides = pgTable(
  'translation_overrides',
  {
    language: text('language').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.language, t.key] })],
);

/**
 * Uncaught errors the surfaces reported (the Log family), one row per fingerprint (message + top
 * frame): how often, when first and last, and in which versions, surfaces and browsers (a few each).
 */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: text('id').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    message: text('message').notNull(),
    topFrame: text('top_frame'),
    stack: text('stack'),
    surfaces: jsonb('surfaces').$type<string[]>().notNull().default([]),
    versions: jsonb('versions').$type<string[]>().notNull().default([]),
    browsers: jsonb('browsers').$type<string[]>().notNull().default([]),
    lastPath: text('last_path'),
    count: integer('count').notNull().default(0),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('client_errors_fingerprint_uq').on(t.fingerprint), index('client_errors_last_seen_idx').on(t.lastSeenAt)],
);
