import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createAdmin } from '../helpers/users.ts';

/**
 * Whatever a client sends, to whichever route of the table: never a 5xx, always the envelope, a
 * message for every failure, and no internals in it. Routes registered later are covered without
 * edits. Requests are made as an admin, so guards let them through to validation and handlers.
 */

const RUNS = 25;
const CONTENT_TYPES = ['application/json-patch+json', 'application/json', 'text/plain;charset=UTF-8'];
const STACK_TRACE = [/\n\s*at /, /\bat .*[/\\].*:\d+/, /\.(ts|js|mjs):\d+/, /node_modules/, /Error:/];

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema };
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};

type Sent = { status: number; contentType: string; body: string };

/**
 * Routes that serve bytes rather than envelopes (<img src>, downloads): their "not found" is a real
 * HTTP 404, still with the 10404 envelope as its body.
 */
const BYTES_ROUTES = new Set(['/api/Chat/GetChatMedia']);

/**
 * Routes whose refusals are HTTP 400 with the failure envelope (refusedStatus in server/http/route.ts):
 * Stripe's webhook, whose sender reads the status. The envelope is checked as for any answer.
 */
const REFUSED_400_ROUTES = new Set(['/api/Vip/StripeWebhook']);

/** Checks one answer; returns what is wrong with it, or null. */
function problemWith(res: Sent, bytesRoute = false, refused400 = false): string | null {
  if (res.status >= 500) return `HTTP ${res.status}`;
  if (bytesRoute && res.status === 404) return res.body.startsWith('{"Code":10404,') ? null : 'HTTP 404 without the 10404 envelope';
  if (res.status !== 200 && !(refused400 && res.status === 400)) return `HTTP ${res.status} for a registered route`;
  const envelopes: unknown[] = [];
  if (res.contentType.startsWith('text/event-stream')) {
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

/** Values that are wrong in many ways: any JSON, big text, deep nesting, nulls, arrays for objects. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
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

describe('bad input on every route of the table', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '100000' });
  });
  afterAll(() => t.close());

  it('never answers 5xx or anything but the envelope', { timeout: 600_000 }, async () => {
    const table = t.app.routeTable;
    expect(table.length).toBeGreaterThanOrEqual(15);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];

    for (const route of table) {
      // A fresh admin per route: a route may log its caller out or close the account.
      const { token } = await createAdmin(t.app);
      const op = doc.paths[route.url]?.[route.method.toLowerCase()] ?? {};
      const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const bodySchema = Object.values(op.requestBody?.content ?? {})[0]?.schema;

      const send = async (opts: { query?: string; payload?: string; contentType?: string; lang?: string }): Promise<Sent> => {
        const res = await t.app.inject({
          method: route.method as 'GET' | 'POST',
          url: opts.query ? `${route.url}?${opts.query}` : route.url,
          headers: {
            ...auth(token),
            ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
            ...(opts.lang ? { 'accept-language': opts.lang } : {}),
          },
          ...(opts.payload === undefined ? {} : { payload: opts.payload }),
        });
        return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
      };
      const check = async (label: string, opts: Parameters<typeof send>[0]) => {
        const problem = problemWith(await send(opts), BYTES_ROUTES.has(route.url), REFUSED_400_ROUTES.has(route.url));
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
        }
      } catch (err) {
        failures.push((err as Error).message.split('\n').slice(0, 6).join('\n'));
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
