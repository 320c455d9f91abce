import { randomUUID } from 'node:crypto';
import { eq, ilike } from 'drizzle-orm';
import type { AuditEntry, AuditListQuery } from '../../../shared/contracts/audit.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { newestPage } from '../../db/list-query.ts';
import { adminAuditLog } from '../../db/schema/audit.ts';
import { storableText } from '../../core/storable-text.ts';

/**
 * The admin audit log (docs/api.md#audit-log). Rows are written by addRoute after an admin write
 * succeeded; this file only adds and reads them, never updates or deletes.
 */

export const REDACTED = '[redacted]';

/** A before/after larger than this (as JSON) is stored as a marker with its size: the log is no archive. */
const MAX_STORED_CHARS = 64_000;
const MAX_DEPTH = 20;

/**
 * Whether a field holds a secret: apiKey, password, secret, token in any case or spelling
 * (api_key, clientSecret, accessToken, passwordHash), but not counts of tokens (maxTokens, inputTokens).
 */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_\s]/g, '');
  if (k.includes('apikey') || k.includes('password') || k.includes('secret') || k.includes('passwd')) return true;
  if (!k.includes('token')) return false;
  // Counts of tokens (maxTokens, inputTokens, tokensEstimated, tokenCount) are no secrets.
  return !/tokens|tokencount|tokenlimit|maxtoken/.test(k);
}

/**
 * A copy fit to store: secret fields replaced, text made storable (PostgreSQL jsonb takes no NUL and
 * no lone surrogate halves), Dates as ISO text, depth bounded.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = storableText(k);
      // A flag saying a secret exists (hasApiKey) or an empty one tells nothing: kept as is.
      out[key] = isSecretKey(k) && v !== null && v !== undefined && v !== '' && typeof v !== 'boolean' ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return null;
}

function storable(value: unknown): unknown {
  const clean = redact(value);
  const text = JSON.stringify(clean) ?? 'null';
  return text.length > MAX_STORED_CHARS ? { truncated: true, chars: text.length } : clean;
}

export type AuditRecord = {
  actor: { id: string; email: string };
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
};

export async function writeAudit(db: Db, rec: AuditRecord): Promise<void> {
  await db.insert(adminAuditLog).values({
    id: randomUUID(),
    actorId: rec.actor.id,
    actorEmail: rec.actor.email,
    action: rec.action,
    targetType: rec.targetType,
    targetId: rec.targetId === null ? null : String(rec.targetId).slice(0, 200),
    before: storable(rec.before),
    after: storable(rec.after),
  });
}

export async function listAudit(ctx: AppContext, q: AuditListQuery): Promise<Paged<AuditEntry>> {
  const t = adminAuditLog;
  const conditions = [
    q.actorId ? eq(t.actorId, q.actorId) : undefined,
    q.actorEmail ? ilike(t.actorEmail, `%${escapeLike(q.actorEmail)}%`) : undefined,
    q.action ? eq(t.action, q.action) : undefined,
    q.targetType ? eq(t.targetType, q.targetType) : undefined,
    q.targetId ? eq(t.targetId, q.targetId) : undefined,
  ];
  // The row's columns are the entry's fields, but for the time's name and form.
  return newestPage(ctx.db, t, conditions, q, ({ createdAt, before, after, ...row }) => ({
    ...row,
    before: before ?? null,
    after: after ?? null,
    createTime: createdAt.toISOString(),
  }));
}
