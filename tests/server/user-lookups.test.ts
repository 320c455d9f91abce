import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserRecords, requestTimes } from '../../server/db/schema/system.ts';
import { users } from '../../server/db/schema/users.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * A user's own phone number (POST /api/Account/UpdateUserPhone), and the administrators' look-ups of
 * accounts by the field each names (/api/Account/GetUserBy…, GetUserNickNameForSystem,
 * /api/User/GetUserList): answered to administrators only. docs/api.md#looking-accounts-up.
 */

let t: TestApp;
let admin: TestUser;
let ada: TestUser;
let ada2: TestUser;
let bob: TestUser;
const get = (who: TestUser | undefined, url: string, lang = 'en') => api(t.app, who).getBody(url, { lang });
const setPhone = (who: TestUser, phone: unknown, lang = 'en') => api(t.app, who).postBody('/api/Account/UpdateUserPhone', { phone }, { lang });

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  admin = await createAdmin(t.app);
  ada = await createUser(t.app, { userName: 'Ada' });
  ada2 = await createUser(t.app, { userName: 'ada' });
  bob = await createUser(t.app, { userName: 'Bob' });
});
afterAll(() => t?.close());

describe('the phone number on one’s account', () => {
  it('is stored normalised, shown in the user info, and removed with an empty value', async () => {
    const res = await setPhone(bob, ' +44 (20) 7946-0958 ');
    expect(res, res.Msg).toMatchObject({ Code: Codes.Success, Data: { userId: bob.userId, phone: '+442079460958' } });
    expect((await get(bob, '/api/User/GetUserByLogin')).Data.phone).toBe('+442079460958');
    expect((await setPhone(bob, '')).Data.phone).toBeNull();
    expect((await get(bob, '/api/User/GetUserByLogin')).Data.phone).toBeNull();
    await setPhone(bob, '+442079460958');
  });

  it('refuses what is not a phone number, in the caller’s language, and changes nothing', async () => {
    for (const bad of ['12345', '+0123456789', 'call me', '1'.repeat(16), 42]) {
      const res = await setPhone(ada, bad);
      expect(res.Code, String(bad)).toBe(Codes.BadRequest);
    }
    expect((await setPhone(ada, 'abc', 'zh')).Msg).toMatch(/电话号码/);
    expect((await setPhone(ada, 'abc')).Msg).toMatch(/phone number/);
    expect((await get(ada, '/api/User/GetUserByLogin')).Data.phone).toBeNull();
  });

  it('belongs to one account only', async () => {
    const res = await setPhone(ada, '+44 20 7946 0958');
    expect(res.Code).toBe(Codes.Conflict);
    expect(res.Msg).toMatch(/another account/);
    expect((await get(ada, '/api/User/GetUserByLogin')).Data.phone).toBeNull();
  });
});

describe('the administrators’ look-ups', () => {
  it('find one account by id, e-mail (any case) or phone (written any way), as a row of the Users list', async () => {
    const byId = await get(admin, `/api/Account/GetUserById?userId=${bob.userId}`);
    expect(byId, byId.Msg).toMatchObject({ Code: Codes.Success, Data: { userId: bob.userId, email: bob.email, userName: 'Bob', phone: '+442079460958', planLevel: 0 } });
    expect((await get(admin, `/api/Account/GetUserByEmail?email=${encodeURIComponent(bob.email.toUpperCase())}`)).Data.userId).toBe(bob.userId);
    expect((await get(admin, `/api/Account/GetUserByPhone?phone=${encodeURIComponent('+44 20 7946 0958')}`)).Data.userId).toBe(bob.userId);

    expect((await get(admin, '/api/Account/GetUserById?userId=nobody')).Code).toBe(Codes.NotFound);
    expect((await get(admin, '/api/Account/GetUserByEmail?email=nobody%40example.test')).Code).toBe(Codes.NotFound);
    expect((await get(admin, '/api/Account/GetUserByPhone?phone=%2B15550000000')).Code).toBe(Codes.NotFound);
    expect((await get(admin, '/api/Account/GetUserByPhone?phone=abc')).Code).toBe(Codes.BadRequest);
    expect((await get(admin, '/api/Account/GetUserByEmail')).Code).toBe(Codes.BadRequest);
  });

  it('find every account known by a name, an e-mail, an id or a phone number, exactly', async () => {
    const byName = await get(admin, '/api/Account/GetUserByAccount?account=ADA');
    expect(byName.Data.list.map((u: { userId: string }) => u.userId).sort()).toEqual([ada.userId, ada2.userId].sort());
    // Exactly: a part of a name finds nothing.
    expect((await get(admin, '/api/Account/GetUserByAccount?account=Ad')).Data.list).toEqual([]);
    for (const account of [bob.email, bob.userId, '0044 not a phone', '+44-20-7946-0958']) {
      const ids = (await get(admin, `/api/Account/GetUserByAccount?account=${encodeURIComponent(account)}`)).Data.list.map((u: { userId: string }) => u.userId);
      expect(ids, account).toEqual(account.startsWith('0044') ? [] : [bob.userId]);
    }
  });

  it('find the accounts a visitor id was signed in as, most recently seen first', async () => {
    const post = (who: TestUser | undefined, url: string, body: unknown, driverId: string) =>
      api(t.app, who).postBody(url, body, { headers: { DriverId: driverId } });
    const entry = [{ RequestId: 'lookup', ClientRequestTime: 1_700_000_000_000, ClientResponseTime: 1_700_000_000_300 }];
    expect((await post(ada, '/api/System/AddRequestTime', entry, 'browser-7')).Code).toBe(Codes.Success);
    expect((await post(bob, '/api/Browser/AddBrowser', [{ event: { eventType: 'page_view' }, payload: {} }], 'browser-7')).Code).toBe(Codes.Success);
    // Signed out and another browser: neither names an account here.
    expect((await post(undefined, '/api/System/AddRequestTime', entry, 'browser-7')).Code).toBe(Codes.Success);
    expect((await post(ada2, '/api/System/AddRequestTime', entry, 'browser-8')).Code).toBe(Codes.Success);
    // Ada was seen last (an hour after Bob).
    await t.database.db.update(browserRecords).set({ createdAt: sql`now() - interval '2 hours'` }).where(eq(browserRecords.driverId, 'browser-7'));
    await t.database.db.update(requestTimes).set({ createdAt: sql`now() - interval '1 hour'` }).where(eq(requestTimes.driverId, 'browser-7'));

    const res = await get(admin, '/api/Account/GetUserByVisotorId?visitorId=browser-7');
    expect(res, res.Msg).toMatchObject({ Code: Codes.Success });
    expect(res.Data.list.map((u: { userId: string }) => u.userId)).toEqual([ada.userId, bob.userId]);
    expect(Date.parse(res.Data.list[0].lastSeenTime)).toBeGreaterThan(Date.parse(res.Data.list[1].lastSeenTime));
    expect((await get(admin, '/api/Account/GetUserByVisotorId?visitorId=browser-unknown')).Data.list).toEqual([]);
  });

  it('name accounts by id, in the order asked, leaving out ids of no account', async () => {
    const res = await get(admin, `/api/Account/GetUserNickNameForSystem?userIds=${bob.userId},nobody,${ada.userId},${bob.userId}`);
    expect(res.Data).toEqual([
      { userId: bob.userId, userName: 'Bob', email: bob.email },
      { userId: ada.userId, userName: 'Ada', email: ada.email },
    ]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `id-${i}`).join(',');
    expect((await get(admin, `/api/Account/GetUserNickNameForSystem?userIds=${tooMany}`)).Code).toBe(Codes.BadRequest);
  });

  it('list users at /api/User/GetUserList as the console’s list does', async () => {
    const url = '?keyword=ada&sort=email&order=asc';
    const [spec, console_] = await Promise.all([get(admin, `/api/User/GetUserList${url}`), get(admin, `/api/admin/User/GetList${url}`)]);
    expect(spec.Code).toBe(Codes.Success);
    expect(spec.Data).toEqual(console_.Data);
    expect(spec.Data.total).toBe(2);
  });

  it('answer administrators only', async () => {
    const urls = [
      `/api/Account/GetUserById?userId=${bob.userId}`,
      `/api/Account/GetUserByEmail?email=${encodeURIComponent(bob.email)}`,
      '/api/Account/GetUserByPhone?phone=%2B442079460958',
      '/api/Account/GetUserByAccount?account=Bob',
      '/api/Account/GetUserByVisotorId?visitorId=browser-7',
      `/api/Account/GetUserNickNameForSystem?userIds=${bob.userId}`,
      '/api/User/GetUserList',
    ];
    for (const url of urls) {
      expect((await get(bob, url)).Code, url).toBe(Codes.Forbidden);
      expect((await get(undefined, url)).Code, url).toBe(Codes.NotLoggedIn);
      expect((await api(t.app).getBody(url, { headers: auth('not-a-token') })).Code, url).toBe(Codes.NotLoggedIn);
    }
    // The phone stays the user's: still theirs after all the looking.
    expect((await t.database.db.select({ phone: users.phone }).from(users).where(eq(users.id, bob.userId)))[0]!.phone).toBe('+442079460958');
  });
});
