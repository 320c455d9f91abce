import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';

/**
 * Files are kept only while a message carries them: deleting a chat or message removes the files
 * only it carried, and uploads never sent are swept after a day.
 */

export const UNSENT_MEDIA_TTL_MS = 24 * 60 * 60 * 1000;
const MEDIA_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** No message of the media item's owner carries it. */
const carriedByNoMessage = sql`not exists (
  select 1 from chat_messages m
  where m.user_id = ${chatMedia.userId} and m.media_ids @> jsonb_build_array(${chatMedia.id})
)`;

/** Removes stored bytes, after their rows are gone; a failure only leaves an orphan, which is logged. */
async function deleteStoredBytes(ctx: AppContext, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.filter(Boolean).map((key) => ctx.files.delete(key)));
  for (const result of results) {
    if (result.status === 'rejected') ctx.log.warn({ err: result.reason }, 'removing stored media bytes failed');
  }
}

/**
 * After messages of the caller were deleted (a chat, all chats, one message): their media items that
 * no remaining message carries go too, rows and stored bytes, so a deleted chat keeps no files behind.
 */
export async function forgetDetachedMedia(ctx: AppContext, userId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const gone = await ctx.db
    .delete(chatMedia)
    .where(and(eq(chatMedia.userId, userId), inArray(chatMedia.id, [...new Set(ids)]), carriedByNoMessage))
    .returning({ key: chatMedia.storageKey });
  await deleteStoredBytes(ctx, gone.map((g) => g.key));
}

/**
 * Removes uploads older than UNSENT_MEDIA_TTL_MS that no message carries (attached, then never sent).
 * Generated images (purpose 'draw') live in tool calls, not in messages' media, and are kept.
 */
export async function sweepUnsentMedia(ctx: AppContext, now = Date.now()): Promise<number> {
  const gone = await ctx.db
    .delete(chatMedia)
    .where(and(lt(chatMedia.createdAt, new Date(now - UNSENT_MEDIA_TTL_MS)), ne(chatMedia.purpose, 'draw'), carriedByNoMessage))
    .returning({ key: chatMedia.storageKey });
  await deleteStoredBytes(ctx, gone.map((g) => g.key));
  return gone.length;
}

/** Sweeps unsent uploads every hour while the instance runs. Returns the stop. */
export function startMediaSweep(ctx: AppContext): () => void {
  const timer = setInterval(() => {
    sweepUnsentMedia(ctx).catch((err: unknown) => ctx.log.error({ err }, 'sweeping unsent media failed'));
  }, MEDIA_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
