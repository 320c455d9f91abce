import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { stripeSubscriptions } from '../../server/db/schema/plans.ts';
import { users } from '../../server/db/schema/users.ts';
import { TINY_PNG } from '../fixtures/fake-images.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, onPostgres, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { auth, createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * The console's Users pages through the routes: the list (search, filters, sort), a user's page,
 * and the operator's actions (points, plans, role, close/reopen, delete with its data), each refused
 * to non-admins and to bad input with a clear Code.
 */

let fake: FakeOpenAI;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({ ...fakeOpenAIEnv(fake, 'users-model'), AUTH_RATE_LIMIT: '1000' });
  admin = await createAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ok = async <T = any>(p: Promise<{ Code: number; Msg: string; Data: T }>): Promise<T> => {
  const res = await p;
  expect(res.Code, res.Msg).toBe(Codes.Success);
  return res.Data;
};
const grant = (userId: string, amount: number, requestId = randomUUID()) => api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId, amount, reason: 'test', requestId });
const chat = async (user: TestUser) => {
  const res = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'users-model', inputMessage: 'Hello' });
  return parseChatStream(res.body);
};

describe('admin users', () => {
  describe('the list', () => {
    let alice: TestUser;
    let bob: TestUser;
    const tag = randomUUID().slice(0, 8);

    beforeAll(async () => {
      alice = await createUser(t.app, { email: `alice-${tag}@example.test`, userName: `Alice ${tag}` });
      bob = await createUser(t.app, { email: `bob-${tag}@example.test`, userName: `Bobby ${tag}` });
      await ok(grant(alice.userId, 30));
      await ok(grant(bob.userId, 70));
      await ok(api(t.app, admin).postBody('/api/admin/User/ExtendPlan', { userId: bob.userId, level: 2, days: 10, requestId: randomUUID() }));
      await chat(alice);
    });

    it('searches e-mail, name or id with one keyword, and keeps the older email filter', async () => {
      const byEmail = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=alice-${tag}`));
      expect(byEmail.list.map((u: { userId: string }) => u.userId)).toEqual([alice.userId]);
      const byName = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${encodeURIComponent(`bobby ${tag}`)}`));
      expect(byName.list.map((u: { userId: string }) => u.userId)).toEqual([bob.userId]);
      const byId = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${bob.userId}`));
      expect(byId.list.map((u: { userId: string }) => u.userId)).toEqual([bob.userId]);
      const legacy = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?email=${tag}`));
      expect(legacy.total).toBe(2);
      // Wildcards are text: % matches nothing here.
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${encodeURIComponent('%' + tag)}`))).total).toBe(0);
    });

    it('answers each row with plan, balance, sessions and last activity', async () => {
      const { list } = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${tag}&sort=email&order=asc`));
      expect(list).toHaveLength(2);
      const [a, b] = list;
      expect(a).toMatchObject({ userId: alice.userId, role: 'user', status: 'active', planLevel: 0, planEndTime: null, balance: 30, sessionCount: 1 });
      expect(a.lastActiveTime).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(b).toMatchObject({ userId: bob.userId, planLevel: 2, balance: 70, sessionCount: 0, lastActiveTime: null });
      expect(new Date(b.planEndTime).getTime()).toBeGreaterThan(Date.now() + 9 * 86_400_000);
    });

    it('filters by role, plan level and status, and sorts by balance, e-mail and last activity', async () => {
      const ids = async (q: string) => (await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${tag}&${q}`))).list.map((u: { userId: string }) => u.userId);
      expect(await ids('planLevel=2')).toEqual([bob.userId]);
      expect(await ids('planLevel=0')).toEqual([alice.userId]);
      expect(await ids('role=admin')).toEqual([]);
      expect(await ids('status=closed')).toEqual([]);
      expect(await ids('sort=balance&order=desc')).toEqual([bob.userId, alice.userId]);
      expect(await ids('sort=balance&order=asc')).toEqual([alice.userId, bob.userId]);
      expect(await ids('sort=email&order=desc')).toEqual([bob.userId, alice.userId]);
      // Never active sorts last, whichever the direction of the others.
      expect(await ids('sort=lastActive&order=desc')).toEqual([alice.userId, bob.userId]);
      // Empty filters are no filters (the console sends the form as it is).
      expect(await ids('role=&status=&planLevel=&sort=email&order=asc')).toEqual([alice.userId, bob.userId]);
    });

    it('pages', async () => {
      const first = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${tag}&sort=email&order=asc&count=1&page=1`));
      const second = await ok(api(t.app, admin).getBody(`/api/admin/User/GetList?keyword=${tag}&sort=email&order=asc&count=1&page=2`));
      expect(first.total).toBe(2);
      expect([first.list[0].userId, second.list[0].userId]).toEqual([alice.userId, bob.userId]);
    });

    it('refuses bad queries with a clear Code', async () => {
      for (const q of ['sort=name', 'order=up', 'planLevel=9', 'role=root', 'status=gone', `keyword=${'x'.repeat(300)}`, 'page=0']) {
        const res = await api(t.app, admin).getBody(`/api/admin/User/GetList?${q}`);
        expect(res.Code, q).toBe(Codes.BadRequest);
      }
    });
  });

  describe("a user's page", () => {
    it('shows plan, balance, ledger, counts, tokens and the invite tree', async () => {
      const inviter = await createUser(t.app);
      const user = await createUser(t.app);
      const invitee = await createUser(t.app);
      await t.database.db.update(users).set({ invitedBy: inviter.userId }).where(eq(users.id, user.userId));
      await t.database.db.update(users).set({ invitedBy: user.userId }).where(eq(users.id, invitee.userId));
      await ok(grant(user.userId, 12));
      await ok(api(t.app, admin).postBody('/api/admin/User/ExtendPlan', { userId: user.userId, level: 1, days: 3, requestId: randomUUID() }));
      await chat(user);
      await chat(user);

      const page = await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`));
      expect(page).toMatchObject({
        userId: user.userId,
        email: user.email,
        planLevel: 1,
        plan: { level: 1, name: 'Standard', subscription: null },
        sessionCount: 2,
        messageCount: 2,
        inviter: { userId: inviter.userId, inviteeCount: 1 },
        invitees: { total: 1, list: [{ userId: invitee.userId, inviteeCount: 0 }] },
      });
      expect(page.ledger.list.some((e: { kind: string; delta: number; note: string }) => e.kind === 'admin' && e.delta === 12 && e.note === 'test')).toBe(true);
      expect(page.tokens.input + page.tokens.output).toBeGreaterThan(0);

      const ledger = await ok(api(t.app, admin).getBody(`/api/admin/User/GetLedger?userId=${user.userId}&count=1`));
      expect(ledger.list).toHaveLength(1);
      expect(ledger.total).toBe(page.ledger.total);
    });

    it('answers 10404 for an unknown account', async () => {
      expect((await api(t.app, admin).getBody('/api/admin/User/GetById?userId=nobody')).Code).toBe(Codes.NotFound);
      expect((await api(t.app, admin).getBody('/api/admin/User/GetLedger?userId=nobody')).Code).toBe(Codes.NotFound);
      expect((await api(t.app, admin).getBody('/api/admin/User/GetDeletePreview?userId=nobody')).Code).toBe(Codes.NotFound);
    });
  });
});

describe('admin users', () => {
  describe('actions', () => {
    it('grants and deducts points on the ledger, once per requestId, never below zero', async () => {
      const user = await createUser(t.app);
      const requestId = randomUUID();
      expect(await ok(grant(user.userId, 40, requestId))).toEqual({ applied: true, balance: 40 });
      expect(await ok(grant(user.userId, 40, requestId))).toEqual({ applied: false, balance: 40 });
      expect(await ok(grant(user.userId, -15))).toEqual({ applied: true, balance: 25 });
      const refused = await grant(user.userId, -26);
      expect(refused.Code).toBe(Codes.BadRequest);
      expect(refused.Msg).toContain('25');
      for (const bad of [{ amount: 0 }, { amount: 1.5 }, { reason: '' }, { reason: ' ' }, { requestId: 'short' }, { amount: '5' }, { userId: 'a\u0000b' }]) {
        const res = await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 5, reason: 'r', requestId: randomUUID(), ...bad });
        expect(res.Code, JSON.stringify(bad)).toBe(Codes.BadRequest);
      }
    });

    it('extends and ends a plan', async () => {
      const user = await createUser(t.app);
      const extended = await ok(api(t.app, admin).postBody('/api/admin/User/ExtendPlan', { userId: user.userId, level: 3, days: 30, requestId: randomUUID() }));
      expect(extended.applied).toBe(true);
      const info = async () => (await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data;
      expect((await info()).vipOrder).toMatchObject({ vipPackageLevel: 3 });
      expect(await ok(api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: user.userId }))).toEqual({ endedOrders: 1, subscription: 'none' });
      expect((await info()).vipOrder).toBeNull();
      expect(await ok(api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: user.userId }))).toEqual({ endedOrders: 0, subscription: 'none' });
      expect((await api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: 'nobody' })).Code).toBe(Codes.NotFound);
    });

    it('says when a Stripe subscription runs on because this server has no Stripe key', async () => {
      const user = await createUser(t.app);
      await ok(api(t.app, admin).postBody('/api/admin/User/ExtendPlan', { userId: user.userId, level: 2, days: 30, requestId: randomUUID() }));
      await t.database.db.insert(stripeSubscriptions).values({ id: `sub_${randomUUID()}`, userId: user.userId, packageId: 'advanced-month', status: 'active' });
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetDeletePreview?userId=${user.userId}`))).runningSubscription).toBe(true);
      expect(await ok(api(t.app, admin).postBody('/api/admin/User/EndPlan', { userId: user.userId }))).toEqual({ endedOrders: 1, subscription: 'notConfigured' });
      expect(await ok(api(t.app, admin).postBody('/api/admin/User/Delete', { userId: user.userId, confirmEmail: user.email }))).toEqual({ subscription: 'notConfigured' });
    });

    it('changes roles, but never the caller’s own nor the last admin’s', async () => {
      const user = await createUser(t.app);
      await ok(api(t.app, admin).postBody('/api/admin/User/SetRole', { userId: user.userId, role: 'admin' }));
      expect((await api(t.app, user).getBody('/api/admin/User/GetList')).Code).toBe(Codes.Success);
      const self = await api(t.app, admin).postBody('/api/admin/User/SetRole', { userId: admin.userId, role: 'user' });
      expect(self.Code).toBe(Codes.Conflict);
      await ok(api(t.app, admin).postBody('/api/admin/User/SetRole', { userId: user.userId, role: 'user' }));
      expect((await api(t.app, user).getBody('/api/admin/User/GetList')).Code).toBe(Codes.Forbidden);
      expect((await api(t.app, admin).postBody('/api/admin/User/SetRole', { userId: user.userId, role: 'root' })).Code).toBe(Codes.BadRequest);
    });

    it('refuses demoting, closing or deleting the caller’s own account (the last admin can never act on itself)', async () => {
      // Another admin is always left when the target is not the caller: the last-admin rule matters
      // when two admins act on each other at once (the PostgreSQL test below).
      expect((await api(t.app, admin).postBody('/api/admin/User/SetRole', { userId: admin.userId, role: 'user' })).Code).toBe(Codes.Conflict);
      expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: admin.userId })).Code).toBe(Codes.Conflict);
      const self = await api(t.app, admin).postBody('/api/admin/User/Delete', { userId: admin.userId, confirmEmail: admin.email });
      expect(self.Code).toBe(Codes.Conflict);
      expect(self.Msg).toMatch(/own account/);
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${admin.userId}`))).role).toBe('admin');
    });

    it('closes an account (its next call is refused 10402) and reopens it', async () => {
      const user = await createUser(t.app);
      await ok(api(t.app, admin).postBody('/api/admin/User/Close', { userId: user.userId }));
      const next = await api(t.app, user).getBody('/api/User/GetUserByLogin');
      expect(next.Code).toBe(Codes.NotLoggedIn);
      await expect(loginUser(t.app, user.email, user.password)).rejects.toThrow(/10401/);
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`))).status).toBe('closed');
      await ok(api(t.app, admin).postBody('/api/admin/User/Reopen', { userId: user.userId }));
      const token = await loginUser(t.app, user.email, user.password);
      expect((await api(t.app, token).getBody('/api/User/GetUserByLogin')).Code).toBe(Codes.Success);
      expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: admin.userId })).Code).toBe(Codes.Conflict);
      expect((await api(t.app, admin).postBody('/api/admin/User/Reopen', { userId: 'nobody' })).Code).toBe(Codes.NotFound);
    });

    it('previews and deletes an account with its data and stored files', async () => {
      const user = await createUser(t.app);
      const invitee = await createUser(t.app);
      await t.database.db.update(users).set({ invitedBy: user.userId }).where(eq(users.id, invitee.userId));
      await ok(grant(user.userId, 5));
      const events = await chat(user);
      await api(t.app, user).post('/api/Save/Add', { chatMessageId: events[0].Data.ChatMessageId });
      const form = new FormData();
      form.append('mediaType', 'image');
      form.append('imageFile', new Blob([new Uint8Array(TINY_PNG)]), 'dot.png');
      const encoded = new Response(form);
      const uploaded = await t.app.inject({
        method: 'POST',
        url: '/api/Chat/AddChatMedia',
        headers: { ...auth(user.token), 'content-type': encoded.headers.get('content-type')! },
        payload: Buffer.from(await encoded.arrayBuffer()),
      });
      expect(uploaded.json().Code, uploaded.body).toBe(Codes.Success);
      const [media] = await t.database.db.select().from(chatMedia).where(eq(chatMedia.userId, user.userId));
      expect(media.storageKey).not.toBe('');
      expect(await t.app.ctx.files.get(media.storageKey)).not.toBeNull();

      const preview = await ok(api(t.app, admin).getBody(`/api/admin/User/GetDeletePreview?userId=${user.userId}`));
      // The grant and the message's charge.
      const entries = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from point_ledger where user_id = ${user.userId}`);
      expect(Number(entries.rows[0].n)).toBeGreaterThanOrEqual(1);
      expect(preview).toEqual({ userId: user.userId, email: user.email, sessions: 1, messages: 1, favourites: 1, files: 1, ledgerEntries: Number(entries.rows[0].n), orders: 0, runningSubscription: false });

      const wrong = await api(t.app, admin).postBody('/api/admin/User/Delete', { userId: user.userId, confirmEmail: 'someone@else.test' });
      expect(wrong.Code).toBe(Codes.BadRequest);
      expect((await api(t.app, admin).postBody('/api/admin/User/Delete', { userId: admin.userId, confirmEmail: admin.email })).Code).toBe(Codes.Conflict);

      expect(await ok(api(t.app, admin).postBody('/api/admin/User/Delete', { userId: user.userId, confirmEmail: user.email.toUpperCase() }))).toEqual({ subscription: 'none' });
      expect((await api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`)).Code).toBe(Codes.NotFound);
      expect(await t.app.ctx.files.get(media.storageKey)).toBeNull();
      const left = await t.database.db.execute<{ n: number }>(
        sql`select (select count(*) from chat_messages where user_id = ${user.userId}) + (select count(*) from chat_media where user_id = ${user.userId}) + (select count(*) from point_ledger where user_id = ${user.userId}) as n`,
      );
      expect(Number(left.rows[0].n)).toBe(0);
      expect((await api(t.app, user).getBody('/api/User/GetUserByLogin')).Code).toBe(Codes.NotLoggedIn);
      // The account it invited no longer names it.
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${invitee.userId}`))).inviter).toBeNull();
      // The e-mail is free again.
      await createUser(t.app, { email: user.email });
    });

    it('refuses every action to non-admins and signed-out callers', async () => {
      const user = await createUser(t.app);
      const body = { userId: user.userId, amount: 1, reason: 'r', requestId: randomUUID(), level: 1, days: 1, role: 'admin', confirmEmail: user.email };
      for (const action of ['GrantPoints', 'ExtendPlan', 'EndPlan', 'SetRole', 'Close', 'Reopen', 'SendPasswordReset', 'Delete']) {
        expect((await api(t.app, user).postBody(`/api/admin/User/${action}`, body)).Code, action).toBe(Codes.Forbidden);
        expect((await api(t.app, 'nope').postBody(`/api/admin/User/${action}`, body)).Code, action).toBe(Codes.NotLoggedIn);
      }
      for (const read of ['GetList', `GetById?userId=${user.userId}`, `GetLedger?userId=${user.userId}`, `GetDeletePreview?userId=${user.userId}`]) {
        expect((await api(t.app, user).getBody(`/api/admin/User/${read}`)).Code, read).toBe(Codes.Forbidden);
      }
      // Nothing happened to the account.
      expect((await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`))).role).toBe('user');
    });
  });
});

describe('admin users', () => {
  describe.runIf(onPostgres)('grants under concurrency (PostgreSQL)', () => {
    it('applies one requestId once however many arrive at once, and many grants add up exactly', async () => {
      const user = await createUser(t.app);
      const requestId = randomUUID();
      const same = await Promise.all(Array.from({ length: 20 }, () => grant(user.userId, 7, requestId)));
      expect(same.every((r) => r.Code === Codes.Success)).toBe(true);
      expect(same.filter((r) => r.Data.applied)).toHaveLength(1);

      const amounts = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? -2 : 5));
      const many = await Promise.all(amounts.map((amount) => grant(user.userId, amount)));
      expect(many.every((r) => r.Code === Codes.Success)).toBe(true);
      const expected = 7 + amounts.reduce((a, b) => a + b, 0);
      const page = await ok(api(t.app, admin).getBody(`/api/admin/User/GetById?userId=${user.userId}`));
      expect(page.balance).toBe(expected);
      const sum = await t.database.db.execute<{ s: number }>(sql`select coalesce(sum(delta), 0)::int as s from point_ledger where user_id = ${user.userId}`);
      expect(Number(sum.rows[0].s)).toBe(expected);
    });

    it('never leaves the server without an admin when two demote each other at once', async () => {
      const own = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
      try {
        const a = await createAdmin(own.app);
        const b = await createAdmin(own.app);
        const demote = (actor: TestUser, target: TestUser) =>
          api(own.app, actor).postBody('/api/admin/User/SetRole', { userId: target.userId, role: 'user' });
        const results = await Promise.all([demote(a, b), demote(b, a)]);
        const admins = await own.database.db.execute<{ n: number }>(sql`select count(*)::int as n from users where role = 'admin' and status = 'active'`);
        expect(Number(admins.rows[0].n)).toBe(1);
        // One wins; the other is refused: as the last admin (10409) when both passed the sign-in
        // check before either demotion, else because its caller is no admin any more (10403).
        const codes = results.map((r) => r.Code);
        expect(codes.filter((c) => c === Codes.Success)).toHaveLength(1);
        expect([Codes.Conflict, Codes.Forbidden]).toContain(codes.find((c) => c !== Codes.Success));
      } finally {
        await own.close();
      }
    });
  });
});
