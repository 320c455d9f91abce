import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { BroadcastTranslations } from '../../../shared/contracts/notifications.ts';
import { users } from './users.ts';

/** What the user is told (docs/economy.md#notifications): payments, plans, points, invites, broadcasts. */
export const userNotifications = pgTable(
  'user_notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Message keys and their parameters, rendered in the reader's language by the client. */
    titleKey: text('title_key').notNull(),
    bodyKey: text('body_key').notNull(),
    params: text('params').notNull().default('{}'),
    /**
     * A broadcast's title and body in other languages than its default (params' title and body), by
     * language ({ zh: { title, body } }); the list gives a reader their language's (notification-inbox.ts).
     */
    translations: jsonb('translations').$type<BroadcastTranslations>().notNull().default({}),
    /** Where a click leads inside the app (a path such as /subscription), or ''. */
    link: text('link').notNull().default(''),
    /** Names the event, so it notifies once (a replayed webhook, a retried job). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_notifications_user_idx').on(t.userId, t.createdAt)],
);
