import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { aiDeployments } from './models.ts';
import { users } from './users.ts';

/**
 * A file a user uploaded for the Responses API (ResponsesUpload, docs/api.md#the-responses-api):
 * kept by the deployment that received it (its `/files`, purpose user_data) under the upstream's
 * id. Our id is what the user sends to SendResponses; only its owner may use it, and only through
 * the deployment that holds it.
 */
export const responsesFiles = pgTable(
  'responses_files',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    aiModelId: text('ai_model_id').notNull(),
    deploymentId: text('deployment_id').notNull().references(() => aiDeployments.id, { onDelete: 'cascade' }),
    /** The upstream's file id (`file-…`), passed as an input_file part. */
    upstreamFileId: text('upstream_file_id').notNull(),
    fileName: text('file_name').notNull().default(''),
    /** The sniffed MIME type: images go as input_image, anything else as input_file. */
    mimeType: text('mime_type').notNull().default(''),
    byteSize: integer('byte_size').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('responses_files_user_idx').on(t.userId, t.createdAt)],
);
