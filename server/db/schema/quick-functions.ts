import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

type AppliesTo = 'selection' | 'page' | 'input';
type Category = 'style' | 'scoped';

/** The columns a built-in and a user's own item share: where and when it shows, what runs it. */
const placementColumns = () => ({
  category: text('category').$type<Category>().notNull().default('scoped'),
  appliesTo: jsonb('applies_to').$type<AppliesTo[]>().notNull().default(['selection']),
  aiModelId: text('ai_model_id'),
  pinned: boolean('pinned').notNull().default(false),
  online: boolean('online').notNull().default(true),
  isGroup: boolean('is_group').notNull().default(false),
  sort: integer('sort').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Built-in quick functions (prompt tools), managed by operators, with their texts in English and
 * Chinese (the caller gets its language's). The first set is seeded by the migration that created
 * the table; operators change it through /api/admin/QuickFunction/*. A group has no template.
 */
export const quickFunctions = pgTable('quick_functions', {
  id: text('id').primaryKey(),
  parentId: text('parent_id'),
  nameEn: text('name_en').notNull(),
  nameZh: text('name_zh').notNull(),
  descriptionEn: text('description_en').notNull().default(''),
  descriptionZh: text('description_zh').notNull().default(''),
  templateEn: text('template_en').notNull().default(''),
  templateZh: text('template_zh').notNull().default(''),
  icon: text('icon').notNull().default(''),
  ...placementColumns(),
});

/** A user's own quick functions (custom prompts), in the language they wrote them. */
export const userQuickFunctions = pgTable(
  'user_quick_functions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Another of the same user's items (a group), or null for a root. */
    parentId: text('parent_id'),
    name: text('name').notNull(),
    icon: text('icon').notNull().default(''),
    description: text('description').notNull().default(''),
    template: text('template').notNull().default(''),
    ...placementColumns(),
  },
  (t) => [index('user_quick_functions_user_idx').on(t.userId, t.sort)],
);

/** Recommended prompts (AiPrompWord) shown to users as starting points, one language each. */
export const recommendedPrompts = pgTable(
  'recommended_prompts',
  {
    id: text('id').primaryKey(),
    language: text('language').$type<'en' | 'zh'>().notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    category: text('category').$type<Category>().notNull().default('scoped'),
    icon: text('icon').notNull().default(''),
    online: boolean('online').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recommended_prompts_language_idx').on(t.language, t.sort)],
);
