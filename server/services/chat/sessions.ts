import { and, count, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { ChatToolCallSchema } from '../../../shared/contracts/chat.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { MAX_SWITCH_LIST } from '../../../shared/contracts/chat.ts';
import type {
  ChatMessageItem,
  ChatSessionItem,
  DeleteSessionsBody,
  MessageListQuery,
  SessionListQuery,
  SwitchVersionBody,
} from '../../../shared/contracts/chat.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { chatMessages, chatSessions } from '../../db/schema/chat.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { AppError } from '../../core/errors.ts';
import { deleteExchange, leafOf, pathPage, switchToExchange, type PathEntry } from './versions.ts';

const notFound = () => new AppError(Codes.NotFound, 'notFound');

/** Cuts to `max` characters (code points, so no emoji is split), marking the cut with '…'. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A new session is named after the first line of its first message. */
export const sessionTitleFrom = (input: string) => clip(collapse(input.split('\n').find((l) => l.trim()) ?? input), 50);

/** The session list shows a snippet of the latest message under the title. */
export const sessionDescribeFrom = (input: string) => clip(collapse(input), 100);

/** How many sessions past the requested page the list's total counts at most. */
export const TOTAL_BEYOND_PAGE = 1000;

/**
 * Whether the branch a session shows ends in an answer still being written (what opening it follows
 * live): one probe by primary key per row. Spelled out: in a one-table select drizzle leaves columns
 * unqualified, and "id" would be the message's.
 */
const answeringColumn = sql<boolean>`exists (select 1 from chat_messages m where m.id = ${leafOf(sql`chat_sessions`)} and m.finish_reason is null)`;

/** What the history shows of a session (ChatSessionItem), as one select's columns. */
const sessionColumns = {
  id: chatSessions.id,
  title: chatSessions.title,
  describe: chatSessions.describe,
  createdAt: chatSessions.createdAt,
  lastActiveAt: chatSessions.lastActiveAt,
  pinnedAt: chatSessions.pinnedAt,
  answering: answeringColumn,
};

type SessionRow = { id: string; title: string; describe: string; createdAt: Date; lastActiveAt: Date; pinnedAt: Date | null; answering: boolean };

const toSessionItem = (r: SessionRow): ChatSessionItem => ({
  chatSessionId: r.id,
  sessionTitle: r.title,
  sessionDescribe: r.describe,
  createTime: r.createdAt.toISOString(),
  lastActiveTime: r.lastActiveAt.toISOString(),
  pinned: r.pinnedAt !== null,
  answering: r.answering,
});

/**
 * `limit` sessions matching `where` from `offset` on, in the history's order: the pinned ones first,
 * most recently pinned first, then the others, most recently active first. Two reads, each in the
 * order of its own index (a single ORDER BY pinned_at, last_active_at could use neither and would
 * sort all of a heavy user's sessions for every page): the pinned ones up to the end of the page,
 * which also counts them when there are fewer, then the rest of the page from the others.
 */
async function sessionsInOrder(db: Db, where: SQL | undefined, offset: number, limit: number): Promise<SessionRow[]> {
  const pinned = await db
    .select(sessionColumns)
    .from(chatSessions)
    .where(and(where, isNotNull(chatSessions.pinnedAt)))
    .orderBy(desc(chatSessions.pinnedAt), desc(chatSessions.id))
    .limit(offset + limit);
  const fromPinned = pinned.slice(offset);
  if (fromPinned.length === limit) return fromPinned;
  // Fewer than offset + limit came back: that is all of them.
  const others = await db
    .select(sessionColumns)
    .from(chatSessions)
    .where(and(where, isNull(chatSessions.pinnedAt)))
    .orderBy(desc(chatSessions.lastActiveAt), desc(chatSessions.id))
    .limit(limit - fromPinned.length)
    .offset(Math.max(0, offset - pinned.length));
  return [...fromPinned, ...others];
}

export async function listSessions(db: Db, userId: string, q: SessionListQuery): Promise<Paged<ChatSessionItem>> {
  const filters: SQL[] = [eq(chatSessions.userId, userId)];
  // lower(title) LIKE lower(pattern): the trigram index on lower(title) serves it, and a row is
  // tested several times faster than by ILIKE (the page past a few hundred matches reads thousands).
  if (q.sessionTitle) filters.push(sql`lower(${chatSessions.title}) like lower(${`%${escapeLike(q.sessionTitle)}%`})`);
  const where = and(...filters);
  const offset = (q.page - 1) * q.count;
  // Counting all of 100k sessions costs more than the page (bench/history): the total is exact up
  // to TOTAL_BEYOND_PAGE sessions past this page, enough to page on and to say "more".
  const cappedCount = async () =>
    (await db.select({ n: count() }).from(db.select({ one: sql`1` }).from(chatSessions).where(where).limit(q.page * q.count + TOTAL_BEYOND_PAGE).as('capped')))[0]?.n ?? 0;
  let rows: SessionRow[];
  let total: number;
  if (q.sessionTitle) {
    // A title search reads one row past the page and answers a total one past it while there are
    // more: counting the matches would scan the trigram index a second time (bench/history). Only
    // a page past the end needs the count.
    rows = await sessionsInOrder(db, where, offset, q.count + 1);
    const pastTheEnd = rows.length === 0 && offset > 0;
    total = pastTheEnd ? await cappedCount() : offset + rows.length;
    rows = rows.slice(0, q.count);
  } else {
    [rows, total] = await Promise.all([sessionsInOrder(db, where, offset, q.count), cappedCount()]);
  }
  return { list: rows.map(toSessionItem), total };
}

/** One of the caller's sessions, as the list shows it (another user's, or none: 10404). */
export async function getSession(db: Db, userId: string, sessionId: string): Promise<ChatSessionItem> {
  const [row] = await db
    .select(sessionColumns)
    .from(chatSessions)
    .where(and(eq(chatSessions.id, sessionId), eq(chatSessions.userId, userId)));
  if (!row) throw notFound();
  return toSessionItem(row);
}

/**
 * The messages of one of the caller's chats: the branch it shows (from its first turn to its current
 * leaf, chat/versions.ts), paged exactly over that branch, oldest first or newest first. `mediaLink`
 * gives the address of an attached image's or file's bytes (a signed link, see signedMediaPath in
 * media.ts): their chips show it as `url`.
 */
export async function listMessages(
  db: Db,
  userId: string,
  q: MessageListQuery,
  mediaLink: (chatMediaId: string) => string = () => '',
): Promise<Paged<ChatMessageItem>> {
  const page = await pathPage(db, {
    sessionId: q.chatSessionId,
    owner: userId,
    from: leafOf(sql`s`),
    newestFirst: q.order === 'desc',
    offset: (q.page - 1) * q.count,
    limit: q.count,
  });
  if (!page) throw notFound();
  return { list: await messageItems(db, userId, page.entries, mediaLink), total: page.total };
}

/**
 * SwitchVersion: the chat shows the branch through one of the caller's exchanges; answers that branch
 * from the exchange down to its end, oldest first (MAX_SWITCH_LIST at most: a longer one, its newest
 * exchanges), and how many exchanges the whole branch has.
 */
export async function switchVersion(
  db: Db,
  userId: string,
  body: SwitchVersionBody,
  mediaLink: (chatMediaId: string) => string = () => '',
): Promise<Paged<ChatMessageItem>> {
  const { sessionId } = await switchToExchange(db, userId, body.chatMessageId, body.chatSessionId);
  const page = await pathPage(db, { sessionId, owner: userId, from: leafOf(sql`s`), newestFirst: true, offset: 0, limit: MAX_SWITCH_LIST });
  if (!page) throw notFound();
  const chosen = page.entries.findIndex((e) => e.id === body.chatMessageId);
  const shown = (chosen < 0 ? page.entries : page.entries.slice(0, chosen + 1)).reverse();
  return { list: await messageItems(db, userId, shown, mediaLink), total: page.total };
}

/** The caller's exchanges of `entries` as the message list shows them, in that order, with their attached media. */
export async function messageItems(
  db: Db,
  userId: string,
  entries: PathEntry[],
  mediaLink: (chatMediaId: string) => string = () => '',
): Promise<ChatMessageItem[]> {
  if (entries.length === 0) return [];
  const found = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), inArray(chatMessages.id, entries.map((e) => e.id))));
  const byId = new Map(found.map((m) => [m.id, m]));
  const rows = entries.flatMap((e) => {
    const m = byId.get(e.id);
    return m ? [{ m, versionIds: e.versionIds.length ? e.versionIds : [m.id] }] : [];
  });
  // The attached media of this page of messages, in one query; the caller's own only.
  const mediaIds = [...new Set(rows.flatMap(({ m }) => m.mediaIds))];
  const media = new Map(
    (mediaIds.length === 0
      ? []
      : await db
          .select({
            chatMediaId: chatMedia.id,
            mediaType: chatMedia.mediaType,
            title: chatMedia.title,
            url: chatMedia.url,
            icon: chatMedia.icon,
            storageKey: chatMedia.storageKey,
          })
          .from(chatMedia)
          .where(and(eq(chatMedia.userId, userId), inArray(chatMedia.id, mediaIds)))
    ).map(({ storageKey, ...item }) => [item.chatMediaId, storageKey ? { ...item, url: mediaLink(item.chatMediaId) } : item]),
  );
  return rows.map(({ m, versionIds }) => ({
    chatMessageId: m.id,
    chatSessionId: m.sessionId,
    inputMessage: m.inputMessage,
    outputMessage: m.outputMessage,
    aiModelId: m.aiModelId,
    modelName: m.modelName,
    chatMediaIds: m.mediaIds,
    chatMedias: m.mediaIds.flatMap((id) => media.get(id) ?? []),
    citations: m.citations,
    toolCalls: ChatToolCallSchema.array().catch([]).parse(m.toolCalls),
    quickFunction: m.quickFunction ?? null,
    selection: m.selection ?? null,
    finishReason: m.finishReason,
    createTime: m.createdAt.toISOString(),
    finishTime: m.finishedAt?.toISOString() ?? null,
    versionIds,
    versionIndex: versionIds.indexOf(m.id) + 1,
    versionCount: versionIds.length,
  }));
}

export async function renameSession(db: Db, userId: string, sessionId: string, title: string): Promise<void> {
  const updated = await db
    .update(chatSessions)
    .set({ title })
    .where(and(eq(chatSessions.id, sessionId), eq(chatSessions.userId, userId)))
    .returning({ id: chatSessions.id });
  if (updated.length === 0) throw notFound();
}

/**
 * Pins the caller's session to the top of the history, or unpins it. Pinning a pinned session keeps
 * its place among the pinned (a repeated call moves nothing).
 */
export async function pinSession(db: Db, userId: string, sessionId: string, pinned: boolean): Promise<void> {
  const updated = await db
    .update(chatSessions)
    .set({ pinnedAt: pinned ? sql`coalesce(${chatSessions.pinnedAt}, now())` : null })
    .where(and(eq(chatSessions.id, sessionId), eq(chatSessions.userId, userId)))
    .returning({ id: chatSessions.id });
  if (updated.length === 0) throw notFound();
}

/** The media attached to the caller's messages in `sessionIds` (all of their sessions when null). */
async function mediaOfSessions(db: Db, userId: string, sessionIds: string[] | null): Promise<string[]> {
  const rows = await db
    .select({ mediaIds: chatMessages.mediaIds })
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), sessionIds ? inArray(chatMessages.sessionId, sessionIds) : undefined, sql`${chatMessages.mediaIds} <> '[]'::jsonb`));
  return rows.flatMap((r) => r.mediaIds);
}

/**
 * Deletes the listed sessions of the caller (all of them or none: one id that is not the caller's is a
 * 10404), or all of them. Answers how many went, and the media the deleted messages carried (for
 * forgetDetachedMedia).
 */
export async function deleteSessions(db: Db, userId: string, body: DeleteSessionsBody): Promise<{ deleted: number; mediaIds: string[] }> {
  if (body.isDelAll) {
    const mediaIds = await mediaOfSessions(db, userId, null);
    const gone = await db.delete(chatSessions).where(eq(chatSessions.userId, userId)).returning({ id: chatSessions.id });
    return { deleted: gone.length, mediaIds };
  }
  const ids = [...new Set(body.ids)];
  if (ids.length === 0) return { deleted: 0, mediaIds: [] };
  const mine = and(eq(chatSessions.userId, userId), inArray(chatSessions.id, ids));
  const owned = await db.select({ n: count() }).from(chatSessions).where(mine);
  if ((owned[0]?.n ?? 0) < ids.length) throw notFound();
  const mediaIds = await mediaOfSessions(db, userId, ids);
  const gone = await db.delete(chatSessions).where(mine).returning({ id: chatSessions.id });
  return { deleted: gone.length, mediaIds };
}

/**
 * Deletes one message of the caller, keeping the rest of its chat (chat/versions.ts deleteExchange);
 * answers the media it carried (for forgetDetachedMedia).
 */
export const deleteMessage = (db: Db, userId: string, messageId: string): Promise<string[]> => deleteExchange(db, userId, messageId);
