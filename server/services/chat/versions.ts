import { sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../core/errors.ts';

/**
 * Answer versions (docs/api.md#answer-versions). A chat's exchanges form a tree: each has the exchange
 * before it on its path as parent (null: a first turn), and the versions of a turn are exchanges with
 * the same parent, in the order they were made. The session's current leaf is the last exchange of
 * the branch the chat shows; the path from it up by parent_id is "the chat" for the message list, the
 * model's context (chat/prepare.ts walks it itself, in its one statement) and a new share.
 */

/** Deeper than any chat: a bound on every walk, so that no row can make one run forever. */
export const MAX_PATH = 100_000;

/**
 * The exchange a session shows last (`s` is the chat_sessions row): its current leaf, or, when none
 * was set (rows written straight into the table), its newest exchange.
 */
export const leafOf = (s: SQL) =>
  sql`coalesce(${s}.current_leaf_id, (select n.id from chat_messages n where n.session_id = ${s}.id order by n.created_at desc, n.id desc limit 1))`;

/**
 * `path(id, parent_id, finished, depth)`: the exchanges from `start` (an id, or an expression giving
 * one) up to the first turn, within `sessionId`; depth 1 is `start`.
 */
export function pathCte(sessionId: string | SQL, start: SQL): SQL {
  return sql`path(id, parent_id, finished, depth) as (
    select m.id, m.parent_id, m.finish_reason is not null, 1 from chat_messages m where m.id = (${start}) and m.session_id = ${sessionId}
    union all
    select m.id, m.parent_id, m.finish_reason is not null, p.depth + 1
    from path p join chat_messages m on m.id = p.parent_id and m.session_id = ${sessionId}
    where p.depth < ${MAX_PATH}
  )`;
}

/** The ids of the versions of the turn of a path row `p` (its siblings and itself), in the order made. */
const versionIdsOf = (sessionId: string) => sql`case when p.parent_id is null
  then (select json_agg(c.id order by c.created_at, c.id) from chat_messages c where c.session_id = ${sessionId} and c.parent_id is null)
  else (select json_agg(c.id order by c.created_at, c.id) from chat_messages c where c.session_id = ${sessionId} and c.parent_id = p.parent_id) end`;

export type PathEntry = { id: string; versionIds: string[] };
export type PathPage = { entries: PathEntry[]; total: number };

const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * A page of a path: `from` is where it ends (an exchange id, or an expression of the chat_sessions
 * row `s` such as its leaf, leafOf(sql`s`)); `newestFirst` pages from that end back, else from the
 * first turn on. `finishedOnly` leaves out the exchanges still being written (and does not count
 * them). Null when `owner` does not own the session.
 */
export async function pathPage(
  db: Db,
  q: { sessionId: string; owner: string; from: SQL; newestFirst: boolean; offset: number; limit: number; finishedOnly?: boolean },
): Promise<PathPage | null> {
  const kept = q.finishedOnly ? sql`where p.finished` : sql``;
  const { rows } = await db.execute<{ own: number; total: number; id: string | null; version_ids: string[] | string | null }>(sql`
    with recursive chat as (select s.id, (${q.from}) as start from chat_sessions s where s.id = ${q.sessionId} and s.user_id = ${q.owner}),
    ${pathCte(q.sessionId, sql`select chat.start from chat`)},
    page as (select p.id, p.parent_id, p.depth from path p ${kept} order by p.depth ${q.newestFirst ? sql`asc` : sql`desc`} limit ${q.limit} offset ${q.offset})
    select (select count(*) from chat)::int as own, (select count(*) from path p ${kept})::int as total, p.id, ${versionIdsOf(q.sessionId)} as version_ids
    from (select 1) one left join page p on true
    order by p.depth ${q.newestFirst ? sql`asc` : sql`desc`}`);
  const first = rows[0];
  if (!first || Number(first.own) === 0) return null;
  return {
    total: Number(first.total),
    entries: rows.flatMap((r: (typeof rows)[number]) => (r.id === null ? [] : [{ id: r.id, versionIds: jsonOf(r.version_ids ?? []) }])),
  };
}

/** The last exchange of the branch through `exchangeId`: the most recently made child at each level down. */
const deepestFrom = (sessionId: string, exchangeId: SQL) => sql`(
  with recursive d(id, depth) as (
    select m.id, 0 from chat_messages m where m.id = (${exchangeId}) and m.session_id = ${sessionId}
    union all
    select n.id, d.depth + 1 from d cross join lateral (
      select c.id from chat_messages c where c.session_id = ${sessionId} and c.parent_id = d.id order by c.created_at desc, c.id desc limit 1
    ) n where d.depth < ${MAX_PATH}
  )
  select id from d order by depth desc limit 1)`;

/** Locks the session row for the rest of the transaction: writes to one chat's tree go one at a time. */
async function lockSession(tx: Db, sessionId: string): Promise<{ leaf: string | null }> {
  const { rows } = await tx.execute<{ leaf: string | null }>(
    sql`select s.current_leaf_id as leaf from chat_sessions s where s.id = ${sessionId} for update`,
  );
  return { leaf: rows[0]?.leaf ?? null };
}

/** One of `userId`'s exchanges (in `sessionId` when given), or a 10404 as the other chat routes answer. */
async function ownExchange(db: Db, userId: string, exchangeId: string, sessionId?: string) {
  const { rows } = await db.execute<{ id: string; session_id: string; parent_id: string | null; created_at: Date | string }>(sql`
    select m.id, m.session_id, m.parent_id, m.created_at from chat_messages m
    where m.id = ${exchangeId} and m.user_id = ${userId} ${sessionId ? sql`and m.session_id = ${sessionId}` : sql``}`);
  if (!rows[0]) throw new AppError(Codes.NotFound, 'notFound');
  return rows[0];
}

/**
 * SwitchVersion: makes the branch through one of the caller's exchanges the one its chat shows. When
 * the exchange is on the branch shown already, nothing changes (a search hit opened); else the chat
 * shows the exchange's newest branch: its most recently made child at each level, down to the end.
 */
export async function switchToExchange(db: Db, userId: string, exchangeId: string, sessionId?: string): Promise<{ sessionId: string }> {
  return db.transaction(async (tx) => {
    const found = await ownExchange(tx, userId, exchangeId, sessionId);
    await lockSession(tx, found.session_id);
    await tx.execute(sql`
      with recursive ${pathCte(found.session_id, sql`select ${leafOf(sql`s`)} from chat_sessions s where s.id = ${found.session_id}`)}
      update chat_sessions set current_leaf_id = ${deepestFrom(found.session_id, sql`${exchangeId}`)}
      where id = ${found.session_id} and not exists (select 1 from path where path.id = ${exchangeId})`);
    return { sessionId: found.session_id };
  });
}

/**
 * Deletes one of the caller's exchanges, keeping the rest of its chat's tree: its children (the turns
 * that followed it, each branch) are re-attached to its parent, so a straight chat simply loses that
 * exchange, and in a chat with versions they join the versions of its turn. When it was the exchange
 * the chat shows last, the chat shows the newest remaining version of its turn (and that version's
 * newest branch), else the turn before it. A share whose snapshot ended at it ends at its parent.
 * Answers the media it carried (for forgetDetachedMedia). One transaction, under the session's lock.
 */
export async function deleteExchange(db: Db, userId: string, exchangeId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const sessionId = (await ownExchange(tx, userId, exchangeId)).session_id;
    const { leaf } = await lockSession(tx, sessionId);
    // Read again under the lock: a delete of its parent just before may have re-attached it.
    const parent = (await ownExchange(tx, userId, exchangeId)).parent_id;
    const { rows: gone } = await tx.execute<{ media_ids: string[] | string }>(
      sql`delete from chat_messages where id = ${exchangeId} and user_id = ${userId} returning media_ids`,
    );
    if (!gone[0]) throw new AppError(Codes.NotFound, 'notFound');
    await tx.execute(sql`update chat_messages set parent_id = ${parent} where session_id = ${sessionId} and parent_id = ${exchangeId}`);
    if (leaf === exchangeId) {
      const siblings = parent === null ? sql`c.parent_id is null` : sql`c.parent_id = ${parent}`;
      const newest = sql`select c.id from chat_messages c where c.session_id = ${sessionId} and ${siblings} order by c.created_at desc, c.id desc limit 1`;
      await tx.execute(sql`update chat_sessions set current_leaf_id = coalesce(${deepestFrom(sessionId, newest)}, ${parent}::text) where id = ${sessionId}`);
    }
    if (parent !== null) {
      await tx.execute(sql`
        update chat_shares set upto_message_id = m.id, upto_created_at = m.created_at
        from chat_messages m where m.id = ${parent} and chat_shares.session_id = ${sessionId} and chat_shares.upto_message_id = ${exchangeId}`);
    }
    return jsonOf(gone[0].media_ids);
  });
}
