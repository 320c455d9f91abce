import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { notify } from '../../server/services/notifications/notifications.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createUser, grantVip, type TestUser } from '../helpers/users.ts';

/**
 * Notifications (docs/economy.md#notifications): a user reads, pages, counts and marks only their
 * own; an operator's broadcast reaches its audience once per requestId.
 */

type Item = { id: string; kind: string; titleKey: string; bodyKey: string; params: Record<string, unknown>; link: string; read: boolean; createTime: string };

describe('notifications', () => {
  const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

  const list = async (user: TestUser, query = '') => (await api(t.app, user).getBody(`/api/UserNotification/GetList${query}`)).Data as { list: Item[]; total: number; unread: number };
  const unread = async (user: TestUser) => (await api(t.app, user).getBody('/api/UserNotification/GetUnreadCount')).Data.unread as number;
  /** `n` notifications for the user, the last one the newest. */
  const seed = async (user: TestUser, n: number, tag = randomUUID()) => {
    for (let i = 1; i <= n; i++) {
      await notify(t.database.db, { userId: user.userId, kind: 'points', titleKey: 'test.title', bodyKey: 'test.body', params: { n: i, tag }, link: '/setting', dedupeKey: `test:${tag}:${i}` });
      // A second apart: PGlite's clock can give two quick inserts the same time, and the order would be the ids'.
      await t.database.db.execute(sql`update user_notifications set created_at = created_at - ${`${n - i} seconds`}::interval where dedupe_key = ${`test:${tag}:${i}`}`);
    }
  };
  const broadcast = (body: Record<string, unknown>, as = admin, lang = 'en') => api(t.app, as).postBody('/api/admin/UserNotification/Broadcast', body, { lang });
  const broadcastsOf = (userId: string) =>
    t.database.db.select().from(userNotifications).where(sql`${userNotifications.userId} = ${userId} and ${userNotifications.kind} = 'broadcast'`);

  it('pages the caller\'s notifications newest first, with the unread count beside them', async () => {
    const user = await createUser(t.app);
    await seed(user, 5);
    await seed(await createUser(t.app), 2);
    const first = await list(user, '?page=1&count=2');
    expect(first.total).toBe(5);
    expect(first.unread).toBe(5);
    expect(first.list.map((n) => n.params.n)).toEqual([5, 4]);
    expect(first.list[0]).toEqual({
      id: expect.any(String),
      kind: 'points',
      titleKey: 'test.title',
      bodyKey: 'test.body',
      params: { n: 5, tag: expect.any(String) },
      link: '/setting',
      read: false,
      createTime: expect.any(String),
    });
    expect((await list(user, '?page=3&count=2')).list.map((n) => n.params.n)).toEqual([1]);
    expect((await list(user, '?page=4&count=2')).list).toEqual([]);
    expect(await unread(user)).toBe(5);
  });

  it('marks only the caller\'s own notifications read, ignoring others\' ids and unknown ones alike', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    await seed(user, 4);
    await seed(other, 2);
    const mine = (await list(user)).list;
    const theirs = (await list(other)).list;
    const answer = await api(t.app, user).postBody('/api/UserNotification/Read', { ids: [mine[0].id, mine[1].id, theirs[0].id, 'no-such-id', mine[0].id] });
    expect(answer).toEqual({ Code: 10000, Msg: '', Data: { unread: 2 } });
    expect((await list(user)).list.map((n) => n.read)).toEqual([true, true, false, false]);
    expect(await unread(other)).toBe(2);
    // Reading them again changes nothing.
    expect((await api(t.app, user).postBody('/api/UserNotification/Read', { ids: [mine[0].id] })).Data).toEqual({ unread: 2 });

    const unreadOnly = await list(user, '?unreadOnly=true');
    expect(unreadOnly.total).toBe(2);
    expect(unreadOnly.unread).toBe(2);
    expect(unreadOnly.list.every((n) => !n.read)).toBe(true);
    expect((await list(user, '?unreadOnly=false')).total).toBe(4);

    expect((await api(t.app, user).postBody('/api/UserNotification/ReadAll')).Data).toEqual({ unread: 0 });
    expect(await unread(user)).toBe(0);
    expect((await list(user, '?unreadOnly=1')).list).toEqual([]);
    expect(await unread(other)).toBe(2);
  });

  it('refuses bad input with the bad-input Code', async () => {
    const user = await createUser(t.app);
    const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
    for (const body of [{ ids: [] }, { ids: ids(101) }, {}, { ids: 'x' }, { ids: [''] }]) {
      expect((await api(t.app, user).postBody('/api/UserNotification/Read', body)).Code).toBe(10400);
    }
    expect((await api(t.app, user).postBody('/api/UserNotification/Read', { ids: ids(100) })).Code).toBe(10000);
    for (const query of ['?unreadOnly=maybe', '?count=0', '?count=101', '?page=0']) expect((await api(t.app, user).getBody(`/api/UserNotification/GetList${query}`)).Code).toBe(10400);
  });

  it('broadcasts to every active account, once per requestId', async () => {
    const closed = await createUser(t.app);
    await api(t.app, admin).postBody('/api/admin/User/Close', { userId: closed.userId });
    const user = await createUser(t.app);
    const requestId = randomUUID();
    const body = { title: 'Maintenance <b>tonight</b>', body: 'We restart at 22:00 UTC.\n<script>alert(1)</script>', link: '/setting', audience: 'all', requestId };
    const [{ active }] = (await t.database.db.execute<{ active: number }>(sql`select count(*)::int as active from users where status = 'active'`)).rows;

    expect((await broadcast(body)).Data).toEqual({ sent: active });
    expect((await broadcast(body)).Data).toEqual({ sent: 0 });
    expect(await broadcastsOf(closed.userId)).toEqual([]);
    const [item] = (await list(user)).list;
    // The text is kept as written, in params: the client shows it as text, never as HTML.
    expect(item).toMatchObject({
      kind: 'broadcast',
      titleKey: 'notifications.broadcast.title',
      bodyKey: 'notifications.broadcast.body',
      params: { title: body.title, body: body.body },
      link: '/setting',
      read: false,
    });
    expect(await broadcastsOf(user.userId)).toHaveLength(1);
    const [row] = await broadcastsOf(user.userId);
    expect(row.dedupeKey).toBe(`broadcast:${requestId}:${user.userId}`);
  });

  it('broadcasts to the users of one plan level, or to one user', async () => {
    const free = await createUser(t.app);
    const advanced = await createUser(t.app);
    const lapsed = await createUser(t.app);
    await grantVip(t.app, advanced.userId, 2);
    // An order that has ended is no plan: that user is free again.
    const lapsedOrder = await grantVip(t.app, lapsed.userId, 2);
    await t.database.db.execute(sql`update vip_orders set end_time = now() - interval '1 day' where id = ${lapsedOrder}`);
    const countAt = async (level: number) =>
      (
        await t.database.db.execute<{ n: number }>(sql`
          select count(*)::int as n from users u where u.status = 'active'
          and coalesce((select max(v.package_level) from vip_orders v where v.user_id = u.id and v.end_time > now()), 0) = ${level}`)
      ).rows[0].n;

    const toLevel2 = await broadcast({ title: 'For Advanced', body: 'Thanks', audience: 'level', level: 2, requestId: randomUUID() });
    expect(toLevel2.Data).toEqual({ sent: await countAt(2) });
    expect(await broadcastsOf(advanced.userId)).toHaveLength(1);
    expect(await broadcastsOf(free.userId)).toEqual([]);
    expect(await broadcastsOf(lapsed.userId)).toEqual([]);

    const toFree = await broadcast({ title: 'Upgrade', body: 'Plans are on sale', audience: 'level', level: 0, requestId: randomUUID() });
    expect(toFree.Data).toEqual({ sent: await countAt(0) });
    expect(await broadcastsOf(free.userId)).toHaveLength(1);
    expect(await broadcastsOf(lapsed.userId)).toHaveLength(1);
    expect(await broadcastsOf(advanced.userId)).toHaveLength(1);

    const requestId = randomUUID();
    const toOne = { title: 'Hello', body: 'Just you', audience: 'user', userId: free.userId, requestId };
    expect((await broadcast(toOne)).Data).toEqual({ sent: 1 });
    expect((await broadcast(toOne)).Data).toEqual({ sent: 0 });
    expect(await broadcastsOf(free.userId)).toHaveLength(2);
    expect((await broadcast({ ...toOne, userId: 'no-such-user', requestId: randomUUID() })).Code).toBe(10404);
  });

  it('refuses a broadcast from a user who is not an administrator, and bad broadcasts', async () => {
    const user = await createUser(t.app);
    const good = { title: 'Hi', body: 'Text', audience: 'all', requestId: randomUUID() };
    expect((await broadcast(good, user)).Code).toBe(10403);
    expect(await broadcastsOf(user.userId)).toEqual([]);
    const bad = [
      { ...good, link: 'https://evil.example.com/' },
      { ...good, link: 'setting' },
      { ...good, link: '//evil.example.com/' },
      { ...good, link: '/\\evil.example.com' },
      { ...good, body: 'x'.repeat(2001) },
      { ...good, body: '   ' },
      { ...good, title: '' },
      { ...good, audience: 'everyone' },
      { ...good, audience: 'level' },
      { ...good, audience: 'level', level: 4 },
      { ...good, audience: 'user' },
      { ...good, requestId: 'short' },
      { title: 'Hi', body: 'Text', audience: 'all' },
    ];
    for (const body of bad) expect((await broadcast(body)).Code, JSON.stringify(body).slice(0, 80)).toBe(10400);
    expect(await broadcastsOf(user.userId)).toEqual([]);
    const zh = await broadcast({ ...good, link: 'setting' }, admin, 'zh-CN');
    expect(zh.Msg).toContain('链接必须是应用内的路径');
    expect((await broadcast({ ...good, body: 'x'.repeat(2000) })).Code).toBe(10000);
  });

  it('keeps the unread count to the caller\'s own rows as notifications arrive', async () => {
    const user = await createUser(t.app);
    expect(await unread(user)).toBe(0);
    await seed(user, 3);
    expect(await unread(user)).toBe(3);
    await t.database.db.update(userNotifications).set({ readAt: sql`now()` }).where(eq(userNotifications.userId, user.userId));
    expect(await unread(user)).toBe(0);
    expect((await api(t.app).getBody('/api/UserNotification/GetUnreadCount')).Code).toBe(10402);
  });
});
