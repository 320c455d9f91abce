import { date, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { promptTags } from './prompt-tags.ts';
import { userQuickFunctions } from './quick-functions.ts';
import { users } from './users.ts';

type AppliesTo = 'selection' | 'page' | 'input';
type Category = 'style' | 'scoped';
type State = 'pending' | 'approved' | 'rejected' | 'unpublished';

/**
 * Users' prompts shared to the community library (docs/api.md#prompt-library): a snapshot of one of
 * the user's own prompts, taken when they submit it (the text an operator reviewed is the text shown).
 * One per own prompt: submitting it again replaces the snapshot and puts it back to pending.
 */
export const promptSubmissions = pgTable(
  'prompt_submissions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The own prompt it came from; null once that was deleted (the shared copy stays). */
    userQuickFunctionId: text('user_quick_function_id').references(() => userQuickFunctions.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    content: text('content').notNull(),
    category: text('category').$type<Category>().notNull().default('scoped'),
    icon: text('icon').notNull().default(''),
    appliesTo: jsonb('applies_to').$type<AppliesTo[]>().notNull().default(['input']),
    language: text('language').$type<'en' | 'zh'>().notNull(),
    state: text('state').$type<State>().notNull().default('pending'),
    /** The reviewer's reason (rejected, unpublished); '' otherwise. */
    reason: text('reason').notNull().default(''),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** When it was last approved: the library's "new" order. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('prompt_submissions_own_prompt_uq').on(t.userQuickFunctionId),
    index('prompt_submissions_user_idx').on(t.userId, t.state),
    index('prompt_submissions_state_idx').on(t.state, t.language, t.publishedAt),
  ],
);

/** Which tags a shared prompt carries (chosen when submitted). */
export const promptSubmissionTags = pgTable(
  'prompt_submission_tags',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => promptSubmissions.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => promptTags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.tagId] }), index('prompt_submission_tags_tag_idx').on(t.tagId)],
);

/**
 * Uses of library prompts (UsePrompt): one row per user, prompt and day (UTC), so a user counts once a
 * day. `promptId` is a recommended prompt's id or a submission's; the rows of a deleted prompt stay unread.
 */
export const promptUses = pgTable(
  'prompt_uses',
  {
    promptId: text('prompt_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.userId, t.day] }), index('prompt_uses_prompt_idx').on(t.promptId)],
);
