import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';

/**
 * The admin audit log: one row per successful admin write (who, when, which route, on what, the
 * state before and after). Rows are only ever added; no route edits or deletes them. Secrets (any
 * field named apiKey, password, secret or token, at any depth) are stored as "[redacted]".
 */

/**
 * A bound of a date range: an ISO date-time with its offset, or a date alone (UTC). `from` is
 * inclusive; `to` is exclusive for a date-time, and a date alone includes that whole day.
 */
export const AuditRangeBoundSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** What an audited route acted on: user, aiModel, aiModelMap, vipPackage, setting, plugin, ... */
export const AuditTargetTypeSchema = z.string().trim().regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'auditTargetTypeInvalid');

/** GET /api/admin/AuditLog/GetList: newest first. */
export const AuditListQuerySchema = PageQuerySchema.extend({
  /** The acting admin's user id, exactly. */
  actorId: IdSchema.optional(),
  /** A part of the acting admin's e-mail (as it was when the row was written). */
  actorEmail: z.string().trim().min(1).max(254).optional(),
  /** The route's family and name, e.g. User/GrantPoints: exact match. */
  action: z.string().trim().min(1).max(100).optional(),
  targetType: AuditTargetTypeSchema.optional(),
  targetId: z.string().trim().min(1).max(200).optional(),
  from: AuditRangeBoundSchema.optional(),
  to: AuditRangeBoundSchema.optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  /** Kept when the admin's account is deleted later. */
  actorId: z.string(),
  actorEmail: z.string(),
  /** Route family and name without /api/admin: User/GrantPoints, AiModel/Save, ... */
  action: z.string(),
  targetType: z.string(),
  /** Null when the write names no single target (a broadcast to all, a batch). */
  targetId: z.string().nullable(),
  /** The target before the write (null when the route does not load it, or it did not exist). */
  before: z.unknown(),
  /** The target after the write, or the request body when the route does not load the target. */
  after: z.unknown(),
  createTime: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({ list: z.array(AuditEntrySchema), total: z.number().int() });
