import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { users } from '../../server/db/schema/users.ts';
import { settleInviteCredits } from '../../server/services/points/invites.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { captureLog } from '../helpers/log-capture.ts';
import { createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * Invites (docs/economy.md#invites): each account's own code, sign-up through it, and the inviter's
 * credit after the invitee's first message: once per invitee, within the inviter's daily cap, never
 * for a closed account, with a notification on both sides.
 */

const PASSWORD = 'correct horse battery';
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

let fake: FakeOpenAI;
let t: TestApp;
let admin: TestUser;
const log = captureLog();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp(
    { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'cheap', FREE_DAILY_POINTS: '1000', AUTH_RATE_LIMIT: '1000', PUBLIC_URL: 'https://chat.example.com/', LOG_LEVEL: 'info' },
    { logger: log.logger },
  );
  admin = await createAdmin(t.app);
  // Most tests here credit at the first message; the spending rule has its own test.
  await setSetting('invite_min_spend', '0');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const get = (user: TestUser, url: string) => api(t.app, user).getBody(url);
const myInvite = async (user: TestUser) => (await get(user, '/api/InviteCode/GetMyInviteCode')).Data;
const setSetting = async (settingKey: string, settingValue: string) => {
  const res = await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey, settingValue });
  expect(res.Code).toBe(10000);
};
/** Signs up through AddUser (with an invite code, as sent) and logs in. */
const signUp = async (inviteCode?: string, userName?: string): Promise<TestUser & { answer: unknown }> => {
  const email = `invitee-${randomUUID()}@example.test`;
  const answer = await api(t.app).postBody('/api/Account/AddUser', { email, password: PASSWORD, userName, inviteCode });
  expect(answer.Code).toBe(10000);
  return { userId: answer.Data.userId, email, password: PASSWORD, token: await loginUser(t.app, email, PASSWORD), answer };
};
const closeAccount = (userId: string) => api(t.app, admin).postBody('/api/admin/User/Close', { userId });
/** Sends a message and waits for the invite credit it may have started. */
const send = async (user: TestUser) => {
  const res = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'cheap', inputMessage: 'hi', chatMediaIds: [] });
  expect(parseChatStream(res.body).at(-1)).toMatchObject({ Code: 10000 });
  await settleInviteCredits(t.app.ctx);
};
const inviteEntries = (inviterId: string) =>
  t.database.db.select().from(pointLedger).where(and(eq(pointLedger.userId, inviterId), eq(pointLedger.reason, 'invite')));
const notificationsOf = (userId: string) => t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, userId));
const invitedBy = async (userId: string) => (await t.database.db.select({ by: users.invitedBy }).from(users).where(eq(users.id, userId)))[0]?.by;

describe('invites: the code of an account, and signing up through it', () => {
  it("makes the caller's code once, on first request, with its sign-up link", async () => {
    const user = await createUser(t.app);
    const [stored] = await t.database.db.select({ code: users.ownInviteCode }).from(users).where(eq(users.id, user.userId));
    expect(stored.code).toBeNull();
    const first = await myInvite(user);
    expect(first).toEqual({
      inviteCode: expect.stringMatching(CODE),
      inviteUrl: `https://chat.example.com/?inviteCode=${first.inviteCode}`,
      invitedCount: 0,
      creditedCount: 0,
      pointsEarned: 0,
      pointsPerInvite: 100,
      disabled: false,
    });
    expect((await myInvite(user)).inviteCode).toBe(first.inviteCode);
    const other = await createUser(t.app);
    expect((await myInvite(other)).inviteCode).not.toBe(first.inviteCode);
  });

  it('links an account that signs up with the code, in any case and with spaces around, and welcomes it', async () => {
    const inviter = await createUser(t.app, { userName: 'Margaret' });
    const { inviteCode } = await myInvite(inviter);
    const invitee = await signUp(`  ${inviteCode.toLowerCase()} `);
    expect(await invitedBy(invitee.userId)).toBe(inviter.userId);
    const [welcome] = await notificationsOf(invitee.userId);
    expect(welcome).toMatchObject({
      kind: 'invite',
      titleKey: 'notifications.invitedWelcome.title',
      bodyKey: 'notifications.invitedWelcome.body',
      dedupeKey: `invited-welcome:${invitee.userId}`,
    });
    expect(JSON.parse(welcome.params)).toEqual({ name: 'Margaret' });
    expect((await myInvite(inviter)).invitedCount).toBe(1);
    // The invitee has a code of its own, not the inviter's.
    expect((await myInvite(invitee)).inviteCode).not.toBe(inviteCode);
  });

  it('ignores unknown codes and the codes of closed accounts, answering sign-up alike', async () => {
    const closed = await createUser(t.app);
    const { inviteCode: closedCode } = await myInvite(closed);
    await closeAccount(closed.userId);
    const plain = await signUp(undefined, 'Plain');
    for (const code of ['NOSUCH99', closedCode, 'x'.repeat(64)]) {
      const invitee = await signUp(code, 'Plain');
      expect(Object.keys((invitee.answer as { Data: object }).Data)).toEqual(Object.keys((plain.answer as { Data: object }).Data));
      expect(await invitedBy(invitee.userId)).toBeNull();
      expect(await notificationsOf(invitee.userId)).toEqual([]);
    }
  });
});

describe('invites: crediting the inviter', () => {
  it("credits the inviter after the invitee's first message, once, and tells the inviter", async () => {
    const inviter = await createUser(t.app);
    const invitee = await signUp((await myInvite(inviter)).inviteCode, 'Alice');
    await settleInviteCredits(t.app.ctx);
    expect(await inviteEntries(inviter.userId)).toEqual([]);
    expect((await get(inviter, '/api/InviteCode/GetMyInviteList')).Data.list).toEqual([
      { userName: 'Al***', createTime: expect.any(String), credited: false, points: 0 },
    ]);

    await send(invitee);
    const entries = await inviteEntries(inviter.userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ delta: 100, refId: invitee.userId, idempotencyKey: `invite:${invitee.userId}`, balanceAfter: 100 });
    const [balance] = await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, inviter.userId));
    expect(balance.balance).toBe(100);
    const [told] = await notificationsOf(inviter.userId);
    expect(told).toMatchObject({ kind: 'invite', titleKey: 'notifications.inviteCredited.title', bodyKey: 'notifications.inviteCredited.body', dedupeKey: `invite-credited:${invitee.userId}` });
    expect(JSON.parse(told.params)).toEqual({ points: 100, name: 'Al***' });
    expect(await myInvite(inviter)).toMatchObject({ invitedCount: 1, creditedCount: 1, pointsEarned: 100 });

    // The second message credits nothing more, and tells nobody anything.
    await send(invitee);
    expect(await inviteEntries(inviter.userId)).toHaveLength(1);
    expect(await notificationsOf(inviter.userId)).toHaveLength(1);
    // The inviter's own messages credit nobody.
    await send(inviter);
    expect(await inviteEntries(inviter.userId)).toHaveLength(1);
  });

  it('credits nothing for scripted sign-ups living on the free allowance, and credits once the invitee spends points of their own', async () => {
    await setSetting('invite_min_spend', '3');
    try {
      const inviter = await createUser(t.app);
      const { inviteCode } = await myInvite(inviter);
      // Ten scripted sign-ups, each sending one free message (the allowance pays): nothing earned.
      const bots = [];
      for (let i = 0; i < 10; i++) {
        const bot = await signUp(inviteCode);
        await send(bot);
        bots.push(bot);
      }
      expect(await inviteEntries(inviter.userId)).toEqual([]);
      expect(await myInvite(inviter)).toMatchObject({ invitedCount: 10, creditedCount: 0, pointsEarned: 0 });

      // One of them spends points of their own: today's allowance is used up, and 3 messages come from the balance.
      const real = bots[0]!;
      const grant = await api(t.app, admin).postBody('/api/admin/Vip/AddIntegral', { userId: real.userId, amount: 10, note: 'bought', requestId: randomUUID() });
      expect(grant.Code).toBe(10000);
      await t.database.db.execute(sql`update point_balances set daily_left = 0, daily_day = current_date where user_id = ${real.userId}`);
      await send(real);
      await send(real);
      expect(await inviteEntries(inviter.userId)).toEqual([]);
      await send(real);
      expect(await inviteEntries(inviter.userId)).toHaveLength(1);
      expect(await myInvite(inviter)).toMatchObject({ invitedCount: 10, creditedCount: 1, pointsEarned: 100 });
    } finally {
      await setSetting('invite_min_spend', '0');
    }
  });
});

describe('invites: the list of invitees', () => {
  it('lists invitees newest first with masked names, and never their e-mails', async () => {
    const inviter = await createUser(t.app);
    const { inviteCode } = await myInvite(inviter);
    const names = ['Alexander', 'B', '李小龙', ''];
    const invitees = [];
    for (const name of names) invitees.push(await signUp(inviteCode, name || undefined));
    await send(invitees[1]);
    const page = (await get(inviter, '/api/InviteCode/GetMyInviteList?page=1&count=3')).Data;
    expect(page.total).toBe(4);
    // The last one signed up without a name: it is made from the e-mail, and masked too.
    expect(page.list.map((i: { userName: string; credited: boolean; points: number }) => [i.userName, i.credited, i.points])).toEqual([
      ['in***', false, 0],
      ['李小***', false, 0],
      ['B***', true, 100],
    ]);
    expect((await get(inviter, '/api/InviteCode/GetMyInviteList?page=2&count=3')).Data.list.map((i: { userName: string }) => i.userName)).toEqual(['Al***']);
    const text = JSON.stringify((await get(inviter, '/api/InviteCode/GetMyInviteList?count=100')).Data);
    for (const invitee of invitees) expect(text).not.toContain(invitee.email);
    expect(text).not.toContain('Alexander');
    // Nobody else sees them.
    expect((await get(invitees[0], '/api/InviteCode/GetMyInviteList')).Data).toEqual({ list: [], total: 0 });
  });
});

describe('invites: what holds a credit back', () => {
  it('holds the daily cap per inviter, counting from the start of the UTC day, and logs what it holds back', async () => {
    await setSetting('invite_daily_cap', '2');
    await setSetting('invite_points', '7');
    try {
      const inviter = await createUser(t.app);
      const { inviteCode } = await myInvite(inviter);
      const invitees = [await signUp(inviteCode), await signUp(inviteCode), await signUp(inviteCode)];
      log.clear();
      for (const invitee of invitees) await send(invitee);
      expect((await inviteEntries(inviter.userId)).map((e) => [e.refId, e.delta])).toEqual([
        [invitees[0].userId, 7],
        [invitees[1].userId, 7],
      ]);
      expect(log.entries.some((e) => e.msg === 'invite not credited: daily cap reached' && e.inviterId === inviter.userId && e.level === 30)).toBe(true);
      expect(await myInvite(inviter)).toMatchObject({ invitedCount: 3, creditedCount: 2, pointsEarned: 14, pointsPerInvite: 7 });

      // The next UTC day the cap is free again: the held-back invitee's next message credits.
      await t.database.db.execute(sql`update point_ledger set created_at = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '1 second' where user_id = ${inviter.userId} and reason = 'invite'`);
      await send(invitees[2]);
      expect(await inviteEntries(inviter.userId)).toHaveLength(3);
    } finally {
      await setSetting('invite_daily_cap', '20');
      await setSetting('invite_points', '100');
    }
  });

  it('credits no closed inviter', async () => {
    const inviter = await createUser(t.app);
    const invitee = await signUp((await myInvite(inviter)).inviteCode);
    const closed = await closeAccount(inviter.userId);
    expect(closed.Code).toBe(10000);
    await send(invitee);
    expect(await inviteEntries(inviter.userId)).toEqual([]);
    expect(await notificationsOf(inviter.userId)).toEqual([]);
  });
});

describe('invites: bad paging and callers not logged in', () => {
  it('answers bad paging as bad input, and nothing to a caller who is not logged in', async () => {
    const user = await createUser(t.app);
    expect((await get(user, '/api/InviteCode/GetMyInviteList?count=1000')).Code).toBe(10400);
    expect((await api(t.app).getBody('/api/InviteCode/GetMyInviteCode')).Code).toBe(10402);
  });
});

describe('invites: first requests and first messages at once', () => {
  // PGlite has one connection: parallel work there is serial and proves nothing.
  (onPostgres ? it : it.skip)('agrees on one code when two first requests come at once', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await createUser(t.app);
      const codes = await Promise.all(Array.from({ length: 8 }, async () => (await myInvite(user)).inviteCode));
      expect(new Set(codes).size).toBe(1);
      const [stored] = await t.database.db.select({ code: users.ownInviteCode }).from(users).where(eq(users.id, user.userId));
      expect(stored.code).toBe(codes[0]);
    }
  });

  (onPostgres ? it : it.skip)('credits exactly once when the invitee sends 10 first messages at once', async () => {
    const inviter = await createUser(t.app);
    const invitee = await signUp((await myInvite(inviter)).inviteCode);
    log.clear();
    await Promise.all(Array.from({ length: 10 }, () => send(invitee)));
    await settleInviteCredits(t.app.ctx);
    expect(await inviteEntries(inviter.userId)).toHaveLength(1);
    expect(await notificationsOf(inviter.userId)).toHaveLength(1);
    const [balance] = await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, inviter.userId));
    expect(balance.balance).toBe(100);
    // The attempts that lost the race ended quietly (a duplicate key), not as failures.
    expect(log.entries.filter((e) => e.level >= 50)).toEqual([]);
  });
});
