import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { createAdmin, type TestUser } from '../helpers/users.ts';
import { loadConfig } from '../../server/config.ts';

const payload = {
  page_referer: 'https://example.com/from',
  current_url: 'https://app.example.com/pricing',
  screen_width: 1280,
  screen_height: 800,
  platform_user_agent: 'Mozilla/5.0 Test',
  platform_language: 'en-US',
  browser_id: 'browser-123',
  clientFrom: 'web',
};

describe('analytics through the server', () => {
  let ga: TestServer;
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    ga = await startTestServer((_req, res) => void res.writeHead(204).end());
    [on, off] = await Promise.all([
      createTestApp({ GA_MEASUREMENT_ID: 'G-TEST1234', GA_API_SECRET: 'shh-secret', GA_ENDPOINT: `${ga.url}/mp/collect` }),
      createTestApp({ GA_ENDPOINT: `${ga.url}/mp/collect` }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
    await ga?.close();
  });

  it('tells the client whether it is on and the measurement id, never the secret', async () => {
    const res = await api(on.app).get('/api/Browser/GetGoogleAnalytics');
    expect(res.json().Data).toEqual({ enabled: true, measurementId: 'G-TEST1234' });
    expect(res.body).not.toContain('shh-secret');
    expect((await api(off.app).getBody('/api/Browser/GetGoogleAnalytics')).Data).toEqual({ enabled: false, measurementId: null });
  });

  it('forwards a consenting user’s event with the spec’s payload to the provider, with the secret only there', async () => {
    ga.requests.length = 0;
    const res = await api(on.app).postBody('/api/Browser/AddGoogleAnalytics', { event: 'page_view', consent: true, payload });
    expect(res).toMatchObject({ Code: 10000, Data: { forwarded: true } });
    expect(ga.requests).toHaveLength(1);
    const [sent] = ga.requests;
    const url = new URL(sent!.url, ga.url);
    expect(url.pathname).toBe('/mp/collect');
    expect(Object.fromEntries(url.searchParams)).toEqual({ measurement_id: 'G-TEST1234', api_secret: 'shh-secret' });
    const body = JSON.parse(sent!.body);
    expect(body).toMatchObject({
      client_id: 'browser-123',
      device: { language: 'en-US', screen_resolution: '1280x800' },
      events: [
        {
          name: 'page_view',
          params: {
            page_location: 'https://app.example.com/pricing',
            page_referrer: 'https://example.com/from',
            language: 'en-US',
            screen_resolution: '1280x800',
            platform_user_agent: 'Mozilla/5.0 Test',
            clientFrom: 'web',
          },
        },
      ],
    });
  });

  it('sends nothing without consent, or when not configured; refuses a payload without browser_id', async () => {
    ga.requests.length = 0;
    expect((await api(on.app).postBody('/api/Browser/AddGoogleAnalytics', { consent: false, payload })).Data).toEqual({ forwarded: false });
    expect((await api(off.app).postBody('/api/Browser/AddGoogleAnalytics', { consent: true, payload })).Data).toEqual({ forwarded: false });
    const { browser_id: _omitted, ...noId } = payload;
    expect((await api(on.app).postBody('/api/Browser/AddGoogleAnalytics', { consent: true, payload: noId })).Code).toBe(10400);
    expect((await api(on.app).postBody('/api/Browser/AddGoogleAnalytics', { event: '9bad name', consent: true, payload })).Code).toBe(10400);
    expect(ga.requests).toHaveLength(0);
  });

  it('answers forwarded: false (not a failure) when the provider refuses', async () => {
    ga.handle((_req, res) => void res.writeHead(500).end());
    expect((await api(on.app).postBody('/api/Browser/AddGoogleAnalytics', { consent: true, payload })).Data).toEqual({ forwarded: false });
    ga.handle((_req, res) => void res.writeHead(204).end());
  });

  it('needs the measurement id and the secret together', () => {
    expect(() => loadConfig({ GA_MEASUREMENT_ID: 'G-TEST1234' })).toThrow(/GA_API_SECRET/);
    expect(() => loadConfig({ GA_MEASUREMENT_ID: 'UA-1', GA_API_SECRET: 'x' })).toThrow(/GA_MEASUREMENT_ID/);
  });
});

describe('GetBrowserByExcept: the odd browser records, for operators', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t.app);
  });
  afterAll(() => t?.close());

  it('lists records of other event types, with an error, or with no identity, each with its reasons', async () => {
    const add = (events: unknown[], headers: Record<string, string> = { driverid: 'device-1' }) => api(t.app).postBody('/api/Browser/AddBrowser', events, { headers });
    await add([{ event: { eventType: 'pageView' }, payload: { currentUrl: '/a' } }]);
    await add([{ event: { eventType: 'install' }, payload: {} }]);
    await add([{ event: { eventType: 'pageView' }, payload: { currentUrl: '/b', error: 'chunk failed' } }]);
    await add([{ event: { eventType: 'pageView' }, payload: { currentUrl: '/c' } }], {});
    const page = (await api(t.app, admin).getBody('/api/Browser/GetBrowserByExcept?count=50')).Data;
    const byUrlOrType = page.list.map((r: { eventType: string; payload: { currentUrl?: string }; reasons: string[] }) => [r.payload.currentUrl ?? r.eventType, r.reasons]);
    expect(byUrlOrType).toEqual(
      expect.arrayContaining([
        ['install', ['eventType']],
        ['/b', ['error']],
        ['/c', ['noIdentity']],
      ]),
    );
    expect(page.total).toBe(3);
    // except widens what counts as usual.
    expect((await api(t.app, admin).getBody('/api/Browser/GetBrowserByExcept?except=pageView,install')).Data.total).toBe(2);
    expect((await api(t.app).getBody('/api/Browser/GetBrowserByExcept')).Code).toBe(10402);
  });
});
