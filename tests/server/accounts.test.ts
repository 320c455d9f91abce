import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { authTokens, tempKeys, users } from '../../server/db/schema/users.ts';
import { hashSecret } from '../../server/services/accounts/auth.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, loginUser } from '../helpers/users.ts';

describe('accounts and login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());


  it('makes the first account of a fresh server its administrator, and says so in the log', async () => {
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const res = await api(t.app).postBody('/api/Account/AddUser', { email: 'first@example.test', password: 'first-password' });
    expect(res.Code).toBe(10000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0].join(' ')).toMatch(/administrator/);
    const [row] = await t.app.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, res.Data.userId));
    expect(row.role).toBe('admin');
    const second = await api(t.app).postBody('/api/Account/AddUser', { email: 'second@example.test', password: 'second-password' });
    const [row2] = await t.app.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, second.Data.userId));
    expect(row2.role).toBe('user');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('signs up with a unique, case-insensitive e-mail and a user name from the e-mail', async () => {
    const res = await api(t.app).postBody('/api/Account/AddUser', { email: 'Ada.Lovelace@Example.test', password: 'analytical-engine' });
    expect(res).toMatchObject({ Code: 10000, Data: { userName: 'ada.lovelace', email: 'ada.lovelace@example.test' } });
    const dup = await api(t.app).postBody('/api/Account/AddUser', { email: 'ADA.LOVELACE@example.test', password: 'another-password' });
    expect(dup.Code).toBe(10409);
    expect(dup.Msg).toMatch(/already exists/);
    const zhDup = await api(t.app).postBody('/api/Account/AddUser', { email: 'ada.lovelace@EXAMPLE.test', password: 'another-password' }, { lang: 'zh' });
    expect(zhDup.Msg).toBe('该邮箱已注册，请直接登录。');
    const stored = await t.app.ctx.db.select({ hash: users.passwordHash }).from(users).where(sql`lower(${users.email}) = 'ada.lovelace@example.test'`);
    expect(stored[0].hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a short password and a bad e-mail with a message in the caller language', async () => {
    const short = await api(t.app).postBody('/api/Account/AddUser', { email: 'short@example.test', password: 'short' });
    expect(short.Code).toBe(10400);
    expect(short.Msg).toContain('at least 8 characters');
    const zh = await api(t.app).postBody('/api/Account/AddUser', { email: 'short@example.test', password: 'short' }, { lang: 'zh-CN' });
    expect(zh.Msg).toContain('密码至少需要 8 个字符');
    const bad = await api(t.app).postBody('/api/Account/AddUser', { email: 'not-an-email', password: 'long-enough-pw' });
    expect(bad.Code).toBe(10400);
    expect(bad.Msg).toContain('email');
  });

  it('lets only one of two simultaneous sign-ups with one e-mail through', async () => {
    const answers = await Promise.all([
      api(t.app).postBody('/api/Account/AddUser', { email: 'twice@example.test', password: 'first-password' }),
      api(t.app).postBody('/api/Account/AddUser', { email: 'TWICE@example.test', password: 'second-password' }),
    ]);
    expect(answers.map((a) => a.Code).sort()).toEqual([10000, 10409]);
    const rows = await t.app.ctx.db.select().from(users).where(sql`lower(${users.email}) = 'twice@example.test'`);
    expect(rows).toHaveLength(1);
  });

  it('bounds the user name and falls back to the e-mail when it is blank', async () => {
    const blank = await api(t.app).postBody('/api/Account/AddUser', { email: 'blank.name@example.test', password: 'long-enough-pw', userName: '   ' });
    expect(blank.Data.userName).toBe('blank.name');
    const long = await api(t.app).postBody('/api/Account/AddUser', { email: 'long.name@example.test', password: 'long-enough-pw', userName: 'x'.repeat(51) });
    expect(long.Code).toBe(10400);
  });

  it('answers the same for a wrong password and an unknown e-mail', async () => {
    const u = await createUser(t.app);
    const wrong = await api(t.app).postBody('/api/Account/Login', { email: u.email, password: 'wrong-password' });
    const unknown = await api(t.app).postBody('/api/Account/Login', { email: 'nobody@example.test', password: 'wrong-password' });
    expect(wrong.Code).toBe(10401);
    expect(unknown).toEqual(wrong);
    expect(wrong.Msg).toBe('Wrong e-mail or password.');
    const zh = await api(t.app).postBody('/api/Account/Login', { email: u.email, password: 'wrong-password' }, { lang: 'zh-CN,zh;q=0.9' });
    expect(zh.Msg).toBe('邮箱或密码错误。');
  });

  it('exchanges a temp key once only, even in parallel', async () => {
    const u = await createUser(t.app);
    const { Data } = await api(t.app).postBody('/api/Account/Login', { email: u.email, password: u.password });
    const url = `/api/User/GetTokenForTempKey?tempKey=${Data.tempKey}`;
    const answers = await Promise.all([api(t.app).getBody(url), api(t.app).getBody(url), api(t.app).getBody(url)]);
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(1);
    expect(answers.filter((a) => a.Code === 10401)).toHaveLength(2);
    const token = answers.find((a) => a.Code === 10000)!.Data;
    expect(typeof token).toBe('string');
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    // Stored only as a hash.
    const rows = await t.app.ctx.db.select().from(authTokens).where(eq(authTokens.tokenHash, token));
    expect(rows).toHaveLength(0);
    expect((await api(t.app, token).getBody('/api/User/GetUserByLogin')).Data.userId).toBe(u.userId);
  });

  it('refuses a temp key older than 60 seconds', async () => {
    const u = await createUser(t.app);
    const { Data } = await api(t.app).postBody('/api/Account/Login', { email: u.email, password: u.password });
    await t.app.ctx.db
      .update(tempKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(tempKeys.keyHash, hashSecret(Data.tempKey)));
    const res = await api(t.app).getBody(`/api/User/GetTokenForTempKey?tempKey=${Data.tempKey}`);
    expect(res.Code).toBe(10401);
    expect(res.Msg).toMatch(/expired/);
  });

  it('revokes the token on logout, also on the chat route that keeps recently verified tokens', async () => {
    const u = await createUser(t.app);
    const send = () =>
      api(t.app, u).post('/api/Chat/AddMessage', { aiModelId: 'auto', inputMessage: 'hi' });
    // No model is configured here: past the login check, the call answers 10460.
    expect((await send()).json().Code).toBe(10460);
    expect((await api(t.app, u).postBody('/api/User/Logout', {})).Code).toBe(10000);
    expect((await api(t.app, u).getBody('/api/User/GetUserByLogin')).Code).toBe(10402);
    expect((await send()).json().Code).toBe(10402);
  });

  it('closes an account: its tokens stop working and it cannot log in', async () => {
    const admin = await createAdmin(t.app);
    const u = await createUser(t.app);
    expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: u.userId })).Code).toBe(10000);
    expect((await api(t.app, u).getBody('/api/User/GetUserByLogin')).Code).toBe(10402);
    const login = await api(t.app).postBody('/api/Account/Login', { email: u.email, password: u.password });
    expect(login.Code).toBe(10401);
    expect(login.Msg).toMatch(/closed/);
    expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: 'no-such-user' })).Code).toBe(10404);
  });

  it('lists users to administrators, filtered by e-mail', async () => {
    const admin = await createAdmin(t.app);
    const u = await createUser(t.app, { email: 'findme-1234@example.test' });
    const res = await api(t.app, admin).getBody('/api/admin/User/GetList?email=findme-1234');
    expect(res.Data.total).toBe(1);
    expect(res.Data.list[0]).toMatchObject({ userId: u.userId, email: 'findme-1234@example.test', status: 'active', role: 'user' });
    expect(res.Data.list[0]).not.toHaveProperty('passwordHash');
  });
});

describe('token renewal (sliding expiry)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  it('sends a new token in the Authorization header once the token is old enough; the old one lapses after a grace', async () => {
    const u = await createUser(t.app);
    const fresh = await api(t.app, u).get('/api/User/GetUserByLogin');
    expect(fresh.headers.authorization).toBeUndefined();
    await t.app.ctx.db
      .update(authTokens)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(eq(authTokens.tokenHash, hashSecret(u.token)));
    const renewed = await api(t.app, u).get('/api/User/GetUserByLogin');
    expect(renewed.json().Code).toBe(10000);
    const newToken = renewed.headers.authorization as string;
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(u.token);
    expect((await api(t.app, newToken).getBody('/api/User/GetUserByLogin')).Code).toBe(10000);
    // The old token still works during a grace of about a minute, then not.
    expect((await api(t.app, u).getBody('/api/User/GetUserByLogin')).Code).toBe(10000);
    const [old] = await t.app.ctx.db.select({ expiresAt: authTokens.expiresAt }).from(authTokens).where(eq(authTokens.tokenHash, hashSecret(u.token)));
    expect(old.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    await t.app.ctx.db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authTokens.tokenHash, hashSecret(u.token)));
    expect((await api(t.app, u).getBody('/api/User/GetUserByLogin')).Code).toBe(10402);
  });
});

describe('admin bootstrap from the environment', () => {
  it('creates the administrator, and promotes an existing account on a later start', async () => {
    const t = await createTestApp({ ADMIN_EMAIL: 'Boss@Example.test', ADMIN_PASSWORD: 'boss-password' });
    try {
      const token = await loginUser(t.app, 'boss@example.test', 'boss-password');
      const me = await api(t.app, token).get('/api/User/GetUserByLogin');
      expect(me.json().Data.role).toBe('admin');
      // With an admin named, the first sign-up is an ordinary user.
      const other = await api(t.app).post('/api/Account/AddUser', { email: 'someone@example.test', password: 'someone-password' });
      const [row] = await t.app.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, other.json().Data.userId));
      expect(row.role).toBe('user');
    } finally {
      await t.close();
    }
  });

  it('promotes an account that exists, keeping its password', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
    try {
      await createUser(t.app); // the first account (admin by the first-account rule, demoted by the helper)
      const u = await createUser(t.app, { email: 'later-admin@example.test', password: 'own-password' });
      // A second start of the same server, now with ADMIN_EMAIL naming that account.
      const { bootstrapAdmin } = await import('../../server/services/accounts/accounts.ts');
      await bootstrapAdmin({ ...t.app.ctx, config: { ...t.app.ctx.config, ADMIN_EMAIL: 'later-admin@example.test', ADMIN_PASSWORD: 'ignored-password' } });
      const [row] = await t.app.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, u.userId));
      expect(row.role).toBe('admin');
      expect(await loginUser(t.app, u.email, 'own-password')).toBeTruthy();
    } finally {
      await t.close();
    }
  });
});

describe('rate limits on login and sign-up', () => {
  it('answers 10429 with a clear message after too many attempts from one address', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT: '3' });
    try {
      const attempt = () =>
        api(t.app).postBody('/api/Account/Login', { email: 'x@example.test', password: 'wrong-password' });
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await attempt());
      expect(answers.slice(0, 3).every((a) => a.Code === 10401)).toBe(true);
      expect(answers[3].Code).toBe(10429);
      expect(answers[3].Msg).toMatch(/Too many attempts.*\d+ seconds/);
      // Sign-up has its own limit, answered in the caller's language.
      const signUp = (i: number) =>
        api(t.app).post('/api/Account/AddUser', { email: `y${i}@example.test`, password: 'long-enough-pw' }, { lang: 'zh' });
      for (let i = 0; i < 3; i++) expect((await signUp(i)).json().Code).toBe(10000);
      const zh = await signUp(3);
      expect(zh.statusCode).toBe(200);
      expect(zh.json().Code).toBe(10429);
      expect(zh.json().Msg).toMatch(/尝试次数过多/);
    } finally {
      await t.close();
    }
  });
});

describe('client addresses behind proxies', () => {
  it('does not let X-Forwarded-For dodge the rate limit unless TRUST_PROXY names the proxy', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT: '2' });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) {
        const res = await api(t.app).post('/api/Account/Login', { email: 'x@example.test', password: 'wrong-password' }, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        codes.push(res.json().Code);
      }
      expect(codes).toEqual([10401, 10401, 10429, 10429]);
    } finally {
      await t.close();
    }
  });

  it('keys on the forwarded address when the proxy is trusted', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT: '2', TRUST_PROXY: '127.0.0.1' });
    try {
      const attempt = (ip: string) =>
        api(t.app)
          .postBody('/api/Account/Login', { email: 'x@example.test', password: 'wrong-password' }, { headers: { 'x-forwarded-for': ip } })
          .then((r) => r.Code);
      expect([await attempt('203.0.113.1'), await attempt('203.0.113.1'), await attempt('203.0.113.1')]).toEqual([10401, 10401, 10429]);
      expect(await attempt('203.0.113.2')).toBe(10401);
    } finally {
      await t.close();
    }
  });
});
