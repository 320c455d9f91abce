import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { catalogueChanged } from '../../server/services/catalogue/catalogue.ts';
import { applyLedgerChange, chargePoints, creditPoints, refundPoints } from '../../server/services/points/ledger.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The points ledger: every change is one entry, applied once per key, in the same statement as the
 * balance it changes; the entries of every account sum to its balance, and no balance goes below zero.
 */


/** Each account whose ledger does not sum to its balance, with both figures. */
async function disagreements(t: TestApp) {
  const rows = await t.database.db.execute<{ user_id: string; balance: number; total: number }>(sql`
    select b.user_id, b.balance, coalesce(sum(l.delta), 0)::int as total
    from point_balances b left join point_ledger l on l.user_id = b.user_id
    group by b.user_id, b.balance having b.balance <> coalesce(sum(l.delta), 0)`);
  return rows.rows;
}

const balanceOf = async (t: TestApp, userId: string) =>
  (await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, userId)))[0];

describe('the points ledger', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'cheap,pricey:0', FREE_DAILY_POINTS: '2', AUTH_RATE_LIMIT: '1000' });
    admin = await createAdmin(t.app);
    await t.database.db.execute(sql`update ai_models set points_cost = 3 where id = 'pricey'`);
    await catalogueChanged(t.app.ctx);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const adjust = (body: Record<string, unknown>, token = admin.token, lang = 'en') => api(t.app, token).post('/api/admin/Vip/AddIntegral', body, { lang });
  const history = (user: TestUser, query = '') => api(t.app, user).getBody(`/api/User/GetUserIntegralLogList${query}`);
  const integral = async (user: TestUser) => (await api(t.app, user).getBody<unknown[]>('/api/User/GetUserIntegralByLogin')).Data[0];
  const send = (user: TestUser, aiModelId: string) => api(t.app, user).post('/api/Chat/AddMessage', { aiModelId, inputMessage: 'hi', chatMediaIds: [] });

  it('records a message charge in two parts: the free allowance first, then the balance', async () => {
    const user = await createUser(t.app);
    expect((await (await adjust({ userId: user.userId, amount: 10, note: 'welcome', requestId: randomUUID() })).json()).Data).toEqual({ applied: true, balance: 10 });
    // 3 points: 2 from today's allowance, 1 from the balance.
    expect(parseChatStream((await send(user, 'pricey')).body).at(-1)).toMatchObject({ Code: 10000 });
    // Told in its parts: today's free allowance is spent, 9 points are kept.
    expect(await integral(user)).toEqual({ integralType: 1, integralValue: 9, useIntegral: 3, freeLeft: 0, freeDaily: 2, freeResetsAt: expect.any(String), kept: 9 });
    const { Data } = await history(user);
    expect(Data.total).toBe(2);
    expect(Data.list.map((e: { kind: string; delta: number; allowance: number; balanceAfter: number }) => [e.kind, e.delta, e.allowance, e.balanceAfter])).toEqual([
      ['message', -1, 2, 9],
      ['admin', 10, 0, 10],
    ]);
    expect(Data.list[1].note).toBe('welcome');
    expect(await disagreements(t)).toEqual([]);
  });

  it('applies a grant once per requestId, however often it is sent', async () => {
    const user = await createUser(t.app);
    const body = { userId: user.userId, amount: 25, note: 'support ticket 41', requestId: randomUUID() };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await (await adjust(body)).json()).Data);
    expect(answers).toEqual([
      { applied: true, balance: 25 },
      { applied: false, balance: 25 },
      { applied: false, balance: 25 },
    ]);
    expect((await balanceOf(t, user.userId)).balance).toBe(25);
    expect((await history(user)).Data.total).toBe(1);
  });

  it('refuses a deduction below zero, in the caller language, and changes nothing', async () => {
    const user = await createUser(t.app);
    await adjust({ userId: user.userId, amount: 5, note: 'grant', requestId: randomUUID() });
    for (const [lang, text] of [
      ['en', 'The user has 5 points: a deduction cannot take the balance below zero.'],
      ['zh-CN', '该用户有 5 积分：扣除后余额不能低于零。'],
    ]) {
      const res = (await adjust({ userId: user.userId, amount: -6, note: 'too much', requestId: randomUUID() }, admin.token, lang)).json();
      expect(res).toEqual({ Code: 10400, Msg: text, Data: null });
    }
    expect((await balanceOf(t, user.userId)).balance).toBe(5);
    expect((await (await adjust({ userId: user.userId, amount: -5, note: 'all of it', requestId: randomUUID() })).json()).Data).toEqual({ applied: true, balance: 0 });
    expect((await history(user)).Data.list.map((e: { delta: number }) => e.delta)).toEqual([-5, 5]);
  });

  it('answers bad adjustments with the bad-input Code and a reason', async () => {
    const user = await createUser(t.app);
    const bad = [
      { userId: user.userId, amount: 0, note: 'x', requestId: randomUUID() },
      { userId: user.userId, amount: 1.5, note: 'x', requestId: randomUUID() },
      { userId: user.userId, amount: 5, note: '   ', requestId: randomUUID() },
      { userId: user.userId, amount: 5, note: 'x' },
      { userId: user.userId, amount: 1e12, note: 'x', requestId: randomUUID() },
    ];
    for (const body of bad) expect((await (await adjust(body)).json()).Code).toBe(10400);
    expect((await (await adjust({ userId: 'no-such-user', amount: 5, note: 'x', requestId: randomUUID() })).json()).Code).toBe(10404);
    // A plain user may not adjust anyone's points, their own included.
    expect((await (await adjust({ userId: user.userId, amount: 5, note: 'x', requestId: randomUUID() }, user.token)).json()).Code).toBe(10403);
    expect((await balanceOf(t, user.userId)).balance).toBe(0);
  });

  it('gives a failed answer back once, to where it came from, and counts it as not spent', async () => {
    const user = await createUser(t.app);
    fake.script('cheap', { status: 500 });
    const events = parseChatStream((await send(user, 'cheap')).body);
    expect(events.at(-1)).toMatchObject({ Code: 10503 });
    const messageId = events[0].Data.ChatMessageId;
    // The refund is keyed by the message: giving it back again changes nothing.
    await refundPoints(t.database.db, user.userId, 1, { key: `refund:message:${messageId}`, refId: messageId });
    const entries = (await history(user)).Data.list;
    expect(entries.map((e: { kind: string; delta: number; allowance: number }) => [e.kind, e.delta, e.allowance])).toEqual([
      ['refund', 0, -1],
      ['message', 0, 1],
    ]);
    // The allowance point it took is back in today's allowance, not in the balance: 0 + 2 left today.
    expect(await integral(user)).toEqual({ integralType: 1, integralValue: 2, useIntegral: 0, freeLeft: 2, freeDaily: 2, freeResetsAt: expect.any(String), kept: 0 });
    expect(await disagreements(t)).toEqual([]);
  });

  it('pages the history, filters it by kind, and shows nobody else\'s entries', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    for (let i = 1; i <= 5; i++) await adjust({ userId: user.userId, amount: i, note: `grant ${i}`, requestId: randomUUID() });
    await adjust({ userId: other.userId, amount: 99, note: 'not yours', requestId: randomUUID() });
    fake.script('cheap', { chunks: ['fine'] });
    await send(user, 'cheap');
    const first = (await history(user, '?page=1&count=2')).Data;
    const third = (await history(user, '?page=3&count=2')).Data;
    expect(first.total).toBe(6);
    expect(first.list.map((e: { kind: string }) => e.kind)).toEqual(['message', 'admin']);
    expect(third.list.map((e: { note: string }) => e.note)).toEqual(['grant 2', 'grant 1']);
    expect((await history(user, '?page=4&count=2')).Data.list).toEqual([]);
    expect((await history(user, '?kind=admin')).Data.total).toBe(5);
    expect(JSON.stringify((await history(user, '?count=100')).Data)).not.toContain('not yours');
    expect((await history(user, '?kind=bogus')).Code).toBe(10400);
  });

  it('never applies a key twice, nor takes a balance below zero, from the service itself', async () => {
    const user = await createUser(t.app);
    const key = `test:${randomUUID()}`;
    expect(await creditPoints(t.database.db, { userId: user.userId, delta: 4, kind: 'admin', key })).toMatchObject({ status: 'applied', balance: 4 });
    expect(await creditPoints(t.database.db, { userId: user.userId, delta: 4, kind: 'admin', key })).toEqual({ status: 'duplicate' });
    expect(await applyLedgerChange(t.database.db, { userId: user.userId, delta: -5, kind: 'admin', key: `test:${randomUUID()}` })).toEqual({ status: 'insufficient' });
    // A charge takes today's allowance (2) and then the balance (4), and no more.
    expect(await chargePoints(t.database.db, user.userId, 7, 2, { kind: 'draw', key: `draw:${randomUUID()}` })).toBe(false);
    expect(await chargePoints(t.database.db, user.userId, 6, 2, { kind: 'draw', key: `draw:${randomUUID()}` })).toBe(true);
    expect(await balanceOf(t, user.userId)).toMatchObject({ balance: 0, dailyLeft: 0, usedTotal: 6 });
    const entries = await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, user.userId));
    expect(entries.reduce((n, e) => n + e.delta, 0)).toBe(0);
  });

  // PGlite has one connection: parallel work there is serial and proves nothing.
  (onPostgres ? it : it.skip)('stays exact under 300 concurrent charges, grants, refunds and replays of one account', async () => {
    const user = await createUser(t.app);
    const db = t.database.db;
    await creditPoints(db, { userId: user.userId, delta: 100, kind: 'admin', key: `seed:${user.userId}` });
    const replayed = `grant:${randomUUID()}`;
    const ops = Array.from({ length: 300 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return chargePoints(db, user.userId, 3, 0, { kind: 'draw', key: `draw:${i}:${user.userId}` });
        case 1:
          return applyLedgerChange(db, { userId: user.userId, delta: -2, kind: 'admin', key: `deduct:${i}:${user.userId}` });
        case 2:
          // The same grant delivered 75 times at once: applied exactly once.
          return creditPoints(db, { userId: user.userId, delta: 50, kind: 'admin', key: replayed });
        default:
          return refundPoints(db, user.userId, 1, { key: `refund:${i % 8}:${user.userId}` });
      }
    });
    await Promise.all(ops);
    const entries = await db.select().from(pointLedger).where(eq(pointLedger.userId, user.userId));
    expect(entries.filter((e) => e.idempotencyKey === replayed)).toHaveLength(1);
    expect(entries.filter((e) => e.reason === 'refund')).toHaveLength(2);
    const row = await balanceOf(t, user.userId);
    expect(row.balance).toBe(entries.reduce((n, e) => n + e.delta, 0));
    expect(row.balance).toBeGreaterThanOrEqual(0);
    expect(entries.every((e) => e.balanceAfter === null || e.balanceAfter >= 0)).toBe(true);
    expect(await disagreements(t)).toEqual([]);
  });
});
