import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { users } from '../../server/db/schema/users.ts';
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from '../fixtures/smtp-server.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * A user changes their own password (POST /api/Account/UpdateUserPassword): the current one is
 * checked as a login checks it (the same back-off), the new one follows sign-up's rule, every other
 * login of the account ends while the one that asked stays, and with SMTP_URL the account is told.
 */

const URL_ = '/api/Account/UpdateUserPassword';
const change = (t: TestApp, who: TestUser | string, body: unknown, lang = 'en') => api(t.app, who).postBody(URL_, body, { lang });
const whoAmI = (t: TestApp, token: string) => api(t.app, token).getBody('/api/User/GetUserByLogin');
const failedLogins = async (t: TestApp, userId: string) =>
  (await t.database.db.select({ n: users.failedLogins }).from(users).where(eq(users.id, userId)))[0]!.n;

describe('changing one’s password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => t?.close());

  it('sets the new password, keeps the login that asked and ends every other one', async () => {
    const user = await createUser(t.app);
    const elsewhere = await loginUser(t.app, user.email, user.password);
    // A temp key handed out before the change (a login half done) cannot be exchanged after it.
    const pending = (await api(t.app).postBody('/api/Account/Login', { email: user.email, password: user.password })).Data.tempKey;
    const res = await change(t, user, { oldPassword: user.password, newPassword: 'a new secret phrase' });
    expect(res, res.Msg).toMatchObject({ Code: Codes.Success, Data: null });

    expect((await whoAmI(t, user.token)).Data.userId).toBe(user.userId);
    expect((await whoAmI(t, elsewhere)).Code).toBe(Codes.NotLoggedIn);
    expect((await api(t.app).getBody(`/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(pending)}`)).Code).toBe(Codes.LoginFailed);
    await expect(loginUser(t.app, user.email, user.password)).rejects.toThrow(/10401/);
    const fresh = await loginUser(t.app, user.email, 'a new secret phrase');
    expect((await whoAmI(t, fresh)).Data.userId).toBe(user.userId);
    // The login that asked still works for what comes next, and can change it again.
    expect((await change(t, user, { oldPassword: 'a new secret phrase', newPassword: 'and another one now' })).Code).toBe(Codes.Success);
    expect((await whoAmI(t, fresh)).Code).toBe(Codes.NotLoggedIn);
  });

  it('refuses a wrong current password in the caller’s language, counts it, and changes nothing', async () => {
    const user = await createUser(t.app);
    const elsewhere = await loginUser(t.app, user.email, user.password);
    expect(await change(t, user, { oldPassword: 'not my password', newPassword: 'a new secret phrase' })).toMatchObject({
      Code: Codes.LoginFailed,
      Msg: 'The current password is wrong.',
      Data: null,
    });
    expect((await change(t, user, { oldPassword: 'not my password', newPassword: 'a new secret phrase' }, 'zh-CN')).Msg).toBe('当前密码不正确。');
    expect(await failedLogins(t, user.userId)).toBe(2);
    // Nothing changed: the old password logs in (which ends the streak), the other login lives on.
    expect((await whoAmI(t, elsewhere)).Data.userId).toBe(user.userId);
    await loginUser(t.app, user.email, user.password);
    expect(await failedLogins(t, user.userId)).toBe(0);
  });

  it('refuses a weak new password, one equal to the current, and a missing current one, with sign-up’s rule', async () => {
    const user = await createUser(t.app);
    const elsewhere = await loginUser(t.app, user.email, user.password);
    const short = await change(t, user, { oldPassword: user.password, newPassword: 'short' });
    expect(short.Code).toBe(Codes.BadRequest);
    expect(short.Msg).toBe('Invalid request: newPassword: The password must be at least 8 characters.');
    expect((await change(t, user, { oldPassword: user.password, newPassword: 'short' }, 'zh')).Msg).toContain('密码至少需要 8 个字符。');
    // The same rule as AddUser's, whatever the wording: 8 characters pass.
    const signUp = await api(t.app).postBody('/api/Account/AddUser', { email: `rule-${user.userId}@example.test`, password: 'short' });
    expect(signUp.Msg).toBe('Invalid request: password: The password must be at least 8 characters.');

    const same = await change(t, user, { oldPassword: user.password, newPassword: user.password });
    expect(same).toMatchObject({ Code: Codes.BadRequest, Msg: 'The new password is the same as the current one. Choose a different password.' });
    expect((await change(t, user, { oldPassword: user.password, newPassword: user.password }, 'zh')).Msg).toBe('新密码与当前密码相同，请换一个密码。');

    const missing = await change(t, user, { oldPassword: '', newPassword: 'a new secret phrase' });
    expect(missing).toMatchObject({ Code: Codes.BadRequest, Msg: 'Invalid request: oldPassword: Type your current password.' });
    for (const bad of [{}, { oldPassword: user.password }, { oldPassword: 5, newPassword: 'a new secret phrase' }, { oldPassword: user.password, newPassword: 'x'.repeat(201) }]) {
      expect((await change(t, user, bad)).Code, JSON.stringify(bad)).toBe(Codes.BadRequest);
    }
    // None of it changed anything.
    expect((await whoAmI(t, elsewhere)).Data.userId).toBe(user.userId);
    await loginUser(t.app, user.email, user.password);
    expect((await change(t, user, { oldPassword: user.password, newPassword: '12345678' })).Code).toBe(Codes.Success);
  });

  it('shares the login back-off: ten wrong current passwords hold the account for login and for changes', async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < 10; i++) expect((await change(t, user, { oldPassword: `wrong ${i}`, newPassword: 'a new secret phrase' })).Code).toBe(Codes.LoginFailed);
    const held = await change(t, user, { oldPassword: user.password, newPassword: 'a new secret phrase' });
    expect(held.Code).toBe(Codes.RateLimited);
    expect(held.Msg).toMatch(/^Too many wrong passwords for this account\. Please try again in \d+ seconds\.$/);
    expect((await change(t, user, { oldPassword: user.password, newPassword: 'a new secret phrase' }, 'zh')).Msg).toMatch(/^该账号密码错误次数过多，请在 \d+ 秒后重试。$/);
    const login = await api(t.app).postBody('/api/Account/Login', { email: user.email, password: user.password });
    expect(login.Code).toBe(Codes.RateLimited);
    // Refused before the hash is checked: the refusals did not count, and the password is unchanged.
    expect(await failedLogins(t, user.userId)).toBe(10);
    await t.database.db.update(users).set({ loginBlockedUntil: new Date(Date.now() - 1000) }).where(eq(users.id, user.userId));
    await loginUser(t.app, user.email, user.password);
  });

  it('needs a login, and changes only the caller’s own password', async () => {
    const alice = await createUser(t.app);
    const bob = await createUser(t.app, { password: 'bobs own password' });
    expect((await api(t.app).postBody(URL_, { oldPassword: alice.password, newPassword: 'a new secret phrase' })).Code).toBe(Codes.NotLoggedIn);
    // Alice's current password does not open Bob's account: the change is Bob's, checked against Bob's.
    expect((await change(t, bob, { oldPassword: alice.password, newPassword: 'taken over by alice' })).Code).toBe(Codes.LoginFailed);
    expect((await change(t, alice, { oldPassword: alice.password, newPassword: 'alices new password', userId: bob.userId })).Code).toBe(Codes.Success);
    await loginUser(t.app, bob.email, 'bobs own password');
    await loginUser(t.app, alice.email, 'alices new password');
  });
});

describe('changing one’s password: the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '4' });
  });
  afterAll(() => t?.close());

  it('limits attempts per account like login (AUTH_RATE_LIMIT)', async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < 4; i++) expect((await change(t, user, { oldPassword: `wrong ${i}`, newPassword: 'a new secret phrase' })).Code).toBe(Codes.LoginFailed);
    const limited = await change(t, user, { oldPassword: user.password, newPassword: 'a new secret phrase' });
    expect(limited.Code).toBe(Codes.RateLimited);
    expect(limited.Msg).toMatch(/Too many attempts\. Please try again in \d+ seconds\./);
  });
});

/** A received mail's subject and text body, decoded (encoded words; base64 or quoted-printable). */
function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const split = mail.raw.search(/\r?\n\r?\n/);
  const head = mail.raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = mail.raw.slice(split).trim();
  const subject = (/^Subject: (.*)$/im.exec(head)?.[1] ?? '').replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
  const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(head)?.[1]?.toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : mail.text.slice(mail.text.search(/\r?\n\r?\n/)).trim();
  return { subject, text };
}

describe('changing one’s password: the notice by e-mail', () => {
  // Sign-up mails its verification link too (email-verification.test.ts): those are not the notice.
  const notice = (email: string) => (m: ReceivedMail) => m.to.includes(email) && !m.text.includes('verifyEmail=');
  let smtp: FakeSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000', SMTP_URL: smtp.url, SMTP_FROM: 'Tandem <no-reply@tandem.example.com>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('tells the account in its language that the password was changed, and sends nothing for a refusal', async () => {
    const english = await createUser(t.app);
    expect((await change(t, english, { oldPassword: 'wrong password', newPassword: 'a new secret phrase' })).Code).toBe(Codes.LoginFailed);
    expect((await change(t, english, { oldPassword: english.password, newPassword: 'a new secret phrase' })).Code).toBe(Codes.Success);
    const mail = readMail(await smtp.waitFor(notice(english.email)));
    expect(mail.subject).toBe('Your Tandem password was changed');
    expect(mail.text).toContain(`The password of your Tandem account ${english.email} was changed`);
    expect(mail.text).toContain('ask an administrator of Tandem for a password-reset link');
    expect(smtp.mails.filter(notice(english.email))).toHaveLength(1);

    const chinese = await createUser(t.app);
    expect((await api(t.app, chinese).postBody('/api/User/SaveUserSetting', { language: 'zh' })).Code).toBe(Codes.Success);
    // The account's language, not the request's.
    expect((await change(t, chinese, { oldPassword: chinese.password, newPassword: 'a new secret phrase' }, 'en')).Code).toBe(Codes.Success);
    const zh = readMail(await smtp.waitFor(notice(chinese.email)));
    expect(zh.subject).toBe('你的 Tandem 密码已更改');
    expect(zh.text).toContain(`你的 Tandem 账号 ${chinese.email} 的密码已于`);
  });
});
