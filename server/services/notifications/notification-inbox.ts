import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { Broadcast, BroadcastTranslations, NotificationListQuery, NotificationPage, UserNotification } from '../../../shared/contracts/notifications.ts';
import type { Db } from '../../db/client.ts';
import { userNotifications } from '../../db/schema/notifications.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';

/**
 * What a user reads of their notifications, and an operator's broadcast (docs/economy.md#notifications).
 * Notifications are written by `notify` (notifications.ts); here they are listed, counted and marked
 * read. Every statement is limited to the caller's rows, so another user's ids change nothing and
 * are never reported as such.
 */

const ownUnread = (userId: string) => and(eq(userNotifications.userId, userId), isNull(userNotifications.readAt));

/** Stored params are a JSON object of strings and numbers; anything else reads as none. */
function paramsOf(stored: string): UserNotification['params'] {
  try {
    const value: unknown = JSON.parse(stored);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
  } catch {
    return {};
  }
}

/**
 * A broadcast's text in the reader's language: its translation for `lang` when the operator wrote
 * one, else the default text (params' title and body) as it is.
 */
function inLanguage(params: UserNotification['params'], translations: BroadcastTranslations, lang: Language): UserNotification['params'] {
  const text = lang === 'en' ? undefined : translations?.[lang];
  return typeof text?.title === 'string' && typeof text.body === 'string' ? { ...params, title: text.title, body: text.body } : params;
}

/** The caller's unread notifications: an index scan of their rows (user_notifications_user_idx). */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(userNotifications).where(ownUnread(userId));
  return n;
}

/**
 * A page of the caller's notifications, newest first, optionally only the unread ones; a broadcast's
 * text in `lang` when it has that language's (the request's Accept-Language).
 */
export async function listNotifications(db: Db, userId: string, q: NotificationListQuery, lang: Language = 'en'): Promise<NotificationPage> {
  const where = q.unreadOnly ? ownUnread(userId) : eq(userNotifications.userId, userId);
  const [rows, [{ total }], unread] = await Promise.all([
    db
      .select()
      .from(userNotifications)
      .where(where)
      .orderBy(desc(userNotifications.createdAt), desc(userNotifications.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    db.select({ total: count() }).from(userNotifications).where(where),
    q.unreadOnly ? null : unreadCount(db, userId),
  ]);
  const list = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    titleKey: r.titleKey,
    bodyKey: r.bodyKey,
    params: inLanguage(paramsOf(r.params), r.translations, lang),
    link: r.link,
    read: r.readAt !== null,
    createTime: r.createdAt.toISOString(),
  }));
  return { list, total, unread: unread ?? total };
}

/** Marks the caller's own notifications among `ids` read; ids of others' are ignored alike. */
export async function markRead(db: Db, userId: string, ids: string[]): Promise<{ unread: number }> {
  await db
    .update(userNotifications)
    .set({ readAt: sql`now()` })
    .where(and(ownUnread(userId), inArray(userNotifications.id, [...new Set(ids)])));
  return { unread: await unreadCount(db, userId) };
}

export async function markAllRead(db: Db, userId: string): Promise<{ unread: number }> {
  await db.update(userNotifications).set({ readAt: sql`now()` }).where(ownUnread(userId));
  // Counted, not assumed 0: a notification may have arrived meanwhile.
  return { unread: await unreadCount(db, userId) };
}

/**
 * Who a broadcast reaches, as a condition on `users u`: active accounts, all of them, those of one
 * plan level, or one. The plan level is the one in force as server/services/accounts/auth.ts reads it (the
 * highest level of the orders that have not ended), 0 for users without one.
 */
function audienceOf(b: Broadcast): SQL {
  const active = sql`u.status = 'active'`;
  if (b.audience === 'user') return sql`${active} and u.id = ${b.userId ?? ''}`;
  if (b.audience === 'level') {
    const level = sql`coalesce((select max(v.package_level) from ${vipOrders} v where v.user_id = u.id and v.end_time > now()), 0)`;
    return sql`${active} and ${level} = ${b.level ?? 0}`;
  }
  return active;
}

/**
 * Fans a broadcast out in one INSERT ... SELECT over its audience. Each row's dedupe key names the
 * request and the user, so a retried broadcast (same requestId) adds nothing, and one that was cut
 * short completes. The title and body travel as params, which the client shows as text; their
 * translations beside them (the list picks the reader's).
 */
export async function broadcast(db: Db, b: Broadcast): Promise<{ sent: number }> {
  const params = JSON.stringify({ title: b.title, body: b.body });
  const translations = JSON.stringify(b.translations ?? {});
  const result = await db.execute<{ sent: number | string }>(sql`
    with ins as (
      insert into ${userNotifications} (id, user_id, kind, title_key, body_key, params, translations, link, dedupe_key)
      select gen_random_uuid()::text, u.id, 'broadcast', 'notifications.broadcast.title', 'notifications.broadcast.body',
        ${params}, ${translations}::jsonb, ${b.link ?? ''}, ${`broadcast:${b.requestId}:`} || u.id
      from ${users} u where ${audienceOf(b)}
      on conflict (dedupe_key) do nothing
      returning 1
    )
    select count(*) as sent from ins`);
  const sent = Number(result.rows[0]?.sent ?? 0);
  if (sent === 0 && b.audience === 'user') {
    // Nothing added: a retry, or a user that does not exist (which the operator should hear of).
    const [found] = await db.select({ id: users.id }).from(users).where(eq(users.id, b.userId ?? ''));
    if (!found) throw new AppError(Codes.NotFound, 'notFound');
  }
  return { sent };
}
