import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { users } from '../../server/db/schema/users.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * GET /api/User/GetTokenForTest: a token by e-mail for the end-to-end tests. It exists only with
 * TEST_TOKEN_ROUTE, never with NODE_ENV=production, and answers only callers on loopback.
 */

const URL_ = '/api/User/GetTokenForTest';
const ask = (t: TestApp, email: string, remoteAddress?: string) => api(t.app).getBody(`${URL_}?email=${encodeURIComponent(email)}`, { remoteAddress });

describe('GetTokenForTest', () => {
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [on, off] = await Promise.all([createTestApp({ TEST_TOKEN_ROUTE: 'true' }), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('gives a working token for an account, whatever the case of its e-mail', async () => {
    const user = await createUser(on.app);
    const res = await ask(on, user.email.toUpperCase());
    expect(res.Code, res.Msg).toBe(Codes.Success);
    const me = await api(on.app, res.Data as string).getBody('/api/User/GetUserByLogin');
    expect(me.Data.userId).toBe(user.userId);
  });

  it('refuses an unknown e-mail, a closed account and what is not an e-mail', async () => {
    expect((await ask(on, 'nobody@example.test')).Code).toBe(Codes.NotFound);
    const closed = await createUser(on.app);
    await on.database.db.update(users).set({ status: 'closed' }).where(eq(users.id, closed.userId));
    expect((await ask(on, closed.email)).Code).toBe(Codes.NotFound);
    expect((await ask(on, 'not an e-mail')).Code).toBe(Codes.BadRequest);
  });

  it('answers only callers on loopback', async () => {
    const user = await createUser(on.app);
    expect((await ask(on, user.email, '::1')).Code).toBe(Codes.Success);
    expect((await ask(on, user.email, '::ffff:127.0.0.1')).Code).toBe(Codes.Success);
    // inject() makes no connection: these addresses only label the request.
    expect((await ask(on, user.email, '192.0.2.10')).Code).toBe(Codes.Forbidden);
    expect((await ask(on, user.email, '::ffff:192.0.2.10')).Code).toBe(Codes.Forbidden);
  });

  it('does not exist without TEST_TOKEN_ROUTE', async () => {
    const user = await createUser(off.app);
    const res = await api(off.app).get(`${URL_}?email=${encodeURIComponent(user.email)}`);
    expect(res.statusCode).toBe(404);
    expect(off.app.routeTable.some((r) => r.url === URL_)).toBe(false);
    expect(on.app.routeTable.some((r) => r.url === URL_)).toBe(true);
  });

  it('cannot be turned on with NODE_ENV=production', () => {
    expect(() => loadConfig({ TEST_TOKEN_ROUTE: 'true', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ TEST_TOKEN_ROUTE: 'true', NODE_ENV: 'production' })).toThrow(/TEST_TOKEN_ROUTE/);
    expect(loadConfig({ TEST_TOKEN_ROUTE: 'true', NODE_ENV: 'test' }).TEST_TOKEN_ROUTE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).TEST_TOKEN_ROUTE).toBe(false);
  });
});
