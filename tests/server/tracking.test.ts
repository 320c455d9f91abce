import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserRecords, requestTimes } from '../../server/db/schema/system.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { auth, createAdmin, createUser } from '../helpers/users.ts';

describe('request-time tracking and browser records', () => {
  let t: TestApp;
  let userId: string;
  let userToken: string;
  let adminToken: string;

  const post = async (url: string, payload: string, contentType: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, ...headers } });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const storedTimes = () => t.app.ctx.db.select().from(requestTimes).orderBy(desc(requestTimes.createdAt));

  beforeAll(async () => {
    // Records keep the forwarded client address: the test speaks as a trusted proxy.
    t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    ({ userId, token: userToken } = await createUser(t.app));
    adminToken = (await createAdmin(t.app)).token;
  });
  afterAll(() => t.close());

  describe('AddRequestTime', () => {
    it('stores entries sent as json-patch+json, json and text/plain (sendBeacon), with computed durations', async () => {
      const entries = [
        { RequestId: 'r-num', ClientRequestTime: 1_700_000_000_000, ClientResponseTime: 1_700_000_000_250 },
        { RequestId: 'r-iso', ClientRequestTime: '2024-05-01T10:00:00.000Z', ClientResponseTime: '2024-05-01T10:00:01.500Z', ClientResponseErrMsg: 'timeout' },
        { RequestId: 'r-text', ClientRequestTime: '1700000000000', ClientResponseTime: '1700000000040', ClientResponseErrMsg: null },
        { RequestId: 'r-odd', ClientRequestTime: 'yesterday', ClientResponseTime: 5 },
      ];
      for (const type of ['application/json-patch+json', 'application/json', 'text/plain;charset=UTF-8']) {
        const body = await post('/api/System/AddRequestTime', JSON.stringify(entries), type, { DriverId: 'device-1' });
        expect(body).toEqual({ Code: 10000, Msg: '', Data: { saved: 4 } });
      }
      const rows = await storedTimes();
      expect(rows).toHaveLength(12);
      const byId = Object.fromEntries(rows.map((r) => [r.requestId, r]));
      expect(byId['r-num']).toMatchObject({ durationMs: 250, clientRequestTime: '1700000000000', driverId: 'device-1', userId: null });
      expect(byId['r-iso']).toMatchObject({ durationMs: 1500, errMsg: 'timeout', clientResponseTime: '2024-05-01T10:00:01.500Z' });
      expect(byId['r-text']).toMatchObject({ durationMs: 40, errMsg: null });
      expect(byId['r-odd']).toMatchObject({ durationMs: null, clientRequestTime: 'yesterday' });
    });

    it('records the user when a valid token is sent, and still accepts a bad token as anonymous', async () => {
      const entry = [{ RequestId: 'who', ClientRequestTime: 1, ClientResponseTime: 2 }];
      expect((await post('/api/System/AddRequestTime', JSON.stringify(entry), 'text/plain', auth(userToken))).Code).toBe(10000);
      expect((await post('/api/System/AddRequestTime', JSON.stringify(entry), 'text/plain', auth('garbage'))).Code).toBe(10000);
      const rows = (await storedTimes()).filter((r) => r.requestId === 'who');
      expect(rows.map((r) => r.userId).sort()).toEqual([userId, null].sort());
    });

    it('rejects bad batches without storing any of them', async () => {
      const before = (await storedTimes()).length;
      const ok = { RequestId: 'x', ClientRequestTime: 1, ClientResponseTime: 2 };
      const bad: unknown[] = [
        [],
        Array.from({ length: 51 }, () => ok),
        ok,
        [{ ...ok, RequestId: 'x'.repeat(101) }],
        [{ ...ok, ClientResponseErrMsg: 'e'.repeat(1001) }],
        [{ ...ok, ClientRequestTime: true }],
        [ok, { RequestId: 'no times' }],
      ];
      for (const payload of bad) {
        const body = await post('/api/System/AddRequestTime', JSON.stringify(payload), 'application/json-patch+json');
        expect(body.Code, JSON.stringify(payload).slice(0, 80)).toBe(10400);
        expect(body.Msg).not.toBe('');
      }
      expect((await post('/api/System/AddRequestTime', '[{"RequestId":', 'text/plain')).Code).toBe(10400);
      expect((await storedTimes()).length).toBe(before);
    });

    it('bounds the body at 64 KB', async () => {
      const big = [{ RequestId: 'big', ClientRequestTime: 1, ClientResponseTime: 2, ClientResponseErrMsg: 'x'.repeat(70_000) }];
      const body = await post('/api/System/AddRequestTime', JSON.stringify(big), 'application/json');
      expect(body.Code).toBe(10413);
    });
  });

  describe('AddBrowser', () => {
    const pageView = {
      platformUserAgent: 'Mozilla/5.0',
      platformDeviceId: 'dev-9',
      clientFrom: 'chrome-extension',
      inviteCode: 'ABC123',
      currentUrl: 'https://chat.example.com/',
      platformBrowserLanguage: 'zh-CN',
      referer: 'https://search.example.com/',
      screenWidth: 1280,
    };

    it('stores page-view records with the address, DriverId and user, and lists them to admins', async () => {
      const body = await post(
        '/api/Browser/AddBrowser',
        JSON.stringify([{ event: { eventType: 'page_view' }, payload: pageView }, { event: { eventType: 'install' }, payload: {} }]),
        'application/json-patch+json',
        { ...auth(userToken), DriverId: 'device-2', 'x-forwarded-for': '203.0.113.7' },
      );
      expect(body).toEqual({ Code: 10000, Msg: '', Data: { saved: 2 } });

      const list = await api(t.app, adminToken).getBody('/api/admin/Browser/GetBrowserList?page=1&count=10&eventType=page_view');
      expect(list.Code).toBe(10000);
      expect(list.Data.total).toBe(1);
      expect(list.Data.list[0]).toMatchObject({ eventType: 'page_view', payload: pageView, userId, driverId: 'device-2', ip: '203.0.113.7' });
      expect(typeof list.Data.list[0].createTime).toBe('string');
    });

    it('accepts the GET form: one record from the query', async () => {
      const res = await api(t.app).get('/api/Browser/AddBrowser?eventType=page_view&currentUrl=https%3A%2F%2Fa.example%2Fx&clientFrom=web');
      expect(res.json()).toEqual({ Code: 10000, Msg: '', Data: { saved: 1 } });
      const [row] = await t.app.ctx.db.select().from(browserRecords).orderBy(desc(browserRecords.createdAt)).limit(1);
      expect(row).toMatchObject({ eventType: 'page_view', payload: { currentUrl: 'https://a.example/x', clientFrom: 'web' }, userId: null });
      const missing = await api(t.app).getBody('/api/Browser/AddBrowser?currentUrl=x');
      expect(missing.Code).toBe(10400);
    });

    it('pages the admin list newest first', async () => {
      const events = Array.from({ length: 5 }, (_, i) => ({ event: { eventType: 'paged' }, payload: { n: String(i) } }));
      // One batch: the records share created_at, and their ids keep the order they came in.
      await post('/api/Browser/AddBrowser', JSON.stringify(events), 'text/plain');
      const page = async (p: number) =>
        (await api(t.app, adminToken).getBody(`/api/admin/Browser/GetBrowserList?page=${p}&count=2&eventType=paged`)).Data;
      const [p1, p2, p3] = [await page(1), await page(2), await page(3)];
      expect(p1.total).toBe(5);
      expect([...p1.list, ...p2.list, ...p3.list].map((r: { payload: { n: string } }) => r.payload.n)).toEqual(['4', '3', '2', '1', '0']);
    });

    it('rejects bad records, oversized payloads and too many events, storing nothing', async () => {
      const countRows = async () => (await t.app.ctx.db.select().from(browserRecords)).length;
      const before = await countRows();
      const ok = { event: { eventType: 'page_view' }, payload: {} };
      const bad: unknown[] = [
        [],
        { event: { eventType: 'page_view' } },
        Array.from({ length: 21 }, () => ok),
        [{ event: { eventType: '' }, payload: {} }],
        [{ event: { eventType: 'e'.repeat(65) }, payload: {} }],
        [{ event: {}, payload: {} }],
        [{ event: { eventType: 'page_view' }, payload: { currentUrl: 'u'.repeat(2001) } }],
        [{ event: { eventType: 'page_view' }, payload: { referer: 42 } }],
        [{ event: { eventType: 'page_view' }, payload: { extra: 'x'.repeat(9000) } }],
        [{ event: { eventType: 'page_view' }, payload: [] }],
        [ok, { event: { eventType: 'page_view' }, payload: 'text' }],
      ];
      for (const payload of bad) {
        const body = await post('/api/Browser/AddBrowser', JSON.stringify(payload), 'application/json-patch+json', { 'accept-language': 'zh' });
        expect(body.Code, JSON.stringify(payload).slice(0, 80)).toBe(10400);
        expect(body.Msg).toMatch(/^请求无效/);
      }
      expect(await countRows()).toBe(before);
    });

    it('keeps the admin list to admins', async () => {
      const res = await api(t.app, userToken).getBody('/api/admin/Browser/GetBrowserList');
      expect(res).toMatchObject({ Code: 10403, Data: null });
    });
  });
});
