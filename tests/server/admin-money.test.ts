import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripeSubscriptions } from '../../server/db/schema/plans.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { users, vipOrders } from '../../server/db/schema/users.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * The console's money pages (docs/api.md#admin-models-deployments-and-money): every order with its user, filtered by status,
 * source, user and date; Stripe subscriptions; invite statistics aggregated by the database over a
 * date range. Seeded with known rows, every figure compared to hand-computed values. Runs on PGlite,
 * and on PostgreSQL with TEST_DATABASE_URL.
 */

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const orderIds: Record<string, string> = {};

const list = (query: string) => api(t.app, admin).getBody(`/api/admin/Vip/GetOrderList?${query}`);

beforeAll(async () => {
  alice = await createUser(t.app, { email: `alice-${randomUUID()}@money.test`, userName: 'Alice' });
  bob = await createUser(t.app, { email: `bob_${randomUUID()}@money.test`, userName: 'Bob' });
  carol = await createUser(t.app, { email: `carol-${randomUUID()}@money.test`, userName: 'Carol' });
  const now = Date.now();
  const order = (name: string, fields: Partial<typeof vipOrders.$inferInsert> & { userId: string }) => {
    orderIds[name] = randomUUID();
    return { id: orderIds[name], packageLevel: 2, packageName: 'Advanced', endTime: new Date(now + 30 * DAY), ...fields };
  };
  await t.database.db.insert(vipOrders).values([
    // Paid through Stripe, in force, created on 2026-03-10.
    order('paid', {
      userId: alice.userId,
      source: 'stripe',
      amount: 1999,
      currency: 'usd',
      stripeInvoiceId: `in_${randomUUID()}`,
      stripeSubscriptionId: 'sub_alice',
      packageId: 'advanced-month',
      period: 'month',
      pointsGranted: 3000,
      startTime: new Date(now - DAY),
      createdAt: at('2026-03-10T12:00:00Z'),
    }),
    // Refunded (its end was moved back to the refund), created 2026-03-11 00:00 UTC exactly.
    order('refunded', {
      userId: alice.userId,
      source: 'stripe',
      amount: 999,
      currency: 'usd',
      startTime: new Date(now - 5 * DAY),
      endTime: new Date(now - DAY),
      refundedAt: new Date(now - DAY),
      createdAt: at('2026-03-11T00:00:00Z'),
    }),
    // A redeem code's days, starting after the current plan ends.
    order('scheduled', { userId: bob.userId, source: 'redeem', packageLevel: 1, packageName: 'Standard', startTime: new Date(now + 10 * DAY), createdAt: at('2026-03-12T23:59:59Z') }),
    // An operator's grant that ended; the user hid it from their own list.
    order('ended', { userId: bob.userId, source: 'admin', startTime: new Date(now - 60 * DAY), endTime: new Date(now - 30 * DAY), hiddenAt: new Date(), createdAt: at('2026-01-01T00:00:00Z') }),
  ]);
});

describe('admin money: orders and subscriptions', () => {
  it('lists every order newest first with the user, each status and source as stored', async () => {
    const all = await list('page=1&count=100');
    expect(all.Code).toBe(10000);
    const ours = all.Data.list.filter((o: { vipOrderId: string }) => Object.values(orderIds).includes(o.vipOrderId));
    expect(ours.map((o: { vipOrderId: string }) => o.vipOrderId)).toEqual([orderIds.scheduled, orderIds.refunded, orderIds.paid, orderIds.ended]);
    const paid = ours.find((o: { vipOrderId: string }) => o.vipOrderId === orderIds.paid);
    expect(paid).toMatchObject({
      userId: alice.userId,
      userEmail: alice.email,
      userName: 'Alice',
      status: 'active',
      source: 'stripe',
      amount: 1999,
      currency: 'usd',
      packageLevel: 2,
      period: 'month',
      stripeSubscriptionId: 'sub_alice',
      pointsGranted: 3000,
      hiddenByUser: false,
      createTime: '2026-03-10T12:00:00.000Z',
    });
    const statusOf = (name: string) => ours.find((o: { vipOrderId: string }) => o.vipOrderId === orderIds[name]).status;
    expect([statusOf('refunded'), statusOf('scheduled'), statusOf('ended')]).toEqual(['refunded', 'scheduled', 'ended']);
    expect(ours.find((o: { vipOrderId: string }) => o.vipOrderId === orderIds.ended).hiddenByUser).toBe(true);
  });

  it('filters by status, source, user id, e-mail part and creation date, with the total of the filter', async () => {
    const ids = async (query: string) => {
      const res = await list(`count=100&${query}`);
      expect(res.Code, res.Msg).toBe(10000);
      const mine = res.Data.list.map((o: { vipOrderId: string }) => o.vipOrderId).filter((id: string) => Object.values(orderIds).includes(id));
      return { mine: [...mine].sort(), total: res.Data.total as number };
    };
    const sorted = (...names: string[]) => names.map((n) => orderIds[n]).sort();
    expect((await ids('status=active')).mine).toEqual(sorted('paid'));
    expect((await ids('status=refunded')).mine).toEqual(sorted('refunded'));
    expect((await ids('status=scheduled')).mine).toEqual(sorted('scheduled'));
    expect((await ids('status=ended')).mine).toEqual(sorted('ended'));
    expect((await ids('source=stripe')).mine).toEqual(sorted('paid', 'refunded'));
    expect(await ids(`userId=${bob.userId}`)).toEqual({ mine: sorted('scheduled', 'ended'), total: 2 });
    // A part of the e-mail, case-insensitive; the _ of bob's address is taken literally, not as a wildcard.
    expect(await ids(`email=${encodeURIComponent(alice.email.slice(0, 12).toUpperCase())}`)).toEqual({ mine: sorted('paid', 'refunded'), total: 2 });
    expect((await ids('email=bob_')).mine).toEqual(sorted('scheduled', 'ended'));
    expect((await ids('email=bob%25')).total).toBe(0);
    expect((await ids('email=alice_')).total).toBe(0);
    // Dates alone: from its start, to the end of the `to` day (both UTC).
    expect((await ids('from=2026-03-11&to=2026-03-12')).mine).toEqual(sorted('refunded', 'scheduled'));
    expect((await ids('from=2026-03-10&to=2026-03-10')).mine).toEqual(sorted('paid'));
    // Date-times: from inclusive, to exclusive, with their offsets.
    expect((await ids(`from=${encodeURIComponent('2026-03-11T08:00:00+08:00')}&to=${encodeURIComponent('2026-03-12T23:59:59Z')}`)).mine).toEqual(sorted('refunded'));
    expect((await ids(`source=stripe&status=active&userId=${alice.userId}`)).total).toBe(1);
  });

  it('pages the list and reads one order; an unknown one is not found', async () => {
    const first = await list(`userId=${alice.userId}&page=1&count=1`);
    const second = await list(`userId=${alice.userId}&page=2&count=1`);
    expect(first.Data.total).toBe(2);
    expect([first.Data.list[0].vipOrderId, second.Data.list[0].vipOrderId]).toEqual([orderIds.refunded, orderIds.paid]);
    expect((await list(`userId=${alice.userId}&page=3&count=1`)).Data).toEqual({ list: [], total: 2 });

    const one = await api(t.app, admin).getBody(`/api/admin/Vip/GetOrderById?vipOrderId=${orderIds.refunded}`);
    expect(one.Data).toMatchObject({ vipOrderId: orderIds.refunded, status: 'refunded', userEmail: alice.email, amount: 999 });
    expect(one.Data.refundTime).not.toBeNull();
    expect((await api(t.app, admin).getBody(`/api/admin/Vip/GetOrderById?vipOrderId=${randomUUID()}`)).Code).toBe(10404);
  });

  it('lists Stripe subscriptions with their user and package, filtered by status and user', async () => {
    const now = Date.now();
    await t.database.db.insert(stripeSubscriptions).values([
      { id: 'sub_alice', userId: alice.userId, customerId: 'cus_a', packageId: 'advanced-month', status: 'active', currentPeriodEnd: new Date(now + 20 * DAY), updatedAt: new Date(now - 1000) },
      { id: 'sub_bob', userId: bob.userId, customerId: 'cus_b', packageId: 'gone-package', status: 'canceled', cancelAtPeriodEnd: true, updatedAt: new Date(now) },
    ]);
    const all = await api(t.app, admin).getBody('/api/admin/Vip/GetSubscriptionList?count=100');
    expect(all.Code).toBe(10000);
    expect(all.Data.list.map((s: { subscriptionId: string }) => s.subscriptionId)).toEqual(['sub_bob', 'sub_alice']);
    expect(all.Data.list[1]).toMatchObject({
      userId: alice.userId,
      userEmail: alice.email,
      customerId: 'cus_a',
      packageId: 'advanced-month',
      packageName: expect.any(String),
      level: 2,
      period: 'month',
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    // A package that is gone (never created here) still lists the subscription, without its terms.
    expect(all.Data.list[0]).toMatchObject({ packageId: 'gone-package', packageName: null, level: null, period: null, cancelAtPeriodEnd: true, currentPeriodEnd: null });
    expect((await api(t.app, admin).getBody('/api/admin/Vip/GetSubscriptionList?status=canceled')).Data).toMatchObject({ total: 1, list: [{ subscriptionId: 'sub_bob' }] });
    expect((await api(t.app, admin).getBody(`/api/admin/Vip/GetSubscriptionList?email=${encodeURIComponent(alice.email)}`)).Data.total).toBe(1);
    expect((await api(t.app, admin).getBody(`/api/admin/Vip/GetSubscriptionList?userId=${carol.userId}`)).Data).toEqual({ list: [], total: 0 });
  });
});

describe('admin money', () => {
  describe('invite statistics', () => {
    const stats = (query: string) => api(t.app, admin).getBody(`/api/admin/InviteCode/GetStatistics?${query}`);

    beforeAll(async () => {
      // Alice invited three (two on 2026-04-01, one on 2026-04-03), Bob one (2026-04-02); credits
      // (points) follow on the ledger, one of them outside the range.
      const invitee = async (inviter: TestUser, signedUp: string) => {
        const u = await createUser(t.app);
        await t.database.db.update(users).set({ invitedBy: inviter.userId, createdAt: at(signedUp) }).where(eq(users.id, u.userId));
        return u;
      };
      const a1 = await invitee(alice, '2026-04-01T01:00:00Z');
      const a2 = await invitee(alice, '2026-04-01T23:00:00Z');
      await invitee(alice, '2026-04-03T10:00:00Z');
      const b1 = await invitee(bob, '2026-04-02T10:00:00Z');
      const credit = (inviter: TestUser, invited: TestUser, delta: number, when: string) => ({
        id: randomUUID(),
        userId: inviter.userId,
        delta,
        reason: 'invite',
        idempotencyKey: `invite:${invited.userId}`,
        createdAt: at(when),
      });
      await t.database.db.insert(pointLedger).values([
        credit(alice, a1, 50, '2026-04-01T02:00:00Z'),
        credit(alice, a2, 50, '2026-04-02T00:30:00Z'),
        credit(bob, b1, 70, '2026-04-02T11:00:00Z'),
        // Not an invite: never counted.
        { id: randomUUID(), userId: alice.userId, delta: 999, reason: 'admin', idempotencyKey: `admin:${randomUUID()}`, createdAt: at('2026-04-02T12:00:00Z') },
      ]);
    });

    it('counts sign-ups, credits and points per day and per inviter over the range', async () => {
      const res = await stats('from=2026-04-01&to=2026-04-03&top=10');
      expect(res.Code, res.Msg).toBe(10000);
      expect(res.Data.from).toBe('2026-04-01T00:00:00.000Z');
      expect(res.Data.to).toBe('2026-04-04T00:00:00.000Z');
      expect(res.Data.totals).toEqual({ invitees: 4, inviters: 2, credited: 3, pointsGranted: 170 });
      expect(res.Data.days).toEqual([
        { day: '2026-04-01', invitees: 2, credited: 1, pointsGranted: 50 },
        { day: '2026-04-02', invitees: 1, credited: 2, pointsGranted: 120 },
        { day: '2026-04-03', invitees: 1, credited: 0, pointsGranted: 0 },
      ]);
      expect(res.Data.top).toEqual([
        { userId: alice.userId, userEmail: alice.email, userName: 'Alice', invitees: 3, credited: 2, pointsGranted: 100 },
        { userId: bob.userId, userEmail: bob.email, userName: 'Bob', invitees: 1, credited: 1, pointsGranted: 70 },
      ]);
    });

    it('keeps to the edges of the range and to top', async () => {
      // 2026-04-02 alone: Alice's second credit (00:30) and Bob's sign-up and credit.
      const day = await stats('from=2026-04-02&to=2026-04-02');
      expect(day.Data.totals).toEqual({ invitees: 1, inviters: 1, credited: 2, pointsGranted: 120 });
      expect(day.Data.top.map((r: { userId: string }) => r.userId)).toEqual([bob.userId, alice.userId]);
      // Ending at 2026-04-01T23:00 exclusive leaves out the sign-up made then.
      const early = await stats(`from=2026-04-01&to=${encodeURIComponent('2026-04-01T23:00:00Z')}`);
      expect(early.Data.totals).toEqual({ invitees: 1, inviters: 1, credited: 1, pointsGranted: 50 });
      // A UTC+8 range: 2026-04-02T08:00+08:00 is 2026-04-02T00:00Z.
      const shifted = await stats(`from=${encodeURIComponent('2026-04-02T08:00:00+08:00')}&to=${encodeURIComponent('2026-04-02T08:30:00+08:00')}`);
      expect(shifted.Data.totals).toEqual({ invitees: 0, inviters: 0, credited: 0, pointsGranted: 0 });
      const shiftedMore = await stats(`from=${encodeURIComponent('2026-04-02T08:00:00+08:00')}&to=${encodeURIComponent('2026-04-02T08:31:00+08:00')}`);
      expect(shiftedMore.Data.totals.credited).toBe(1);
      const top1 = await stats('from=2026-04-01&to=2026-04-03&top=1');
      expect(top1.Data.top).toHaveLength(1);
      expect(top1.Data.top[0].userId).toBe(alice.userId);
      // Unbounded: everything so far, at least what was seeded here.
      const all = await stats('');
      expect(all.Data.from).toBeNull();
      expect(all.Data.totals.invitees).toBeGreaterThanOrEqual(4);
    });
  });
});

describe('admin money: bad input and callers who are not admins', () => {
  it('refuses bad input with a clear Code and message, in both languages', async () => {
    const bad = [
      '/api/admin/Vip/GetOrderList?status=bogus',
      '/api/admin/Vip/GetOrderList?source=paypal',
      '/api/admin/Vip/GetOrderList?from=yesterday',
      '/api/admin/Vip/GetOrderList?from=2026-02-30T00:00:00',
      '/api/admin/Vip/GetOrderList?count=1000',
      '/api/admin/Vip/GetOrderList?page=0',
      `/api/admin/Vip/GetOrderList?email=${'x'.repeat(5000)}`,
      `/api/admin/Vip/GetOrderList?userId=${'x'.repeat(65)}`,
      '/api/admin/Vip/GetOrderList?email=%00',
      '/api/admin/Vip/GetOrderById',
      '/api/admin/Vip/GetSubscriptionList?status=happy',
      '/api/admin/InviteCode/GetStatistics?top=0',
      '/api/admin/InviteCode/GetStatistics?top=1e9',
      '/api/admin/InviteCode/GetStatistics?to=%00',
    ];
    for (const url of bad) {
      const res = await api(t.app, admin).get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().Code, url).toBe(10400);
      expect(res.json().Msg.length, url).toBeGreaterThan(5);
    }
    // A range that ends before it starts: said so, in the caller's language.
    const backwards = await api(t.app, admin).getBody('/api/admin/Vip/GetOrderList?from=2026-03-12&to=2026-03-11');
    expect(backwards).toMatchObject({ Code: 10400, Msg: 'The end of the date range must come after its start.' });
    const zh = await api(t.app, admin).getBody('/api/admin/InviteCode/GetStatistics?from=2026-03-12T00:00:00Z&to=2026-03-12T00:00:00Z', { lang: 'zh' });
    expect(zh).toMatchObject({ Code: 10400, Msg: '日期范围的结束时间必须晚于开始时间。' });
  });

  it('refuses users who are not admins and visitors', async () => {
    const urls = [
      '/api/admin/Vip/GetOrderList',
      `/api/admin/Vip/GetOrderById?vipOrderId=${orderIds.paid}`,
      '/api/admin/Vip/GetSubscriptionList',
      '/api/admin/InviteCode/GetStatistics',
    ];
    for (const url of urls) {
      expect((await api(t.app, carol).getBody(url)).Code, url).toBe(10403);
      expect((await api(t.app).getBody(url)).Code, url).toBe(10402);
    }
    // A user cannot read another's orders through the admin list, even naming themselves.
    expect((await api(t.app, carol).getBody(`/api/admin/Vip/GetOrderList?userId=${carol.userId}`)).Data).toBeNull();
  });
});
