import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { TRANSLATE_REQUEST_ID_TTL_MS, type TransTextBody, type TransTextResult } from '../../../shared/contracts/translate.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { translationRequests } from '../../db/schema/system.ts';

/**
 * A translation's idempotency key (TransText `requestId`, docs/api.md#translation): the first request
 * with a key claims it (a row of translation_requests) and runs; a repeat within
 * TRANSLATE_REQUEST_ID_TTL_MS is answered its result, waiting while it runs, without a charge or a
 * model call. The row is in the database, so a retry that reaches another instance finds it too. A
 * translation that fails (and was refunded) gives its key up: the retry runs it again.
 */

/** How often a repeat looks whether the first request has finished. */
const WAIT_POLL_MS = 100;

/** What a key is bound to: the text, the segments and the target (not `estimate`, which never claims one). */
function bodyHash(body: TransTextBody): string {
  return createHash('sha256')
    .update(JSON.stringify([body.text ?? null, body.segments ?? null, body.targetLanguage]))
    .digest('hex');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      if (signal?.aborted) reject(signal.reason);
      else resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** A key's row made before this is expired. */
const expiredBefore = () => sql`now() - make_interval(secs => ${TRANSLATE_REQUEST_ID_TTL_MS / 1000})`;

/** The key's row: claimed by this call (null), or the one there (same user and key, not expired). */
async function claim(ctx: AppContext, userId: string, requestId: string, hash: string) {
  const key = and(eq(translationRequests.userId, userId), eq(translationRequests.requestId, requestId));
  await ctx.db.delete(translationRequests).where(and(key, lt(translationRequests.createdAt, expiredBefore())));
  const claimed = await ctx.db
    .insert(translationRequests)
    .values({ userId, requestId, bodyHash: hash })
    .onConflictDoNothing()
    .returning({ userId: translationRequests.userId });
  if (claimed.length) return null;
  const [row] = await ctx.db.select({ bodyHash: translationRequests.bodyHash, result: translationRequests.result }).from(translationRequests).where(key);
  return row ?? { bodyHash: hash, result: null, gone: true };
}

/**
 * Runs `translate` once per user and key: a repeat with the same body is answered the first one's
 * result (its balance read now by `balanceNow`), a repeat with another body is refused.
 */
export async function translateOnce(
  ctx: AppContext,
  userId: string,
  requestId: string,
  body: TransTextBody,
  run: () => Promise<TransTextResult>,
  balanceNow: () => Promise<number>,
  signal?: AbortSignal,
): Promise<TransTextResult> {
  const hash = bodyHash(body);
  const key = and(eq(translationRequests.userId, userId), eq(translationRequests.requestId, requestId));
  for (;;) {
    signal?.throwIfAborted();
    const row = await claim(ctx, userId, requestId, hash);
    if (!row) break;
    if (row.bodyHash !== hash) throw new AppError(Codes.Conflict, 'translateRequestIdReused');
    if (row.result) return { ...(row.result as TransTextResult), balance: await balanceNow() };
    // The first request runs (here or on another instance): look again shortly. A row gone
    // (that request failed) or expired is claimed anew on the next turn.
    if (!('gone' in row)) await sleep(WAIT_POLL_MS, signal);
  }
  let result: TransTextResult;
  try {
    result = await run();
  } catch (err) {
    // Nothing translated (and the charge refunded): a retry with this key runs again.
    await ctx.db.delete(translationRequests).where(and(key, isNull(translationRequests.result)));
    throw err;
  }
  await ctx.db.update(translationRequests).set({ result }).where(key);
  return result;
}

/** Keys whose time is up (each is also replaced when it is used again). */
export async function sweepTranslationRequests(ctx: AppContext): Promise<number> {
  const deleted = await ctx.db
    .delete(translationRequests)
    .where(lt(translationRequests.createdAt, expiredBefore()))
    .returning({ userId: translationRequests.userId });
  return deleted.length;
}
