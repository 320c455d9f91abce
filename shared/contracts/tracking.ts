import { z } from 'zod';
import { PageQuerySchema, pagedSchema } from './common.ts';

export const MAX_REQUEST_TIMES_PER_CALL = 50;
export const MAX_BROWSER_EVENTS_PER_CALL = 20;
export const MAX_PAYLOAD_FIELD_CHARS = 2000;
export const MAX_PAYLOAD_BYTES = 8 * 1024;

/** Serialized size; a value too deeply nested to serialize counts as too large. */
function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A client time: epoch milliseconds, or text (an ISO date or a number as text). */
const ClientTimeSchema = z.union([z.number().finite().min(0), z.string().trim().min(1).max(64)]);

/** A request tracking entry (AddRequestTime). */
export const RequestTimeEntrySchema = z.object({
  RequestId: z.string().trim().min(1).max(100),
  ClientRequestTime: ClientTimeSchema,
  ClientResponseTime: ClientTimeSchema,
  ClientResponseErrMsg: z.string().max(1000).nullish(),
});
export type RequestTimeEntry = z.infer<typeof RequestTimeEntrySchema>;

export const AddRequestTimeBodySchema = z.array(RequestTimeEntrySchema).min(1).max(MAX_REQUEST_TIMES_PER_CALL);

export const SavedCountSchema = z.object({ saved: z.number().int() });

const payloadField = z.string().max(MAX_PAYLOAD_FIELD_CHARS).nullish();

/** A page-view event payload (AddBrowser); other keys are kept too, within the size bound. */
export const PageViewPayloadSchema = z
  .looseObject({
    platformUserAgent: payloadField,
    platformDeviceId: payloadField,
    clientFrom: payloadField,
    inviteCode: payloadField,
    currentUrl: payloadField,
    platformBrowserLanguage: payloadField,
    referer: payloadField,
  })
  .refine((p) => jsonBytes(p) <= MAX_PAYLOAD_BYTES, { message: 'payloadTooLarge' });
export type PageViewPayload = z.infer<typeof PageViewPayloadSchema>;

export const EventTypeSchema = z.string().trim().min(1).max(64);

export const BrowserEventSchema = z.object({
  event: z.object({ eventType: EventTypeSchema }),
  payload: PageViewPayloadSchema.default({}),
});
export type BrowserEvent = z.infer<typeof BrowserEventSchema>;

export const AddBrowserBodySchema = z.array(BrowserEventSchema).min(1).max(MAX_BROWSER_EVENTS_PER_CALL);

/** The GET form: one record, eventType plus the payload's fields as query parameters. */
export const AddBrowserQuerySchema = z
  .object({ eventType: EventTypeSchema })
  .catchall(z.string().max(MAX_PAYLOAD_FIELD_CHARS))
  .refine((q) => jsonBytes(q) <= MAX_PAYLOAD_BYTES, { message: 'payloadTooLarge' });

export const BrowserListQuerySchema = PageQuerySchema.extend({
  eventType: z.preprocess((v) => (v === '' ? undefined : v), EventTypeSchema.optional()),
});
export type BrowserListQuery = z.infer<typeof BrowserListQuerySchema>;

export const BrowserRecordSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  payload: z.record(z.string(), z.unknown()),
  userId: z.string().nullable(),
  driverId: z.string().nullable(),
  ip: z.string().nullable(),
  createTime: z.string(),
});
export type BrowserRecord = z.infer<typeof BrowserRecordSchema>;
export const BrowserRecordPageSchema = pagedSchema(BrowserRecordSchema);
