import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { startFakeSmtp, type FakeSmtp } from '../fixtures/smtp-server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * Password reset by an operator: a single-use link (one hour, stored hashed, the newest only) that
 * sets a new password and signs the account out everywhere; e-mailed through a real SMTP server when
 * SMTP_URL is set.
 */

const tokenOf = (link: string) => new URL(link).searchParams.get('reset')!;

function suite(name: string, env: () => Record<string, string>, more: (ctx: { t: () => TestApp; admin: () => TestUser }) => void) {
  describe(name, () => {
    let t: TestApp;
    let admin: TestUser;
    beforeAll(async () => {
      t = await createTestApp({ AUTH_RATE_LIMIT: '1000', PUBLIC_URL: 'https://tandem.example.com', ...env() });
      admin = await createAdmin(t.app);
    });
    afterAll(() => t?.close());
    more({ t: () => t, admin: () => admin });
  });
}

const sendReset = (t: TestApp, admin: TestUser, userId: string) => api(t.app, admin).postBody('/api/admin/User/SendPasswordReset', { userId });
const reset = (t: TestApp, body: unknown, lang = 'en') => api(t.app).postBody('/api/Account/ResetPassword', body, { lang });

suite('password reset without e-mail', () => ({}), ({ t, admin }) => {
  it('makes a link the operator passes on; the token sets the password once and signs the account out', async () => {
    const user = await createUser(t().app);
    const sent = await sendReset(t(), admin(), user.userId);
    expect(sent.Code, sent.Msg).toBe(Codes.Success);
    expect(sent.Data.emailed).toBe(false);
    expect(sent.Data.link).toMatch(/^https:\/\/tandem\.example\.com\/login\?reset=[A-Za-z0-9_-]{40,}$/);
    const expires = new Date(sent.Data.expireTime).getTime() - Date.now();
    expect(expires).toBeGreaterThan(59 * 60_000);
    expect(expires).toBeLessThanOrEqual(60 * 60_000);
    // Stored hashed only.
    const stored = await t().database.db.execute(sql`select token_hash from password_resets`);
    expect(JSON.stringify(stored.rows)).not.toContain(tokenOf(sent.Data.link));

    const token = tokenOf(sent.Data.link);
    expect((await reset(t(), { token, password: 'a brand new password' })).Code).toBe(Codes.Success);
    // Signed out everywhere; the old password no longer works, the new one does.
    expect((await api(t().app, user).getBody('/api/User/GetUserByLogin')).Code).toBe(Codes.NotLoggedIn);
    await expect(loginUser(t().app, user.email, user.password)).rejects.toThrow(/10401/);
    await loginUser(t().app, user.email, 'a brand new password');
    // Single use.
    const again = await reset(t(), { token, password: 'another new password' });
    expect(again.Code).toBe(Codes.LoginFailed);
    expect(again.Msg).toMatch(/expired or was already used/);
    expect((await reset(t(), { token, password: 'another new password' }, 'zh')).Msg).toMatch(/重置密码链接/);
  });

  it('makes older links useless when a new one is sent, and refuses expired ones', async () => {
    const user = await createUser(t().app);
    const first = tokenOf((await sendReset(t(), admin(), user.userId)).Data.link);
    const second = tokenOf((await sendReset(t(), admin(), user.userId)).Data.link);
    expect((await reset(t(), { token: first, password: 'password number one' })).Code).toBe(Codes.LoginFailed);
    await t().database.db.execute(sql`update password_resets set expires_at = now() - interval '1 second' where user_id = ${user.userId}`);
    expect((await reset(t(), { token: second, password: 'password number two' })).Code).toBe(Codes.LoginFailed);
    await loginUser(t().app, user.email, user.password);
  });

  it('consumes a token once even when it is used twice at once', async () => {
    const user = await createUser(t().app);
    const token = tokenOf((await sendReset(t(), admin(), user.userId)).Data.link);
    const results = await Promise.all([reset(t(), { token, password: 'first concurrent pw' }), reset(t(), { token, password: 'second concurrent pw' })]);
    expect(results.map((r) => r.Code).sort()).toEqual([Codes.Success, Codes.LoginFailed].sort());
    const winner = results[0].Code === Codes.Success ? 'first concurrent pw' : 'second concurrent pw';
    await loginUser(t().app, user.email, winner);
  });

  it('refuses bad input with a clear Code, and only admins make links', async () => {
    const user = await createUser(t().app);
    for (const bad of [{}, { token: 'short', password: 'long enough pw' }, { token: 'x'.repeat(40), password: 'short' }, { token: 5, password: 'long enough pw' }, { token: `${'x'.repeat(40)}\u0000`, password: 'long enough pw' }]) {
      const res = await reset(t(), bad);
      expect(res.Code, JSON.stringify(bad)).toBe(Codes.BadRequest);
    }
    expect((await reset(t(), { token: 'x'.repeat(43), password: 'long enough pw' })).Code).toBe(Codes.LoginFailed);
    expect((await sendReset(t(), user, user.userId)).Code).toBe(Codes.Forbidden);
    expect((await sendReset(t(), admin(), 'nobody')).Code).toBe(Codes.NotFound);
  });

  it('keeps the link out of the audit log', async () => {
    const user = await createUser(t().app);
    const token = tokenOf((await sendReset(t(), admin(), user.userId)).Data.link);
    const rows = await t().database.db.execute<{ t: string; target_id: string }>(sql`select before::text || coalesce(after::text, '') as t, target_id from admin_audit_log where action = 'User/SendPasswordReset'`);
    expect(rows.rows.some((r: { target_id: string }) => r.target_id === user.userId)).toBe(true);
    expect(JSON.stringify(rows.rows)).not.toContain(token);
  });
});

let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(() => smtp?.close());

suite('password reset with SMTP_URL', () => ({ SMTP_URL: smtp.url, SMTP_FROM: 'Tandem <no-reply@tandem.example.com>' }), ({ t, admin }) => {
  it('e-mails the link to the account through the SMTP server', async () => {
    const user = await createUser(t().app);
    const sent = await sendReset(t(), admin(), user.userId);
    expect(sent.Code, sent.Msg).toBe(Codes.Success);
    expect(sent.Data.emailed).toBe(true);
    // Not the verification link sign-up mails too (email-verification.test.ts).
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.text.includes('reset='));
    expect(mail.from).toBe('no-reply@tandem.example.com');
    expect(mail.text).toContain(sent.Data.link);
    expect(mail.text).toMatch(/Subject: Set a new password for Tandem/);
  });
});

describe('password reset when the SMTP server cannot be reached', () => {
  let closed: Server;
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    // A port that was just free: connecting to it is refused at once.
    closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000', SMTP_URL: `smtp://127.0.0.1:${port}` });
    admin = await createAdmin(t.app);
  });
  afterAll(() => t?.close());

  it('still answers the link, with emailed false', async () => {
    const user = await createUser(t.app);
    const sent = await sendReset(t, admin, user.userId);
    expect(sent.Code).toBe(Codes.Success);
    expect(sent.Data.emailed).toBe(false);
    expect((await reset(t, { token: tokenOf(sent.Data.link), password: 'works without mail' })).Code).toBe(Codes.Success);
  });
});
