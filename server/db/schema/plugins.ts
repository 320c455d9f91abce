import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Plugins users can switch on for a message (Plugin). Function plugins (type 2) are tools the
 * model may call; `toolName` names the server's implementation (web_search, read_url, generate_image).
 * The built-in ones are seeded at start-up; an operator turns them on or off.
 */
export const plugins = pgTable('plugins', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** 1 page plugin, 2 function plugin. */
  pluginType: integer('plugin_type').notNull(),
  toolName: text('tool_name').notNull().unique(),
  icon: text('icon').notNull().default(''),
  /** Comma-separated scenes it is offered in ('' for every scene): web, extension, h5. */
  scenes: text('scenes').notNull().default(''),
  /** Points charged each time the model calls it. */
  pointsCost: integer('points_cost').notNull().default(0),
  online: boolean('online').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
