import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { VERIFY_MAILS_PER_HOUR } from '../../shared/contracts/email-verification.ts';
import { emailVerifications } from '../../server/db/schema/email-verifications.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { users } from '../../server/db/schema/users.ts';
import { settleVerificationMails } from '../../server/services/accounts/email-verification.ts';
import { settleInviteCredits } from '../../server/services/points/invites.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from '../fixtures/smtp-server.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * Verified e-mail (docs/api.md#verified-e-mail): sign-up mails a link when SMTP_URL is set, the link
 * verifies once, a new link makes the older ones useless, the hourly limit per account, the state
 * Settings shows, and the operator's setting that makes an inviter's reward wait for verification,
 * credited exactly once however many verifications and messages race.
 */

const PASSWORD = 'correct horse battery';
const PUBLIC_URL = 'https://chat.example.com';

let smtp: FakeSmtp;
let fake: FakeOpenAI;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  [smtp, fake] = await Promise.all([startFakeSmtp(), startFakeOpenAI()]);
  t = await createTestApp({
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Tandem <no-reply@chat.example.com>',
    PUBLIC_URL,
    AUTH_RATE_LIMIT: '1000',
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODELS: 'cheap',
    FREE_DAILY_POINTS: '1000',
  });
  admin = await createAdmin(t.app);
  // The invite credit comes at the invitee's first message: the spending rule is invites.test.ts's.
  await setSetting('invite_min_spend', '0');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), fake?.close()]);
});

const setSetting = async (settingKey: string, settingValue: string) => {
  const res = await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey, settingValue });
  expect(res.Code, res.Msg).toBe(Codes.Success);
};
const state = async (user: TestUser) => {
  const res = await api(t.app, user).getBody('/api/Account/GetEmailState');
  expect(res.Code, res.Msg).toBe(Codes.Success);
  return res.Data;
};
const resend = (user: TestUser, lang = 'en') => api(t.app, user).postBody('/api/Account/SendVerifyEmail', {}, { lang });
const verify = (token: unknown, lang = 'en') => api(t.app).postBody('/api/Account/VerifyEmail', { token }, { lang });

/** The token of a verification mail's link. */
const tokenOf = (mail: ReceivedMail) => {
  const link = /https:\/\/chat\.example\.com\/login\?verifyEmail=([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return decodeURIComponent(link![1]!);
};
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
/** Signs up through AddUser (with an invite code if given), waits for the sign-up's mail, logs in. */
const signUp = async (opts: { inviteCode?: string; lang?: string } = {}) => {
  const email = `verify-${randomUUID()}@example.test`;
  const res = await api(t.app).postBody('/api/Account/AddUser', { email, password: PASSWORD, inviteCode: opts.inviteCode }, { lang: opts.lang ?? 'en' });
  expect(res.Code, res.Msg).toBe(Codes.Success);
  const mail = await smtp.waitFor((m) => m.to.includes(email));
  const user: TestUser = { userId: res.Data.userId, email, password: PASSWORD, token: await loginUser(t.app, email, PASSWORD) };
  return { user, mail, token: tokenOf(mail) };
};
const verifiedAtOf = async (userId: string) => (await t.database.db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)))[0]!.at;

describe('verified e-mail: the link', () => {
  it('mails a link at sign-up, in the sign-up’s language; the link verifies once', async () => {
    const { user, mail, token } = await signUp();
    expect(mail.raw).toMatch(/Subject: Verify your e-mail address for Tandem/);
    expect(mail.text).toContain(user.email);
    expect(mail.text).toContain('within 24 hours');
    // Only the hash is stored.
    const rows = await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, user.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toBe(token);
    expect(rows[0]!.sentAt).not.toBeNull();

    const before = await state(user);
    expect(before).toEqual({ email: user.email, verified: false, verifiedAt: null, canSend: true, sentAt: rows[0]!.sentAt!.toISOString() });

    const res = await verify(token);
    expect(res, res.Msg).toMatchObject({ Code: Codes.Success, Data: { email: user.email, verifiedAt: expect.any(String) } });
    const after = await state(user);
    expect(after).toMatchObject({ verified: true, verifiedAt: res.Data.verifiedAt });

    // Used: refused in the caller's language, and the first verification's time stays.
    const again = await verify(token);
    expect(again).toMatchObject({ Code: Codes.BadRequest, Data: null });
    expect(again.Msg).toBe('This verification link has expired, was already used or was replaced by a newer one. Send a new link from Settings › Account.');
    expect((await verify(token, 'zh-CN')).Msg).toBe('此验证链接已过期、已被使用或已被更新的链接取代。请在 设置 › 账号 中重新发送链接。');
    expect((await verifiedAtOf(user.userId))!.toISOString()).toBe(res.Data.verifiedAt);

    // Verified: no new link is sent.
    const more = await resend(user);
    expect(more).toMatchObject({ Code: Codes.Conflict, Msg: 'Your e-mail address is already verified.' });
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it('writes the sign-up’s mail in Chinese for a Chinese sign-up', async () => {
    const { mail } = await signUp({ lang: 'zh-CN' });
    expect(mail.text).toContain('该链接仅可使用一次，24 小时内有效');
  });

  it('refuses unknown, expired and malformed tokens, and changes nothing', async () => {
    const { user, token } = await signUp();
    expect((await verify('not-a-token-at-all')).Code).toBe(Codes.BadRequest);
    for (const bad of ['', 5, null, 'x'.repeat(201)]) expect((await verify(bad)).Code, JSON.stringify(bad)).toBe(Codes.BadRequest);
    expect((await api(t.app).postBody('/api/Account/VerifyEmail', {})).Code).toBe(Codes.BadRequest);

    await t.database.db.update(emailVerifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailVerifications.userId, user.userId));
    const expired = await verify(token);
    expect(expired.Code).toBe(Codes.BadRequest);
    expect(expired.Msg).toMatch(/expired/);
    expect(await verifiedAtOf(user.userId)).toBeNull();
    // The refused call did not consume it either: it stays unused (and expired).
    const [row] = await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, user.userId));
    expect(row!.usedAt).toBeNull();
  });

  it('sends a new link on request; the older links stop working', async () => {
    const { user, token: first } = await signUp();
    const res = await resend(user);
    expect(res, res.Msg).toMatchObject({ Code: Codes.Success, Data: { verified: false, canSend: true, sentAt: expect.any(String) } });
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(2);
    const second = tokenOf(mails[1]!);
    expect(second).not.toBe(first);
    expect((await verify(first)).Code).toBe(Codes.BadRequest);
    expect(await verifiedAtOf(user.userId)).toBeNull();
    expect((await verify(second)).Code).toBe(Codes.Success);
    expect(await verifiedAtOf(user.userId)).not.toBeNull();
  });

  it(`allows ${VERIFY_MAILS_PER_HOUR} mails an hour per account, sign-up’s included`, async () => {
    const { user } = await signUp();
    for (let i = 1; i < VERIFY_MAILS_PER_HOUR; i++) expect((await resend(user)).Code).toBe(Codes.Success);
    const refused = await resend(user);
    expect(refused.Code).toBe(Codes.RateLimited);
    expect(refused.Msg).toMatch(new RegExp(`^You asked for ${VERIFY_MAILS_PER_HOUR} verification e-mails within an hour\\. Please try again in \\d+ seconds\\.$`));
    expect((await resend(user, 'zh')).Msg).toMatch(/^你在一小时内已申请 5 封验证邮件，请在 \d+ 秒后重试。$/);
    expect(mailsTo(user.email)).toHaveLength(VERIFY_MAILS_PER_HOUR);
    // Another account is not held by this one's mails.
    const { user: other } = await signUp();
    expect((await resend(other)).Code).toBe(Codes.Success);
    // Once the hour has passed for those mails, a new one goes out.
    await t.database.db
      .update(emailVerifications)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(eq(emailVerifications.userId, user.userId));
    expect((await resend(user)).Code).toBe(Codes.Success);
    expect(mailsTo(user.email)).toHaveLength(VERIFY_MAILS_PER_HOUR + 1);
  });

  it('needs a login for the state and a new link', async () => {
    expect((await api(t.app).getBody('/api/Account/GetEmailState')).Code).toBe(Codes.NotLoggedIn);
    expect((await api(t.app).postBody('/api/Account/SendVerifyEmail', {})).Code).toBe(Codes.NotLoggedIn);
  });

  it('verifies once when the link is opened many times at once', async () => {
    const { user, token } = await signUp();
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(token)));
    expect(answers.filter((a) => a.Code === Codes.Success)).toHaveLength(1);
    expect(answers.filter((a) => a.Code === Codes.BadRequest)).toHaveLength(7);
    expect(await verifiedAtOf(user.userId)).not.toBeNull();
  });
});

describe('verified e-mail: the invite reward', () => {
  const inviteEntries = (inviterId: string) =>
    t.database.db.select().from(pointLedger).where(and(eq(pointLedger.userId, inviterId), eq(pointLedger.reason, 'invite')));
  const balanceOf = async (userId: string) =>
    (await t.database.db.select({ balance: pointBalances.balance }).from(pointBalances).where(eq(pointBalances.userId, userId)))[0]?.balance ?? 0;
  const inviteCodeOf = async (user: TestUser) => (await api(t.app, user).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode as string;
  const send = async (user: TestUser) => {
    const res = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'cheap', inputMessage: 'hi', chatMediaIds: [] });
    expect(parseChatStream(res.body).at(-1)).toMatchObject({ Code: Codes.Success });
    await settleInviteCredits(t.app.ctx);
  };

  it('off (the default): the inviter is credited at the first message, verified or not', async () => {
    await setSetting('require_verified_email_for_invite_reward', 'false');
    const inviter = await createUser(t.app);
    const { user: invitee } = await signUp({ inviteCode: await inviteCodeOf(inviter) });
    await send(invitee);
    expect(await verifiedAtOf(invitee.userId)).toBeNull();
    expect(await inviteEntries(inviter.userId)).toHaveLength(1);
  });

  it('on: the reward waits for verification, then is credited exactly once', async () => {
    await setSetting('require_verified_email_for_invite_reward', 'true');
    const inviter = await createUser(t.app);
    const { user: invitee, token } = await signUp({ inviteCode: await inviteCodeOf(inviter) });
    await send(invitee);
    await send(invitee);
    expect(await inviteEntries(inviter.userId)).toHaveLength(0);

    expect((await verify(token)).Code).toBe(Codes.Success);
    const entries = await inviteEntries(inviter.userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ delta: 100, idempotencyKey: `invite:${invitee.userId}` });
    // Later messages and a second verification credit nothing more.
    await send(invitee);
    expect((await verify(token)).Code).toBe(Codes.BadRequest);
    expect(await inviteEntries(inviter.userId)).toHaveLength(1);
  });

  it('on: verifications and messages racing credit the inviter once', async () => {
    await setSetting('require_verified_email_for_invite_reward', 'true');
    const inviter = await createUser(t.app);
    const code = await inviteCodeOf(inviter);
    const invitees = await Promise.all(Array.from({ length: 3 }, () => signUp({ inviteCode: code })));
    const before = await balanceOf(inviter.userId);
    const calls = invitees.flatMap(({ user, token }) => [
      ...Array.from({ length: 5 }, () => verify(token)),
      api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'cheap', inputMessage: 'hi', chatMediaIds: [] }),
    ]);
    await Promise.all(calls);
    await settleInviteCredits(t.app.ctx);
    // Each invitee verified once; the inviter has one credit per invitee, and a balance to match.
    for (const { user } of invitees) expect(await verifiedAtOf(user.userId)).not.toBeNull();
    const entries = await inviteEntries(inviter.userId);
    expect(entries.map((e) => e.idempotencyKey).sort()).toEqual(invitees.map(({ user }) => `invite:${user.userId}`).sort());
    expect(await balanceOf(inviter.userId)).toBe(before + 3 * 100);
    await setSetting('require_verified_email_for_invite_reward', 'false');
  });

  it('refuses a value of the setting that is not true or false', async () => {
    const res = await api(t.app, admin).postBody('/api/admin/System/SaveSetting', { settingKey: 'require_verified_email_for_invite_reward', settingValue: 'yes' });
    expect(res.Code).toBe(Codes.BadRequest);
  });
});

describe('verified e-mail without SMTP', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => bare?.close());

  it('sends nothing at sign-up, says it cannot send, and answers 10461 to a request for a link', async () => {
    const user = await createUser(bare.app);
    await settleVerificationMails(bare.app.ctx);
    expect(await bare.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, user.userId))).toEqual([]);
    expect((await api(bare.app, user).getBody('/api/Account/GetEmailState')).Data).toEqual({
      email: user.email,
      verified: false,
      verifiedAt: null,
      canSend: false,
      sentAt: null,
    });
    const res = await api(bare.app, user).postBody('/api/Account/SendVerifyEmail', {});
    expect(res).toMatchObject({ Code: Codes.NotConfigured, Data: null });
    expect(res.Msg).toBe('This server cannot send e-mail, so your address cannot be verified now. An operator must set SMTP_URL.');
    expect((await api(bare.app, user).postBody('/api/Account/SendVerifyEmail', {}, { lang: 'zh' })).Msg).toContain('SMTP_URL');
  });
});
