import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const systemSettings = pgTable('system_settings', {
  settingKey: text('setting_key').primaryKey(),
  settingValue: text('setting_value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Client request-time tracking entries (AddRequestTime). */
export const requestTimes = pgTable(
  'request_times',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    driverId: text('driver_id'),
    requestId: text('request_id').notNull(),
    clientRequestTime: text('client_request_time').notNull(),
    clientResponseTime: text('client_response_time').notNull(),
    durationMs: integer('duration_ms'),
    errMsg: text('err_msg'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('request_times_created_idx').on(t.createdAt),
    // The console finds the accounts a visitor id (DriverId) was signed in as (GetUserByVisotorId).
    index('request_times_driver_user_idx').on(t.driverId, t.userId),
  ],
);

/** Page-view and other browser records (AddBrowser). */
export const browserRecords = pgTable(
  'browser_records',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    driverId: text('driver_id'),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('browser_records_created_idx').on(t.createdAt),
    // The admin list filters by event type, newest first.
    index('browser_records_event_created_idx').on(t.eventType, t.createdAt),
    index('browser_records_driver_user_idx').on(t.driverId, t.userId),
  ],
);

/**
 * Translations asked with a client's idempotency key (TransText `requestId`), kept 10 minutes: a
 * retry with the same key is answered this result (or waits for it while `result` is null) without
 * a second charge or model call. In the database, so every instance of the server sees it.
 */
export const translationRequests = pgTable(
  'translation_requests',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: text('request_id').notNull(),
    /** SHA-256 of the request's text, segments and target: the same key with another body is refused. */
    bodyHash: text('body_hash').notNull(),
    /** The answer once translated; null while the first request runs. */
    result: jsonb('result'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.requestId] }), index('translation_requests_created_idx').on(t.createdAt)],
);
