import { z } from 'zod';
import { PageQuerySchema, pagedSchema } from './common.ts';
import { BrowserRecordSchema } from './tracking.ts';

/**
 * Analytics through the server (docs/api.md#analytics): off unless the operator sets a GA4
 * measurement id and API secret; then a consenting client's events are forwarded to the provider.
 */

const field = z.string().max(2000).nullish();

/** The analytics event payload the spec names; extra fields are kept within the size bound. */
export const AnalyticsPayloadSchema = z.looseObject({
  page_referer: field,
  current_url: field,
  screen_width: z.number().int().min(0).max(100_000).nullish(),
  screen_height: z.number().int().min(0).max(100_000).nullish(),
  platform_user_agent: field,
  platform_language: z.string().max(35).nullish(),
  browser_id: z.string().trim().min(1).max(128),
});
export type AnalyticsPayload = z.infer<typeof AnalyticsPayloadSchema>;

/** POST /api/Browser/AddGoogleAnalytics. `consent` is the user's own choice (Settings); without it nothing is sent. */
export const AddAnalyticsBodySchema = z.object({
  /** A GA4 event name: letters, digits and underscores, starting with a letter. */
  event: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, 'analyticsEventInvalid')
    .default('page_view'),
  consent: z.boolean(),
  payload: AnalyticsPayloadSchema,
});
export type AddAnalyticsBody = z.infer<typeof AddAnalyticsBodySchema>;

export const AnalyticsForwardedSchema = z.object({
  /** Whether the event went to the provider: false when analytics is off or the user did not consent. */
  forwarded: z.boolean(),
});

/** GET /api/Browser/GetGoogleAnalytics: never the API secret. */
export const AnalyticsStatusSchema = z.object({
  enabled: z.boolean(),
  measurementId: z.string().nullable(),
});
export type AnalyticsStatus = z.infer<typeof AnalyticsStatusSchema>;

/**
 * GET /api/Browser/GetBrowserByExcept: the browser records that are the exception — those whose
 * payload carries an error, lacks the visitor's identity, or has an event type other than `except`
 * lists (default: the page views the client sends as a matter of course).
 */
export const BrowserExceptQuerySchema = PageQuerySchema.extend({
  /** Event types that are normal, comma-separated (default pageView). */
  except: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(500).default('pageView')),
});
export type BrowserExceptQuery = z.infer<typeof BrowserExceptQuerySchema>;
export const BrowserExceptRecordSchema = BrowserRecordSchema.extend({
  /** Why it is listed: an event type not in `except`, an error in the payload, no visitor identity. */
  reasons: z.array(z.enum(['eventType', 'error', 'noIdentity'])),
});
export const BrowserExceptPageSchema = pagedSchema(BrowserExceptRecordSchema);
