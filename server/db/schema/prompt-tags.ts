import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { recommendedPrompts, userQuickFunctions } from './quick-functions.ts';

/**
 * Prompt tags (TagPrompt), kept by operators with a name in each language; each name is unique in its
 * language whatever its case. Recommended prompts and users' own prompts carry them through the two
 * link tables below; deleting a tag (or a prompt) deletes its links, never the other side.
 */
export const promptTags = pgTable(
  'prompt_tags',
  {
    id: text('id').primaryKey(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('prompt_tags_name_en_uq').on(sql`lower(${t.nameEn})`), uniqueIndex('prompt_tags_name_zh_uq').on(sql`lower(${t.nameZh})`)],
);

/** Which tags a recommended prompt carries. */
export const recommendedPromptTags = pgTable(
  'recommended_prompt_tags',
  {
    promptId: text('prompt_id')
      .notNull()
      .references(() => recommendedPrompts.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => promptTags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.tagId] }), index('recommended_prompt_tags_tag_idx').on(t.tagId)],
);

/** Which tags a user's own prompt (user quick function) carries. */
export const userQuickFunctionTags = pgTable(
  'user_quick_function_tags',
  {
    userQuickFunctionId: text('user_quick_function_id')
      .notNull()
      .references(() => userQuickFunctions.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => promptTags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userQuickFunctionId, t.tagId] }), index('user_quick_function_tags_tag_idx').on(t.tagId)],
);
