import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notify } from '../../server/services/notifications/notifications.ts';
import { announcingNotified, MAX_STREAMS_PER_USER, openUnreadStreams } from '../../server/services/notifications/unread-events.ts';
import type { TestEvent } from '../fixtures/fake-stripe.ts';
import { api, http } from '../helpers/api.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { buses } from '../helpers/chat-apps.ts';
import { listening } from '../helpers/chat.ts';
import { checkoutCompleted, paidInvoice, useTestAppWithStripe } from '../helpers/stripe-app.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The live unread count (GET /api/UserNotification/Events, docs/api.md#notification-events): a stream
 * gets its own user's count at once and whenever it changes (a broadcast, a payment, a read on
 * another surface), over the bus, after the change committed; a user keeps a bounded number open.
 * Broadcasts in several languages: each reader sees their language's text, else the default.
 */

type EventReader = { next(): Promise<number>; close(): void };

/**
 * Opens a stream over real HTTP; `next()` is the next count it sends (waited for, never timed). A
 * stream sends a count only when it changed (and the last one again every 25 s, longer than a test).
 */
async function openEvents(baseUrl: string, user: TestUser): Promise<EventReader> {
  const controller = new AbortController();
  const res = await http(baseUrl, user).get('/api/UserNotification/Events', { signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const counts: number[] = [];
  let buffer = '';
  const next = async (): Promise<number> => {
    for (;;) {
      const cut = buffer.indexOf('\n\n');
      if (cut >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        expect(line).toMatch(/^data: /);
        const count = (JSON.parse(line.slice('data: '.length)) as { unread: number }).unread;
        counts.push(count);
        return count;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended after ${JSON.stringify(counts)}`);
      buffer += value;
    }
  };
  return { next, close: () => controller.abort() };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('the notification stream', () => {
  const { t, admin, stripe } = useTestAppWithStripe({ AUTH_RATE_LIMIT: '1000' });
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await listening(t.app);
  });
  afterAll(() => t.app.server.closeAllConnections());

  const broadcast = (body: Record<string, unknown>, lang = 'en') => api(t.app, admin).postBody('/api/admin/UserNotification/Broadcast', body, { lang });
  const toUser = (user: TestUser, title = 'Hello') => broadcast({ title, body: 'Text', audience: 'user', userId: user.userId, requestId: randomUUID() });
  /** Notifications written straight to the database: no announcement, so no stream hears of them. */
  const seed = async (user: TestUser, n: number) => {
    for (let i = 0; i < n; i++) {
      await notify(t.database.db, { userId: user.userId, kind: 'points', titleKey: 'test.title', bodyKey: 'test.body', dedupeKey: `seed:${randomUUID()}` });
    }
  };

  it('sends the count at once, then each new one of its own user only: a broadcast to them, to all, a read elsewhere', async () => {
    const alice = await createUser(t.app);
    const bob = await createUser(t.app);
    await seed(bob, 2);
    const a = await openEvents(baseUrl, alice);
    const b = await openEvents(baseUrl, bob);
    try {
      expect(await a.next()).toBe(0);
      expect(await b.next()).toBe(2);

      // Bob's notification reaches Bob's stream; Alice's stream, had it heard of it, would say 3 first.
      expect((await toUser(bob)).Data).toEqual({ sent: 1 });
      expect(await b.next()).toBe(3);
      expect((await toUser(alice)).Data).toEqual({ sent: 1 });
      expect(await a.next()).toBe(1);

      const all = await broadcast({ title: 'Maintenance', body: 'Tonight', audience: 'all', requestId: randomUUID() });
      expect(all.Code).toBe(10000);
      expect(await a.next()).toBe(2);
      expect(await b.next()).toBe(4);

      // Read on another surface: the open one follows.
      expect((await api(t.app, bob).postBody('/api/UserNotification/ReadAll')).Data).toEqual({ unread: 0 });
      expect(await b.next()).toBe(0);
      const [first] = (await api(t.app, alice).getBody('/api/UserNotification/GetList')).Data.list as { id: string }[];
      expect((await api(t.app, alice).postBody('/api/UserNotification/Read', { ids: [first.id] })).Data).toEqual({ unread: 1 });
      expect(await a.next()).toBe(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a payment reaches the payer\'s open stream once Stripe\'s event is applied', async () => {
    const user = await createUser(t.app);
    const events = await openEvents(baseUrl, user);
    try {
      expect(await events.next()).toBe(0);
      const sub = { id: `sub_${randomUUID().slice(0, 8)}`, userId: user.userId, packageId: 'super-year' };
      const invoiceId = `in_${randomUUID().slice(0, 10)}`;
      const start = nowSeconds() - 60;
      const deliver = async (event: TestEvent) => {
        const { payload, signature } = stripe.deliver(event);
        const res = await t.app.inject({ method: 'POST', url: '/api/Vip/StripeWebhook', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature }, payload });
        expect(res.json().Data).toMatchObject({ applied: true });
      };
      await deliver(checkoutCompleted(sub));
      await deliver({ type: 'invoice.paid', object: paidInvoice(sub, invoiceId, start, start + 365 * 86_400, 'subscription_create') });
      expect(await events.next()).toBe(1);
      const [note] = (await api(t.app, user).getBody('/api/UserNotification/GetList')).Data.list as { titleKey: string }[];
      expect(note.titleKey).toBe('notifications.paymentSucceeded.title');
    } finally {
      events.close();
    }
  });

  it('announces what a transaction notified only once it committed, and nothing of one rolled back', async () => {
    const user = await createUser(t.app);
    const events = await openEvents(baseUrl, user);
    const note = () => ({ userId: user.userId, kind: 'points' as const, titleKey: 'test.title', bodyKey: 'test.body', dedupeKey: `tx:${randomUUID()}` });
    try {
      expect(await events.next()).toBe(0);
      const undone = announcingNotified(t.app.ctx, () =>
        t.database.db.transaction(async (tx) => {
          await notify(tx, note());
          throw new Error('undone');
        }),
      );
      await expect(undone).rejects.toThrow('undone');
      // Two in one committed transaction: one announcement, the count with both.
      await announcingNotified(t.app.ctx, () =>
        t.database.db.transaction(async (tx) => {
          await notify(tx, note());
          await notify(tx, note());
        }),
      );
      expect(await events.next()).toBe(2);
    } finally {
      events.close();
    }
  });

  it(`refuses the stream without a login, and more than ${MAX_STREAMS_PER_USER} of one user, readably; a closed one makes room`, async () => {
    const anonymous = await http(baseUrl).get('/api/UserNotification/Events');
    expect(anonymous.headers.get('content-type')).toMatch(/json/);
    expect(((await anonymous.json()) as { Code: number }).Code).toBe(10402);

    const user = await createUser(t.app);
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_USER }, () => openEvents(baseUrl, user)));
    try {
      for (const s of streams) expect(await s.next()).toBe(0);
      const refused = await api(t.app, user).getBody('/api/UserNotification/Events');
      expect(refused.Code).toBe(10429);
      expect(refused.Msg).toBe(`You have ${MAX_STREAMS_PER_USER} windows following your notifications already. Close one, or the count updates when you open the list.`);
      expect((await api(t.app, user).getBody('/api/UserNotification/Events', { lang: 'zh' })).Msg).toContain('个窗口在接收你的通知');
      // Another user is not held by this one's streams.
      const other = await openEvents(baseUrl, await createUser(t.app));
      expect(await other.next()).toBe(0);
      other.close();

      streams.pop()!.close();
      await vi.waitFor(() => expect(openUnreadStreams(t.app.ctx, user.userId)).toBe(MAX_STREAMS_PER_USER - 1));
      const again = await openEvents(baseUrl, user);
      expect(await again.next()).toBe(0);
      streams.push(again);
    } finally {
      for (const s of streams) s.close();
    }
  });

  describe('a broadcast in several languages', () => {
    type Item = { kind: string; params: { title?: string; body?: string } };
    const newest = async (user: TestUser, lang?: string) => ((await api(t.app, user).getBody('/api/UserNotification/GetList', { lang })).Data.list as Item[])[0];

    it('shows each reader their language\'s text, and the default text to the others', async () => {
      const user = await createUser(t.app);
      const translated = {
        title: 'Maintenance tonight',
        body: 'We restart at 22:00 UTC.',
        translations: { zh: { title: '今晚维护', body: '我们将在 UTC 22:00 重启。' } },
        audience: 'user',
        userId: user.userId,
        requestId: randomUUID(),
      };
      expect((await broadcast(translated)).Data).toEqual({ sent: 1 });
      expect((await newest(user, 'zh-CN,zh;q=0.9'))!.params).toEqual({ title: '今晚维护', body: '我们将在 UTC 22:00 重启。' });
      expect((await newest(user, 'en'))!.params).toEqual({ title: 'Maintenance tonight', body: 'We restart at 22:00 UTC.' });
      expect((await newest(user))!.params).toEqual({ title: 'Maintenance tonight', body: 'We restart at 22:00 UTC.' });

      // Without a Chinese text, a reader in Chinese gets the default one.
      await toUser(user, 'Only English');
      expect((await newest(user, 'zh'))!.params).toEqual({ title: 'Only English', body: 'Text' });
    });

    it('refuses a half-written or unknown translation with a readable message, in the caller\'s language', async () => {
      const user = await createUser(t.app);
      const good = { title: 'Hi', body: 'Text', audience: 'user', userId: user.userId, requestId: randomUUID() };
      const halfWritten = await broadcast({ ...good, translations: { zh: { title: '你好', body: '  ' } } });
      expect(halfWritten.Code).toBe(10400);
      expect(halfWritten.Msg).toContain('translations.zh.body: Write both the title and the message of a translation, or leave both empty.');
      expect((await broadcast({ ...good, translations: { zh: { title: '你好' } } }, 'zh')).Msg).toContain('译文的标题和内容需要都填写，或都留空。');
      for (const translations of [{ fr: { title: 'Salut', body: 'Texte' } }, { zh: { title: '长'.repeat(101), body: '内容' } }, { zh: 'hello' }, []]) {
        const answer = await broadcast({ ...good, translations });
        expect(answer.Code, JSON.stringify(translations).slice(0, 60)).toBe(10400);
        expect(answer.Msg).toMatch(/^Invalid request: translations/);
      }
      expect((await api(t.app, user).getBody('/api/UserNotification/GetList')).Data.list).toEqual([]);
    });
  });
});

// Two instances need a shared database: PGlite lives inside one process.
(onPostgres ? describe : describe.skip).each(buses)('the notification stream across two instances, bus over $name', ({ env }) => {
  let a: TestApp;
  let b: TestApp;
  let urlB: string;
  beforeAll(async () => {
    a = await createTestApp(env);
    b = await createTestApp(env, { databaseUrl: a.databaseUrl });
    urlB = await listening(b.app);
  });
  afterAll(async () => {
    b?.app.server.closeAllConnections();
    await b?.close();
    await a?.close();
  });

  it('a broadcast sent through one instance reaches a stream open on the other', async () => {
    const admin = await createAdmin(a.app);
    const user = await createUser(a.app);
    const events = await openEvents(urlB, user);
    try {
      expect(await events.next()).toBe(0);
      const sent = await api(a.app, admin).postBody('/api/admin/UserNotification/Broadcast', { title: 'Hi', body: 'All', audience: 'all', requestId: randomUUID() });
      expect(sent.Code).toBe(10000);
      expect(await events.next()).toBe(1);
    } finally {
      events.close();
    }
  });
});
