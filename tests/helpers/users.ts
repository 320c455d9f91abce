import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users, vipOrders } from '../../server/db/schema/users.ts';
import { api } from './api.ts';

/**
 * Users for tests, made through the real sign-up and login calls. AddUser and Login are rate
 * limited per IP (AUTH_RATE_LIMIT, default 10 a minute): tests that create many users pass
 * `{ AUTH_RATE_LIMIT: '1000' }` to createTestApp.
 */
export type TestUser = { userId: string; email: string; password: string; token: string };

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const body = method === 'GET' ? await api(app).getBody(url) : await api(app).postBody(url, payload);
  if (body.Code !== 10000) throw new Error(`${url} answered ${body.Code}: ${body.Msg}`);
  return body.Data as any;
}

/**
 * Client addresses for `inject`'s remoteAddress, a new one each call (`prefix` is the first two
 * octets), so that routes rate limited per address (UserSignin, RedeemCode, CheckPromoCode) never
 * refuse a test for calling them often.
 */
export function addressesUnder(prefix: string): () => string {
  let calls = 0;
  return () => `${prefix}.${(++calls >> 8) & 255}.${calls & 255}`;
}

export async function loginUser(app: FastifyInstance, email: string, password: string): Promise<string> {
  const { tempKey } = await call(app, 'POST', '/api/Account/Login', { email, password });
  return call(app, 'GET', `/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(tempKey)}`);
}

export async function createUser(
  app: FastifyInstance,
  opts: { email?: string; password?: string; userName?: string } = {},
): Promise<TestUser> {
  // Digits only after "user-": a random hex id can spell a name a test searches for ("ada", "bee", ...).
  const email = opts.email ?? `user-${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString(10)}@example.test`;
  const password = opts.password ?? 'correct horse battery';
  const { userId } = await call(app, 'POST', '/api/Account/AddUser', { email, password, userName: opts.userName });
  // The first account of a database becomes admin; tests that want a plain user get one.
  await app.ctx.db.update(users).set({ role: 'user' }).where(eq(users.id, userId));
  // The end-to-end stack runs with TEST_TOKEN_ROUTE: its users sign in through GetTokenForTest.
  const token = app.ctx.config.TEST_TOKEN_ROUTE
    ? await call(app, 'GET', `/api/User/GetTokenForTest?email=${encodeURIComponent(email)}`)
    : await loginUser(app, email, password);
  return { userId, email, password, token };
}

export async function createAdmin(app: FastifyInstance): Promise<TestUser> {
  const user = await createUser(app);
  await app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.userId));
  return user;
}

const PLAN_NAMES = { 1: 'Standard', 2: 'Advanced', 3: 'Super' } as const;

export async function grantVip(app: FastifyInstance, userId: string, level: 1 | 2 | 3, days = 30): Promise<string> {
  const id = randomUUID();
  await app.ctx.db
    .insert(vipOrders)
    .values({ id, userId, packageLevel: level, packageName: PLAN_NAMES[level], endTime: new Date(Date.now() + days * 86_400_000) });
  return id;
}
