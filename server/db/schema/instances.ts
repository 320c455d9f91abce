import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The server instances that run or ran on this database (PostgreSQL only; PGlite is one process).
 * A live instance holds an advisory lock named by its id on a connection of its own, released by
 * PostgreSQL the moment the process dies: an unfinished answer whose writer holds no lock is an
 * orphan (server/services/system/instances.ts). The heartbeat is for operators looking at the table.
 */
export const serverInstances = pgTable('server_instances', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});
