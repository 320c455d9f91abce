import { z } from 'zod';
import { PageQuerySchema, pagedSchema } from './common.ts';

/**
 * The client error log (the Log family): the surfaces report their uncaught errors, the console lists
 * them grouped (docs/api.md#client-error-log). Not to be confused with server/http/client-errors.ts,
 * which maps the server's own failures to answers.
 */

export const CLIENT_ERROR_SURFACES = ['sidepanel', 'popup', 'web', 'admin', 'background', 'other'] as const;
export const ClientErrorSurfaceSchema = z.enum(CLIENT_ERROR_SURFACES);
export type ClientErrorSurface = z.infer<typeof ClientErrorSurfaceSchema>;

/** Kept lengths: what is longer is cut (client and server both), never refused. */
export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, path: 300, version: 40, browser: 60, perCall: 10 } as const;

/** A long text is cut to `max` rather than refused: an error report is best effort. */
const cut = (max: number) => z.string().transform((s) => s.slice(0, max));

export const ClientErrorReportSchema = z.object({
  message: z.string().max(20_000).transform((s) => s.slice(0, CLIENT_ERROR_LIMITS.message)),
  stack: cut(CLIENT_ERROR_LIMITS.stack).nullish(),
  surface: ClientErrorSurfaceSchema.catch('other'),
  version: cut(CLIENT_ERROR_LIMITS.version).nullish(),
  browser: cut(CLIENT_ERROR_LIMITS.browser).nullish(),
  /** The page's path, without query string or fragment (the server strips them again). */
  path: cut(CLIENT_ERROR_LIMITS.path).nullish(),
  /** How many times the client saw it since its last report (it reports each error once per batch). */
  count: z.number().int().min(1).max(1000).default(1),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReportSchema>;
export type ClientErrorReportInput = z.input<typeof ClientErrorReportSchema>;

/** POST /api/Log/AddClientError: one batch. */
export const AddClientErrorBodySchema = z.array(ClientErrorReportSchema).min(1).max(CLIENT_ERROR_LIMITS.perCall);

export const ClientErrorGroupSchema = z.object({
  clientErrorId: z.string(),
  fingerprint: z.string(),
  message: z.string(),
  topFrame: z.string().nullable(),
  stack: z.string().nullable(),
  surfaces: z.array(z.string()),
  versions: z.array(z.string()),
  browsers: z.array(z.string()),
  lastPath: z.string().nullable(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  resolvedTime: z.string().nullable(),
});
export type ClientErrorGroup = z.infer<typeof ClientErrorGroupSchema>;

export const ClientErrorListQuerySchema = PageQuerySchema.extend({
  /** Part of the message or of the top frame, whatever the case. */
  search: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(200).optional()),
  surface: z.preprocess((v) => (v === '' ? undefined : v), ClientErrorSurfaceSchema.optional()),
  /** open (default): not resolved, or seen again since; resolved; all. */
  state: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['open', 'resolved', 'all']).default('open')),
});
export type ClientErrorListQuery = z.infer<typeof ClientErrorListQuerySchema>;
export const ClientErrorPageSchema = pagedSchema(ClientErrorGroupSchema);

export const ResolveClientErrorBodySchema = z.object({ clientErrorId: z.string().trim().min(1).max(64) });

export const SavedClientErrorsSchema = z.object({ saved: z.number().int() });
