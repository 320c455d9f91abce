import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../../server/core/failures.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { answersEndless, injectToFirstEvent, type MediaTypes } from '../helpers/openapi.ts';
import { auth, createAdmin } from '../helpers/users.ts';

/**
 * Whatever a client sends, to whichever route of the table: never a 5xx, always the envelope, a
 * message for every failure, and no internals in it. Routes registered later are covered without
 * edits. Requests are made as an admin, so guards let them through to validation and handlers.
 */

/**
 * Cases per route and kind of input. The same number in CI as on a desk: each run draws new ones, so
 * the routes see more cases over the runs than one CI run could afford (50 a run cost CI 35 s more).
 */
const RUNS = 25;
const CONTENT_TYPES = ['application/json-patch+json', 'application/json', 'text/plain;charset=UTF-8'];
const STACK_TRACE = [/\n\s*at /, /\bat .*[/\\].*:\d+/, /\.(ts|js|mjs):\d+/, /node_modules/, /Error:/];

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema };
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: MediaTypes }>;
};

type Sent = { status: number; contentType: string; body: string };

/**
 * Routes that serve bytes rather than envelopes (<img src>, downloads): their "not found" is a real
 * HTTP 404, still with the 10404 envelope as its body.
 */
const BYTES_ROUTES = new Set(['/api/Chat/GetChatMedia', '/api/Account/GetHeadImg']);

/**
 * Routes a browser lands on, answering a page: the sign-in provider's callback, whose failures are a
 * page sending the browser back to the login page with the error's name (or, for a query its contract
 * refuses, the envelope as anywhere).
 */
const PAGE_ROUTES = new Set(['/api/Provider/Callback']);

/**
 * Routes whose refusals are HTTP 400 with the failure envelope (refusedStatus in server/http/route.ts):
 * Stripe's webhook, whose sender reads the status. The envelope is checked as for any answer.
 */
const REFUSED_400_ROUTES = new Set(['/api/Vip/StripeWebhook']);

/**
 * Checks one answer; returns what is wrong with it, or null. An endless stream (the live unread
 * count) is read to its first event, which is data, not an envelope.
 */
function problemWith(res: Sent, bytesRoute = false, refused400 = false, endless = false, pageRoute = false): string | null {
  if (res.status >= 500) return `HTTP ${res.status}`;
  if (pageRoute && res.contentType.startsWith('text/html')) {
    return res.status === 200 && /url=\/login\?providerError=\w+/.test(res.body) ? null : `not a page back to the login: HTTP ${res.status} ${res.body.slice(0, 100)}`;
  }
  if (bytesRoute && res.status === 404) return res.body.startsWith('{"Code":10404,') ? null : 'HTTP 404 without the 10404 envelope';
  if (res.status !== 200 && !(refused400 && res.status === 400)) return `HTTP ${res.status} for a registered route`;
  const envelopes: unknown[] = [];
  if (endless && res.contentType.startsWith('text/event-stream')) {
    return /^data: \{.*\}\n\n$/.test(res.body) ? null : `not one data event: ${res.body.slice(0, 100)}`;
  } else if (res.contentType.startsWith('text/event-stream')) {
    const payloads = res.body.split('\n\n').filter((b) => b.trim()).map((b) => b.replace(/^data: /, ''));
    if (payloads.at(-1) !== 'DONE') return 'stream does not end with DONE';
    for (const p of payloads.slice(0, -1)) envelopes.push(JSON.parse(p));
  } else {
    try {
      envelopes.push(JSON.parse(res.body));
    } catch {
      return `not JSON: ${res.body.slice(0, 100)}`;
    }
  }
  for (const e of envelopes) {
    if (typeof e !== 'object' || e === null) return 'envelope is not an object';
    const { Code, Msg } = e as { Code: unknown; Msg: unknown };
    if (typeof Code !== 'number' || typeof Msg !== 'string' || !('Data' in e)) return `not an envelope: ${JSON.stringify(e).slice(0, 100)}`;
    if (Code !== 10000 && !Msg.trim()) return `Code ${Code} without a message`;
    if (STACK_TRACE.some((r) => r.test(Msg))) return `internals in Msg: ${Msg.slice(0, 200)}`;
  }
  return null;
}

/**
 * The classes of input the edge refuses for every route (server/http/input-guard.ts): NUL, lone
 * surrogate halves (alone, at either end, inside keys), numbers beyond 2^53 or not finite.
 */
const refusedText = fc.oneof(
  fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}\u0000${b}`),
  fc.tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 0xd800, max: 0xdfff })).map(([a, half]) => `${a}${String.fromCharCode(half)}`),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((half) => `${String.fromCharCode(half)}tail`),
);
const refusedNumber = fc.oneof(
  fc.constantFrom(2 ** 53 + 2, -(2 ** 53) - 2, 1e20, -1e300, 1e308),
  fc.double({ min: 2 ** 54, noNaN: true }),
);
const refusedKeyed = fc.tuple(refusedText, fc.jsonValue({ maxDepth: 1 })).map(([key, v]) => ({ [key]: v }));

/** Values that are wrong in many ways: any JSON, big text, deep nesting, nulls, arrays for objects. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.oneof(refusedText, refusedNumber, refusedKeyed) },
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, '', 0, -1, 1e308, true, [], {}, '💥'.repeat(3000), 'x'.repeat(70_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.anything().map((v) => JSON.parse(JSON.stringify(v) ?? 'null')) },
);

/** Objects with the contract's own field names, holding nasty values: they get past the first checks. */
function contractShaped(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'array') return fc.array(contractShaped(schema?.items), { maxLength: 60 });
  const keys = Object.keys(schema?.properties ?? {});
  if (type !== 'object' || !keys.length) return nasty;
  const fields = Object.fromEntries(keys.map((k) => [k, fc.oneof(contractShaped(schema?.properties?.[k]), nasty)]));
  return fc.record(fields, { requiredKeys: [] });
}

const queryOf = (names: string[]) =>
  fc
    .dictionary(fc.oneof(fc.constantFrom(...names, 'page', 'count'), fc.string({ maxLength: 20 })), fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('', '-1', '0', '1e999', 'NaN', 'null', '[]', 'x'.repeat(5000))), { maxKeys: 6 })
    .map((q) => new URLSearchParams(q).toString());

/** Bytes that are not UTF-8: a stray byte, an overlong encoding, a cut-off sequence, an encoded surrogate half. */
const INVALID_UTF8: [string, Buffer][] = [
  ['stray 0xFF', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ['overlong slash', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])],
  ['cut-off euro sign', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')])],
  ['encoded surrogate half', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])],
];

/** A multipart form whose one text field holds `bytes`. */
const formWithField = (bytes: Buffer) =>
  Buffer.concat([Buffer.from('--x\r\nContent-Disposition: form-data; name="mediaType"\r\n\r\n'), bytes, Buffer.from('\r\n--x--\r\n')]);

/** Query strings as sent on the wire: percent-encodings of NUL, a surrogate half, bytes that are not UTF-8. */
const RAW_QUERIES = ['page=%00', 'chatSessionId=%00', 'x=%ED%A0%80', 'x=%FF', 'x=%E0%A4%A', 'x%FF=1', 'count=9007199254740993'];

describe('bad input on every route of the table', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('never answers 5xx or anything but the envelope', { timeout: 600_000 }, async () => {
    const table = t.app.routeTable;
    expect(table.length).toBeGreaterThanOrEqual(15);
    const doc = (await api(t.app).get('/api/docs/json')).json() as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];

    for (const route of table) {
      // A fresh admin per route: a route may log its caller out or close the account.
      const { token } = await createAdmin(t.app);
      const op = doc.paths[route.url]?.[route.method.toLowerCase()] ?? {};
      const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const bodySchema = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      const endless = answersEndless(op);

      const send = async (opts: { query?: string; payload?: string | Buffer; contentType?: string; lang?: string }): Promise<Sent> => {
        const request = {
          method: route.method as 'GET' | 'POST',
          url: opts.query ? `${route.url}?${opts.query}` : route.url,
          headers: {
            ...auth(token),
            ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
            ...(opts.lang ? { 'accept-language': opts.lang } : {}),
          },
          ...(opts.payload === undefined ? {} : { payload: opts.payload }),
        };
        if (endless) return injectToFirstEvent(t.app, request);
        const res = await t.app.inject(request);
        return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
      };
      const check = async (label: string, opts: Parameters<typeof send>[0]) => {
        const problem = problemWith(await send(opts), BYTES_ROUTES.has(route.url), REFUSED_400_ROUTES.has(route.url), endless, PAGE_ROUTES.has(route.url));
        if (problem) throw new Error(`${route.method} ${route.url} (${label}): ${problem}`);
      };

      try {
        await fc.assert(
          fc.asyncProperty(queryOf(queryNames), async (query) => check(`query ${query.slice(0, 80)}`, { query })),
          { numRuns: RUNS },
        );
        if (route.method === 'POST') {
          await fc.assert(
            fc.asyncProperty(fc.oneof(contractShaped(bodySchema), nasty), fc.constantFrom(...CONTENT_TYPES), fc.constantFrom('en', 'zh-CN'), async (body, contentType, lang) =>
              check(`body ${JSON.stringify(body).slice(0, 80)}`, { payload: JSON.stringify(body), contentType, lang }),
            ),
            { numRuns: RUNS },
          );
          const raw: [string, Parameters<typeof send>[0]][] = [
            ['invalid JSON', { payload: '{"a":', contentType: 'application/json-patch+json' }],
            ['empty JSON body', { payload: '', contentType: 'application/json' }],
            ['empty text body', { payload: '', contentType: 'text/plain' }],
            ['no body at all', {}],
            ['prototype pollution', { payload: '{"__proto__":{"admin":true}}', contentType: 'application/json' }],
            ['XML', { payload: '<a/>', contentType: 'application/xml' }],
            ['form', { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }],
            ['multipart', { payload: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' }],
            ['2 MB', { payload: JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }), contentType: 'application/json' }],
            ['deep nesting', { payload: '['.repeat(100_000) + ']'.repeat(100_000), contentType: 'application/json' }],
            ['deep nesting inside an object', { payload: `[{"event":{"eventType":"e"},"payload":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}]`, contentType: 'application/json' }],
          ];
          for (const [label, opts] of raw) await check(label, opts);
          for (const [label, bytes] of INVALID_UTF8) await check(`body ${label}`, { payload: bytes, contentType: 'application/json' });
          for (const [label, bytes] of INVALID_UTF8) await check(`form field ${label}`, { payload: formWithField(bytes), contentType: 'multipart/form-data; boundary=x' });
        }
        for (const query of RAW_QUERIES) await check(`raw query ${query}`, { query });
      } catch (err) {
        // fast-check's message names the counterexample, its cause (the check's own message) the route.
        const cause = (err as Error).cause instanceof Error ? `\n${((err as Error).cause as Error).message}` : '';
        failures.push(`${(err as Error).message.split('\n').slice(0, 6).join('\n')}${cause}`);
      }
    }
    expect(failures).toEqual([]);
  });

  describe('in Chinese', () => {
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };

    it('explains invalid JSON, bad fields and wrong content types in Chinese', async () => {
      const { token } = await createAdmin(t.app);
      const post = async (payload: string, contentType: string) =>
        (await t.app.inject({ method: 'POST', url: '/api/admin/System/SaveSetting', payload, headers: { ...zh, ...auth(token), 'content-type': contentType } })).json();

      expect(await post('{"settingKey":', 'application/json-patch+json')).toEqual({ Code: 10400, Msg: '请求体不是有效的 JSON。', Data: null });
      const bad = await post(JSON.stringify({ settingKey: 'ok_key', settingValue: 42 }), 'application/json');
      expect(bad.Code).toBe(10400);
      expect(bad.Msg).toMatch(/^请求无效：settingValue: /);
      expect(bad.Msg).toMatch(/[\u4e00-\u9fff]/);
      const xml = await post('<a/>', 'application/xml');
      expect(xml).toMatchObject({ Code: 10400, Msg: expect.stringContaining('不支持的内容类型') });
    });

    it('answers not logged in and too large in Chinese', async () => {
      const guarded = t.app.routeTable.find((r) => r.auth === 'user')!;
      const res = await t.app.inject({ method: guarded.method as 'GET' | 'POST', url: guarded.url, headers: zh });
      expect(res.json()).toEqual({ Code: 10402, Msg: '请登录', Data: null });
      const big = await t.app.inject({
        method: 'POST',
        url: '/api/System/AddRequestTime',
        payload: JSON.stringify([{ RequestId: 'x', ClientRequestTime: 1, ClientResponseTime: 2, ClientResponseErrMsg: 'x'.repeat(100_000) }]),
        headers: { ...zh, 'content-type': 'text/plain' },
      });
      expect(big.json()).toEqual({ Code: 10413, Msg: '请求内容过大。', Data: null });
    });
  });
});

describe('one rule at the edge for every route', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '100000' });
    ({ token } = await createAdmin(t.app));
  });
  afterAll(() => t.close());

  const rename = (payload: string | Buffer, lang = 'en', contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/api/User/UpdateNickName', payload, headers: { ...auth(token), 'content-type': contentType, 'accept-language': lang } });
  const nameNow = async () => (await api(t.app, token).getBody('/api/User/GetUserByLogin')).Data.userName;

  it('refuses each class with the bad-input Code and a message that names the rule, in the caller language, and stores nothing', async () => {
    const before = await nameNow();
    const cases: [string | Buffer, RegExp, RegExp][] = [
      [JSON.stringify({ userName: 'a\u0000b' }), /NUL character/, /NUL 字符/],
      [JSON.stringify({ userName: 'half \ud83d' }), /not valid Unicode/, /无效的 Unicode/],
      [JSON.stringify({ userName: '\udc00' }), /not valid Unicode/, /无效的 Unicode/],
      [JSON.stringify({ userName: 'ok', 'ke\u0000y': 1 }), /NUL character/, /NUL 字符/],
      ['{"userName":"ok","n":1e999}', /number that is too large/, /数字过大/],
      ['{"userName":"ok","n":9007199254740993}', /number that is too large/, /数字过大/],
      [INVALID_UTF8[0][1], /not valid UTF-8/, /UTF-8/],
      [INVALID_UTF8[3][1], /not valid UTF-8/, /UTF-8/],
    ];
    for (const [payload, en, zh] of cases) {
      for (const [lang, msg] of [['en', en], ['zh-CN', zh]] as const) {
        const res = await rename(payload, lang);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ Code: 10400, Msg: expect.stringMatching(msg), Data: null });
      }
    }
    // The same body as text/plain (beacons) and json-patch+json (the client) meets the same rule.
    for (const type of ['text/plain', 'application/json-patch+json']) expect((await rename(INVALID_UTF8[0][1], 'en', type)).json().Code).toBe(10400);
    expect(await nameNow()).toBe(before);
    // Well-formed text, emoji and CJK included, passes.
    expect((await rename(JSON.stringify({ userName: '水獭 🦦' }))).json().Code).toBe(10000);
    expect(await nameNow()).toBe('水獭 🦦');
  });

  it('refuses a query that is not UTF-8 once decoded, or holds NUL or half a surrogate pair', async () => {
    const cases: [string, RegExp][] = [
      ['chatSessionId=%FF', /not valid UTF-8/],
      ['chatSessionId=%ED%A0%80', /not valid UTF-8/],
      ['chatSessionId=%E0%A4%A', /not valid UTF-8/],
      ['chatSessionId=%00', /NUL character/],
    ];
    for (const [query, msg] of cases) {
      const res = await api(t.app, token).get(`/api/Chat/GetChatMessageListBySelfSessionId?${query}`);
      expect(res.json(), query).toEqual({ Code: 10400, Msg: expect.stringMatching(msg), Data: null });
    }
    // Repeated names and + for spaces decode as before.
    const res = await api(t.app, token).get('/api/Chat/GetChatSessionListBySelf?sessionTitle=a+b%20c&page=1');
    expect(res.json().Code).toBe(10000);
  });

  it('refuses a multipart text field that is not UTF-8 or holds NUL, and keeps no upload', async () => {
    // pageTitle is free text: only the edge rule stands between these bytes and the database.
    const form = (value: Buffer) =>
      Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; name="mediaType"\r\n\r\nfile\r\n--x\r\nContent-Disposition: form-data; name="pageTitle"\r\n\r\n'),
        value,
        Buffer.from('\r\n--x\r\nContent-Disposition: form-data; name="pageFile"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--x--\r\n'),
      ]);
    const cases: [Buffer, RegExp][] = [
      [Buffer.from([0x66, 0xff]), /not valid UTF-8/],
      [Buffer.from('ti\u0000tle'), /NUL character/],
    ];
    for (const [value, msg] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/Chat/AddChatMedia', payload: form(value), headers: { ...auth(token), 'content-type': 'multipart/form-data; boundary=x' } });
      expect(res.json()).toEqual({ Code: 10400, Msg: expect.stringMatching(msg), Data: null });
    }
    const ok = await t.app.inject({ method: 'POST', url: '/api/Chat/AddChatMedia', payload: form(Buffer.from('Notes ✓')), headers: { ...auth(token), 'content-type': 'multipart/form-data; boundary=x' } });
    expect(ok.json().Code).toBe(10000);
    expect(ok.json().Data.pageTitle).toBe('Notes ✓');
  });

  it('maps a value the database refuses to bad input or a conflict, and only our own faults to 10500', () => {
    expect(failureOf({ code: '22001' }, 'r')).toMatchObject({ code: 10400, key: 'invalidValue', serverFault: false, status: 200 });
    expect(failureOf(Object.assign(new Error('query failed'), { cause: { code: '22003' } }), 'r')).toMatchObject({ code: 10400, serverFault: false });
    expect(failureOf({ cause: { code: '23503' } }, 'r')).toMatchObject({ code: 10400 });
    expect(failureOf({ code: '54000' }, 'r')).toMatchObject({ code: 10400 });
    expect(failureOf({ code: '23505' }, 'r')).toMatchObject({ code: 10409, key: 'valueConflict' });
    expect(failureOf(Object.assign(new Error('raised'), { code: 'P0001' }), 'r')).toMatchObject({ code: 10500, serverFault: true, status: 500 });
    expect(failureOf(new TypeError('a bug of ours'), 'r')).toMatchObject({ code: 10500, serverFault: true });
  });
});
