import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_TOTAL_CAP, type MessageSearchHit, type MessageSearchPage, type MessageSearchQuery } from '../../../shared/contracts/chat-search.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';

/** Characters of context kept before the match, and the snippet's whole length (code points). */
const BEFORE = 40;
const SNIPPET = 160;

type Row = {
  id: string;
  session_id: string;
  title: string;
  created_at: Date | string;
  field: 'input' | 'output';
  snippet: string;
  snippet_start: number;
  match_at: number;
  /** Matches the newest-first walk found (up to its limit); null on the trigram plan. */
  walked: number | string | null;
};

/**
 * The position of the match inside the snippet, in UTF-16 code units (how the client slices),
 * from the database's positions in code points.
 */
function highlight(snippet: string, matchAtCodePoint: number, queryCodePoints: number) {
  const chars = Array.from(snippet);
  const matchStart = chars.slice(0, matchAtCodePoint).join('').length;
  const matchLength = chars.slice(matchAtCodePoint, matchAtCodePoint + queryCodePoints).join('').length;
  return { matchStart, matchLength };
}

/** How many of the user's newest messages are read first, one by one, before the indexes are asked. */
export const RECENT_WINDOW = 1000;

/**
 * A page of matches from `found` (id, session_id, created_at, input_message, output_message, walked),
 * snippets cut in SQL.
 */
async function pageFrom(db: Db, found: SQL, needle: string): Promise<Row[]> {
  const result = await db.execute<Row>(sql`
    with found as (${found}), picked as (
      select f.*, case when f.in_at > 0 then 'input' else 'output' end as field,
             case when f.in_at > 0 then f.in_at else strpos(lower(f.output_message), ${needle}) end as at
      from (select found.*, strpos(lower(found.input_message), ${needle}) as in_at from found) f
    )
    select p.id, p.session_id, s.title, p.created_at, p.field, p.walked,
           greatest(p.at - ${BEFORE}, 1) as snippet_start,
           p.at - greatest(p.at - ${BEFORE}, 1) as match_at,
           substr(case when p.field = 'input' then p.input_message else p.output_message end, greatest(p.at - ${BEFORE}, 1), ${SNIPPET}) as snippet
    from picked p join chat_sessions s on s.id = p.session_id
    order by p.created_at desc, p.id desc`);
  return result.rows;
}

/**
 * The caller's messages whose question or answer contains `q`, newest first, each with a snippet
 * around its first match. The substring test runs on lower(text), whatever the script (CJK text has
 * no spaces to split words at; trigrams need none). Two plans, because PostgreSQL's own choice
 * reads every message of the user for a common word (bench/search):
 * - a common text fills the page from the user's newest messages, read in order through
 *   (user_id, created_at) and stopping as soon as the page is full and the total is known to reach
 *   the cap;
 * - a rare one is found through the trigram indexes on lower(input_message), lower(output_message).
 * The total (capped at SEARCH_TOTAL_CAP) comes from whichever plan already saw enough: the walk
 * when it met the cap, the trigram page when it held the last match; only otherwise is it counted
 * through the trigram indexes, since that count is what a common word costs most (it builds the
 * bitmap of every message holding the word's trigrams before it stops).
 * Snippets are cut in the database, so a page never carries whole answers.
 */
export async function searchMessages(db: Db, userId: string, q: MessageSearchQuery): Promise<MessageSearchPage> {
  const needle = q.q.toLowerCase();
  const pattern = `%${escapeLike(needle)}%`;
  // Finished exchanges only: the trigram indexes leave a streaming answer out until it ends.
  const matches = (m: SQL) => sql`${m}.finish_reason is not null and (lower(${m}.input_message) like ${pattern} or lower(${m}.output_message) like ${pattern})`;
  const m = sql.raw('m');
  const columns = sql`m.id, m.session_id, m.created_at, m.input_message, m.output_message`;
  const offset = (q.page - 1) * q.count;
  // The walk keeps going past the page until it has seen the cap's worth of matches, so that it
  // alone can tell "at least the cap"; a very common word reaches it within a few hundred messages.
  const walkLimit = Math.max(SEARCH_TOTAL_CAP, offset + q.count);
  // The window comes in index order and is filtered as it streams: no ORDER BY over the window,
  // which would lower-case and scan all of it before the first row; only the matches kept are
  // numbered (pageFrom orders the page it gets).
  let rows = await pageFrom(
    db,
    sql`select * from (
          select w.*, count(*) over () as walked,
                 row_number() over (order by w.created_at desc nulls last, w.id desc nulls last) as n
          from (
            select ${columns} from (
              select * from chat_messages where user_id = ${userId} order by created_at desc nulls last, id desc nulls last limit ${RECENT_WINDOW}
            ) m where ${matches(m)} limit ${walkLimit}
          ) w
        ) numbered where numbered.n > ${offset} order by numbered.n limit ${q.count}`,
    needle,
  );
  let total: number | undefined;
  if (rows.length === q.count) {
    // The page came from the window; the walk met the cap, or it ran out of window (walkLimit >=
    // the cap) and older messages may hold more: counted below.
    if (Number(rows[0]!.walked) >= SEARCH_TOTAL_CAP) total = SEARCH_TOTAL_CAP;
  } else {
    // The window ran out before the page was full: the page goes on among older messages.
    rows = await pageFrom(
      db,
      sql`select ${columns}, null::int as walked from chat_messages m where m.user_id = ${userId} and ${matches(m)}
          order by m.created_at desc nulls last, m.id desc nulls last limit ${q.count} offset ${offset}`,
      needle,
    );
    // A page that is not full holds the last match (an empty one proves that only on page 1).
    if (rows.length < q.count && (rows.length > 0 || offset === 0)) total = Math.min(offset + rows.length, SEARCH_TOTAL_CAP);
  }
  total ??= Number(
    (
      await db.execute<{ n: number }>(
        sql`select count(*)::int as n from (select 1 from chat_messages m where m.user_id = ${userId} and ${matches(m)} limit ${SEARCH_TOTAL_CAP}) capped`,
      )
    ).rows[0]?.n ?? 0,
  );
  const queryCodePoints = Array.from(needle).length;
  const list: MessageSearchHit[] = rows.map((r) => ({
    chatSessionId: r.session_id,
    sessionTitle: r.title,
    chatMessageId: r.id,
    field: r.field,
    snippet: (r.snippet_start > 1 ? '…' : '') + r.snippet,
    ...shift(highlight(r.snippet, Number(r.match_at), queryCodePoints), r.snippet_start > 1 ? 1 : 0),
    createTime: new Date(r.created_at).toISOString(),
  }));
  return { list, total };
}

const shift = (h: { matchStart: number; matchLength: number }, by: number) => ({ ...h, matchStart: h.matchStart + by });
