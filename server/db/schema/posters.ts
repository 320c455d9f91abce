import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The invite poster (docs/api.md#invite-poster). `poster_settings` has at most one row (id 'poster'),
 * what operators set; without it the built-in words and colour apply. `revision` goes up with every
 * save, and is part of every poster's version, so a save makes every cached poster stale.
 */
export const posterSettings = pgTable(
  'poster_settings',
  {
    id: text('id').primaryKey(),
    headlineEn: text('headline_en').notNull().default(''),
    headlineZh: text('headline_zh').notNull().default(''),
    subtextEn: text('subtext_en').notNull().default(''),
    subtextZh: text('subtext_zh').notNull().default(''),
    accentColor: text('accent_color').notNull(),
    /** The operator's picture in the file store (posters/picture/<id>), PNG; null: none. */
    pictureId: text('picture_id'),
    revision: integer('revision').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('poster_settings_one_row', sql`${t.id} = 'poster'`)],
);

/**
 * The poster made last for an account in a language: at most one per (account, language), so the
 * cache is bounded by the accounts that asked. `version` hashes everything the picture shows; a
 * request whose version differs makes a new one and removes this one's file.
 */
export const posterRenders = pgTable(
  'poster_renders',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    version: text('version').notNull(),
    /** The PNG in the file store (posters/cache/<id>). */
    fileId: text('file_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.language] })],
);
