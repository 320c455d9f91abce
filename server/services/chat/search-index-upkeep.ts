import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { sqlStateOf } from '../../core/db-errors.ts';

/**
 * Keeps the chat search's trigram indexes (GIN) quick to write to, on PostgreSQL.
 *
 * GIN gathers new entries in a pending list, and the statement that finds the list over its limit
 * (`gin_pending_list_limit`, 4 MB) merges all of it into the index, there and then. At load that
 * statement was a batch of answers' ends, about every 1.5 s, taking 25–65 ms; the chat starts
 * pipelined behind it on the same connection waited for it (bench/README.md, load). So each
 * instance that stored finished answers merges the lists (new chats' titles with them) itself, off
 * the chat path, every CLEAN_EVERY_MS through the pool: the lists never grow to their limit, and
 * each merge is small.
 *
 * Not on PGlite: one connection serves everything there, so a merge would wait in the same line.
 * Only the index's owner may merge: a database whose tables another role owns gets one warning and
 * no upkeep (autovacuum still merges, as before).
 */

const CLEAN_EVERY_MS = 200;

/** The trigram indexes (schema/chat.ts) that chat writes feed. */
export const TRIGRAM_INDEXES = ['chat_messages_input_trgm_idx', 'chat_messages_output_trgm_idx', 'chat_sessions_title_trgm_idx'];

const written = new WeakSet<AppContext>();

/** Finished answers were stored (rows the trigram indexes take): merge at the next tick. */
export function noteSearchIndexWrites(ctx: AppContext): void {
  written.add(ctx);
}

/** One merge of every trigram index's pending list. */
function mergePendingLists(ctx: AppContext): Promise<unknown> {
  const calls = sql.join(
    TRIGRAM_INDEXES.map((name) => sql`gin_clean_pending_list(${name}::regclass)`),
    sql`, `,
  );
  return ctx.db.execute(sql`select ${calls}`);
}

/** Starts the merges (PostgreSQL only); returns the stop. */
export function startSearchIndexUpkeep(ctx: AppContext): () => void {
  if (ctx.database.kind !== 'postgres') return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running || !written.has(ctx)) return;
    written.delete(ctx);
    running = true;
    mergePendingLists(ctx)
      .catch((err: unknown) => {
        // Not the owner (42501): nothing later ticks would change. Anything else may pass.
        if (sqlStateOf(err) === '42501') {
          clearInterval(timer);
          ctx.log.warn({ err }, "the chat search's indexes are merged by autovacuum only: this role does not own them");
        } else ctx.log.error({ err }, "merging the chat search's index pending lists failed");
      })
      .finally(() => (running = false));
  }, CLEAN_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
