import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens } from '../../server/db/schema/users.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, loginUser, type TestUser } from '../helpers/users.ts';

/**
 * One login, one live token (docs/security.md#logins-and-tokens): a token due for renewal has one
 * successor however many requests present it at once; Logout ends the whole login; LogoutAll, a
 * password reset and Close end every login and the temp keys not yet exchanged. Run on PostgreSQL
 * too (TEST_DATABASE_URL), where the concurrent requests really race.
 */

describe('logins and their tokens', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000', TOKEN_RENEW_AFTER_SECONDS: '1' });
    admin = await createAdmin(t.app);
  });
  afterAll(async () => t?.close());

  const whoAmI = async (token: string) => {
    const res = await api(t.app, token).get('/api/User/GetUserByLogin');
    return { code: res.json().Code as number, renewed: res.headers.authorization as string | undefined };
  };
  /** Makes every token of the user due for renewal. */
  const age = (user: TestUser) =>
    t.database.db.update(authTokens).set({ createdAt: sql`now() - interval '1 hour'` }).where(eq(authTokens.userId, user.userId));
  const tempKeyOf = async (user: TestUser) => (await api(t.app).postBody('/api/Account/Login', { email: user.email, password: user.password })).Data.tempKey as string;
  const exchange = (tempKey: string) => api(t.app).getBody(`/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(tempKey)}`);

  it('hands every concurrent request during renewal the same one successor', async () => {
    const user = await createUser(t.app);
    await age(user);
    const answers = await Promise.all(Array.from({ length: 12 }, () => whoAmI(user.token)));
    expect(answers.every((a) => a.code === 10000)).toBe(true);
    const successors = new Set(answers.map((a) => a.renewed));
    expect(successors.size).toBe(1);
    expect([...successors][0]).toMatch(/^[\w-]{20,}$/);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(authTokens).where(eq(authTokens.userId, user.userId));
    expect(n).toBe(2);
  });

  it('Logout ends the whole login: the token it was renewed from and every renewal', async () => {
    const user = await createUser(t.app);
    await age(user);
    const answers = await Promise.all(Array.from({ length: 6 }, () => whoAmI(user.token)));
    const renewed = [...new Set(answers.map((a) => a.renewed!.replace(/^Bearer /, '')))];
    // The web app keeps one of what it was handed and logs out with it.
    expect((await api(t.app, renewed[0]!).postBody('/api/User/Logout', {})).Code).toBe(10000);
    for (const token of [user.token, ...renewed]) expect((await whoAmI(token)).code).toBe(10402);
  });

  it('Logout of one login leaves the user’s other logins alone; LogoutAll ends them all', async () => {
    const user = await createUser(t.app);
    const second = await loginUser(t.app, user.email, user.password);
    const third = await loginUser(t.app, user.email, user.password);
    expect((await api(t.app, second).postBody('/api/User/Logout', {})).Code).toBe(10000);
    expect((await whoAmI(second)).code).toBe(10402);
    expect((await whoAmI(user.token)).code).toBe(10000);
    const pending = await tempKeyOf(user);
    expect((await api(t.app, third).postBody('/api/User/LogoutAll', {})).Code).toBe(10000);
    for (const token of [user.token, third]) expect((await whoAmI(token)).code).toBe(10402);
    expect((await exchange(pending)).Code).toBe(10401);
  });

  it('a password reset ends the temp keys handed out before it', async () => {
    const user = await createUser(t.app);
    const pending = await tempKeyOf(user);
    const link = (await api(t.app, admin).postBody('/api/admin/User/SendPasswordReset', { userId: user.userId })).Data.link as string;
    const reset = await api(t.app).postBody('/api/Account/ResetPassword', { token: new URL(link).searchParams.get('reset'), password: 'a brand new password' });
    expect(reset.Code).toBe(10000);
    expect((await exchange(pending)).Code).toBe(10401);
    expect((await whoAmI(user.token)).code).toBe(10402);
  });

  it('Close ends the temp keys handed out before it, and Reopen does not bring them back', async () => {
    const user = await createUser(t.app);
    const pending = await tempKeyOf(user);
    expect((await api(t.app, admin).postBody('/api/admin/User/Close', { userId: user.userId })).Code).toBe(10000);
    expect((await exchange(pending)).Code).toBe(10401);
    expect((await api(t.app, admin).postBody('/api/admin/User/Reopen', { userId: user.userId })).Code).toBe(10000);
    expect((await exchange(pending)).Code).toBe(10401);
    expect((await whoAmI(user.token)).code).toBe(10402);
  });
});
