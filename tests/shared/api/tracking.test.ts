import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestTimeEntry } from '../../../shared/contracts/tracking.ts';
import { apiGet, type RequestRecord } from '../../../shared/api/request.ts';
import { getSettingListAll, SETTINGS_CACHE_MS } from '../../../shared/api/system.ts';
import { createRequestTracker, recordPageView, startRequestTracking } from '../../../shared/api/tracking.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { createGate, sendEnvelope } from '../../helpers/http-server.ts';

const record = (i: number, durationMs: number, error?: string): RequestRecord => ({
  requestId: `r${i}`,
  path: '/api/x',
  startedAt: 1_000_000 + i,
  endedAt: 1_000_000 + i + durationMs,
  ...(error ? { error } : {}),
});

describe('createRequestTracker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps requests of 100 ms or more, sends them in batches of 10, and beacons the rest', () => {
    const sent: RequestTimeEntry[][] = [];
    const beaconed: RequestTimeEntry[][] = [];
    const tracker = createRequestTracker({
      send: async (entries) => void sent.push(entries),
      beacon: (entries) => (beaconed.push(entries), true),
    });
    for (let i = 0; i < 30; i++) tracker.record(record(i, i % 3 === 0 ? 99 : 100 + i, i === 4 ? 'network error' : undefined));
    // 30 calls, 10 of them under 100 ms: 20 kept, two full batches.
    expect(sent.map((b) => b.length)).toEqual([10, 10]);
    expect(sent[0][0]).toEqual({ RequestId: 'r1', ClientRequestTime: 1_000_001, ClientResponseTime: 1_000_102, ClientResponseErrMsg: null });
    expect(sent[0].find((e) => e.RequestId === 'r4')?.ClientResponseErrMsg).toBe('network error');
    expect(sent.flat().some((e) => e.RequestId === 'r3')).toBe(false);
    expect(beaconed).toEqual([]);

    for (let i = 30; i < 34; i++) tracker.record(record(i, 150));
    tracker.flushByBeacon();
    expect(beaconed.map((b) => b.map((e) => e.RequestId))).toEqual([['r30', 'r31', 'r32', 'r33']]);
    tracker.flushByBeacon();
    expect(beaconed).toHaveLength(1);
  });

  it('retries a failed batch 3 times, after 500, 1000 and 2000 ms, then drops it', async () => {
    const attempts: number[] = [];
    const tracker = createRequestTracker({
      send: async () => {
        attempts.push(Date.now());
        throw new Error('offline');
      },
      beacon: () => true,
    });
    const start = Date.now();
    for (let i = 0; i < 10; i++) tracker.record(record(i, 200));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts.map((t) => t - start)).toEqual([0, 500, 1500, 3500]);
  });

  it('stops retrying once a retry succeeds', async () => {
    let calls = 0;
    const tracker = createRequestTracker({
      send: async () => {
        calls++;
        if (calls < 3) throw new Error('offline');
      },
      beacon: () => true,
    });
    for (let i = 0; i < 10; i++) tracker.record(record(i, 200));
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(3);
  });

  it('hands a batch waiting for its retry to the beacon on page hide', async () => {
    const beaconed: RequestTimeEntry[][] = [];
    let calls = 0;
    const tracker = createRequestTracker({
      send: async () => {
        calls++;
        throw new Error('offline');
      },
      beacon: (entries) => (beaconed.push(entries), true),
    });
    for (let i = 0; i < 12; i++) tracker.record(record(i, 200));
    await vi.advanceTimersByTimeAsync(0);
    tracker.flushByBeacon();
    expect(beaconed.map((b) => b.length)).toEqual([10, 2]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
  });
});

describe('wired to the request helper', () => {
  const server = serveTheseTests();
  const beacons: { url: string; type: string; body: string }[] = [];

  beforeAll(() => {
    // jsdom has no sendBeacon; this one records what the browser would have been handed.
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (url: string, body: Blob) => {
        void body.text().then((text) => beacons.push({ url, type: body.type, body: text }));
        return true;
      },
    });
  });
  afterAll(() => {
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });
  beforeEach(() => {
    beacons.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('posts slow calls to AddRequestTime in tens and beacons the rest on pagehide', async () => {
    // The clock the request helper reads moves only when the test moves it: the slow calls take
    // 120 ms of it (answered once it has moved), the fast ones none.
    // (Not vi.waitUntil meanwhile: it moves fake clocks as it polls.)
    vi.useFakeTimers({ toFake: ['Date'] });
    const slowAnswers = createGate();
    const release = slowAnswers.hold();
    let slowArrived = 0;
    let allSlowArrived!: () => void;
    const allSlowHeld = new Promise<void>((resolve) => (allSlowArrived = resolve));
    server.handle(async (req, res) => {
      if (req.url.startsWith('/api/slow')) {
        if (++slowArrived === 12) allSlowArrived();
        await slowAnswers.wait();
      }
      sendEnvelope(res, { Code: 10000, Data: null });
    });
    const stop = startRequestTracking();
    const slowCalls = Promise.all(Array.from({ length: 12 }, (_, i) => apiGet(`/api/slow/${i}`)));
    await allSlowHeld;
    vi.advanceTimersByTime(120);
    release();
    await slowCalls;
    await Promise.all(Array.from({ length: 5 }, () => apiGet('/api/fast')));
    await expect.poll(() => server.requests.filter((r) => r.url === '/api/System/AddRequestTime').length).toBe(1);

    const batch = server.requests.find((r) => r.url === '/api/System/AddRequestTime')!;
    expect(batch.headers['content-type']).toBe('application/json-patch+json');
    const entries = JSON.parse(batch.body) as RequestTimeEntry[];
    expect(entries).toHaveLength(10);
    const slowIds = server.requests.filter((r) => r.url.startsWith('/api/slow')).map((r) => r.headers['x-request-id']);
    for (const e of entries) {
      expect(slowIds).toContain(e.RequestId);
      expect(Number(e.ClientResponseTime) - Number(e.ClientRequestTime)).toBeGreaterThanOrEqual(100);
    }

    window.dispatchEvent(new Event('pagehide'));
    await expect.poll(() => beacons.length).toBe(1);
    expect(beacons[0].url).toBe(`${server.url}/api/System/AddRequestTime`);
    expect(beacons[0].type).toBe('text/plain');
    expect((JSON.parse(beacons[0].body) as RequestTimeEntry[]).map((e) => e.RequestId).sort()).toEqual(
      slowIds.filter((id) => !entries.some((e) => e.RequestId === id)).sort(),
    );
    stop();
  });

  it('records page views except /user-vip', async () => {
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: { saved: 1 } }));
    await recordPageView('/user-vip');
    expect(server.requests).toHaveLength(0);
    await recordPageView('/pricing', { clientFrom: 'web' });
    expect(server.requests).toHaveLength(1);
    const [view] = server.requests;
    expect(view.url).toBe('/api/Browser/AddBrowser');
    const [item] = JSON.parse(view.body);
    expect(item.event).toEqual({ eventType: 'pageView' });
    expect(item.payload).toMatchObject({
      currentUrl: window.location.href,
      clientFrom: 'web',
      platformDeviceId: view.headers.driverid,
      platformUserAgent: navigator.userAgent,
    });
  });

  it('does not let a failed page view reach the caller', async () => {
    server.handle((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(recordPageView('/')).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('caches GetSettingListAll for 5 minutes, not its failures', async () => {
    const settings = [{ settingKey: 'login_page_url', settingValue: 'http://x/login' }];
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: settings }));
    const t0 = 5_000_000_000_000;
    expect(await getSettingListAll(t0)).toEqual(settings);
    await getSettingListAll(t0 + SETTINGS_CACHE_MS - 1);
    expect(server.requests).toHaveLength(1);
    server.handle((_req, res) => sendEnvelope(res, { Code: 10503, Msg: 'down' }));
    await expect(getSettingListAll(t0 + SETTINGS_CACHE_MS)).rejects.toThrow('down');
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: [] }));
    expect(await getSettingListAll(t0 + SETTINGS_CACHE_MS + 1)).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });
});

describe('the image fallback on unload', () => {
  const server = serveTheseTests();
  /** The browser's image loads: each src set is fetched as an image GET would be (jsdom loads no images). */
  class LoadingImage {
    set src(url: string) {
      void fetch(url, { credentials: 'omit' });
    }
  }
  const realImage = globalThis.Image;
  beforeAll(() => {
    globalThis.Image = LoadingImage as unknown as typeof Image;
  });
  afterAll(() => {
    globalThis.Image = realImage;
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });
  afterEach(() => vi.useRealTimers());

  /** One slow call (120 ms on the clock the helper reads) waiting to be sent when the page goes. */
  async function oneSlowCall(): Promise<string> {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answer = createGate();
    const release = answer.hold();
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    server.handle(async (req, res) => {
      if (req.url.startsWith('/api/slow')) {
        arrived();
        await answer.wait();
      }
      sendEnvelope(res, { Code: 10000, Data: null });
    });
    const call = apiGet('/api/slow');
    await held;
    vi.advanceTimersByTime(120);
    release();
    await call;
    vi.useRealTimers();
    return server.requests.find((r) => r.url.startsWith('/api/slow'))!.headers['x-request-id'] as string;
  }

  const imageGets = () => server.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/Browser/AddBrowser?'));

  it('sends what is left by an image GET to AddBrowser when the browser has no beacon', async () => {
    Reflect.deleteProperty(navigator, 'sendBeacon');
    const stop = startRequestTracking();
    const requestId = await oneSlowCall();
    window.dispatchEvent(new Event('pagehide'));
    await expect.poll(() => imageGets().length).toBe(1);
    const query = new URL(imageGets()[0]!.url, 'http://x').searchParams;
    expect(query.get('eventType')).toBe('requestTime');
    expect(query.get('RequestId')).toBe(requestId);
    expect(Number(query.get('ClientResponseTime')) - Number(query.get('ClientRequestTime'))).toBeGreaterThanOrEqual(100);
    stop();
  });

  it('falls back to the image when the browser refuses the beacon, and not when it takes it', async () => {
    let accept = false;
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: () => accept });
    const stop = startRequestTracking();
    const refused = await oneSlowCall();
    window.dispatchEvent(new Event('pagehide'));
    await expect.poll(() => imageGets().length).toBe(1);
    expect(new URL(imageGets()[0]!.url, 'http://x').searchParams.get('RequestId')).toBe(refused);

    accept = true;
    server.requests.length = 0;
    await oneSlowCall();
    window.dispatchEvent(new Event('pagehide'));
    // An image GET would be fetched at once; a call made after it shows none went.
    await apiGet('/api/after');
    expect(imageGets()).toHaveLength(0);
    stop();
  });
});
