import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { aiDeployments, aiModels } from '../../server/db/schema/models.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { upstreamFailures } from '../../server/db/schema/usage.ts';
import { markFailure } from '../../server/services/catalogue/catalogue-health.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The console's catalogue tools (docs/api.md#admin-models-deployments-and-money): ordering the catalogue on every instance, a
 * test call to a deployment through the chat's provider code (nobody charged, nothing stored, keys
 * never answered), and importing models from a provider's model list, idempotently. Runs on PGlite,
 * and on PostgreSQL with TEST_DATABASE_URL (the concurrency and two-instance cases mean most there).
 */

const ENV_KEY = 'sk-env-key-123456';

/** A tiny upstream answering one fixed status and body to every request. */
async function startFixedServer(status: number, body: string, contentType = 'application/json'): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => void res.writeHead(status, { 'content-type': contentType }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let fake: FakeOpenAI;
let t: TestApp;
let admin: TestUser;
let user: TestUser;
const servers: Server[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({
    OPENAI_API_KEY: ENV_KEY,
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODELS: 'alpha,beta,gamma',
    // The hanging upstream of the timeout case gives up quickly.
    MODEL_FIRST_TEXT_TIMEOUT_SECONDS: '2',
    AUTH_RATE_LIMIT: '1000',
  });
  admin = await createAdmin(t.app);
  user = await createUser(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  for (const s of servers) s.close();
});

const post = async (url: string, body: unknown, token: string | null = admin.token, lang = 'en') => {
  const res = await api(t.app, token ?? undefined).post(url, body, { lang });
  expect(res.statusCode, url).toBe(200);
  return { ...res.json(), raw: res.body };
};
const deploymentOf = async (aiModelId: string) => (await api(t.app, admin).getBody(`/api/admin/AiModelMap/GetList?aiModelId=${aiModelId}`)).Data[0];
const fixed = async (status: number, body: string, contentType?: string) => {
  const s = await startFixedServer(status, body, contentType);
  servers.push(s.server);
  return s.url;
};

describe('admin models and deployments', () => {
  describe('ordering', () => {
    const adminOrder = async () =>
      (await api(t.app, admin).getBody('/api/admin/AiModel/GetList?count=100')).Data.list.filter((m: { aiModelId: string }) => ['alpha', 'beta', 'gamma'].includes(m.aiModelId));
    const servedOrder = async (app = t.app) =>
      ((await api(app).getBody('/api/AiModel/GetModelListAll')).Data as { aiModelId: string }[])
        .map((m) => m.aiModelId)
        .filter((id) => ['alpha', 'beta', 'gamma'].includes(id));

    it('orders the catalogue as given, the models not named after them, for operators and users', async () => {
      expect(await servedOrder()).toEqual(['alpha', 'beta', 'gamma']);
      expect((await post('/api/admin/AiModel/Sort', { ids: ['gamma', 'alpha'] })).Code).toBe(10000);
      const ordered = await adminOrder();
      expect(ordered.map((m: { aiModelId: string; sort: number }) => [m.aiModelId, m.sort])).toEqual([
        ['gamma', 10],
        ['alpha', 20],
        ['beta', 30],
      ]);
      // The served catalogue was re-read at once on this instance.
      expect(await servedOrder()).toEqual(['gamma', 'alpha', 'beta']);
      expect((await post('/api/admin/AiModel/Sort', { ids: ['alpha', 'beta', 'gamma'] })).Code).toBe(10000);
      expect(await servedOrder()).toEqual(['alpha', 'beta', 'gamma']);
    });

    (onPostgres ? it : it.skip)('applies the order on another instance of the same database', async () => {
      const other = await createTestApp({ OPENAI_API_KEY: ENV_KEY, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'alpha,beta,gamma' }, { databaseUrl: t.databaseUrl });
      try {
        // The other instance has read (and cached) the catalogue before the change.
        expect(await servedOrder(other.app)).toEqual(['alpha', 'beta', 'gamma']);
        expect((await post('/api/admin/AiModel/Sort', { ids: ['beta', 'gamma', 'alpha'] })).Code).toBe(10000);
        await vi.waitFor(async () => expect(await servedOrder(other.app)).toEqual(['beta', 'gamma', 'alpha']), { timeout: 10_000, interval: 50 });
      } finally {
        await other.close();
        await post('/api/admin/AiModel/Sort', { ids: ['alpha', 'beta', 'gamma'] });
      }
    });

    it('refuses unknown models, repeats and bad lists, changing nothing', async () => {
      const before = await adminOrder();
      const unknown = await post('/api/admin/AiModel/Sort', { ids: ['alpha', 'nope'] });
      expect(unknown).toMatchObject({ Code: 10404, Msg: 'There is no model nope. Refresh the list and try again.' });
      const bad = [
        { ids: ['alpha', 'alpha'] },
        { ids: [] },
        {},
        { ids: 'alpha' },
        { ids: [5] },
        { ids: ['al\u0000pha'] },
        { ids: ['\ud800'] },
        { ids: Array.from({ length: 1001 }, (_, i) => `m${i}`) },
        { ids: ['x'.repeat(65)] },
      ];
      for (const body of bad) expect((await post('/api/admin/AiModel/Sort', body)).Code, JSON.stringify(body).slice(0, 80)).toBe(10400);
      expect((await post('/api/admin/AiModel/Sort', { ids: ['alpha', 'alpha'] }, admin.token, 'zh')).Msg).toContain('重复');
      expect(await adminOrder()).toEqual(before);
    });
  });

  describe('test call', () => {
    it("sends one short prompt with the saved deployment's key and answers the first tokens; nobody is charged, nothing stored", async () => {
      const deployment = await deploymentOf('alpha');
      fake.script('alpha', { chunks: ['Hel', 'lo ', 'there'] });
      const [[messagesBefore], [ledgerBefore]] = await Promise.all([
        t.database.db.select({ n: count() }).from(chatMessages),
        t.database.db.select({ n: count() }).from(pointLedger),
      ]);
      const res = await post('/api/admin/AiModelMap/Test', { aiModelMapId: deployment.aiModelMapId });
      expect(res.Code).toBe(10000);
      expect(res.Data).toMatchObject({ ok: true, text: 'Hello there', errorKind: null, error: null });
      expect(res.Data.firstTokenMs).toBeGreaterThanOrEqual(0);
      expect(res.Data.totalMs).toBeGreaterThanOrEqual(res.Data.firstTokenMs);
      const sent = fake.requests.at(-1)!;
      expect(sent.model).toBe('alpha');
      expect(sent.headers.authorization).toBe(`Bearer ${ENV_KEY}`);
      expect(sent.body.messages.at(-1).content).toMatch(/hello/i);
      expect(res.raw).not.toContain(ENV_KEY);
      const [[messagesAfter], [ledgerAfter]] = await Promise.all([
        t.database.db.select({ n: count() }).from(chatMessages),
        t.database.db.select({ n: count() }).from(pointLedger),
      ]);
      expect([messagesAfter.n, ledgerAfter.n]).toEqual([messagesBefore.n, ledgerBefore.n]);
    });

    it('tests unsaved settings, or a saved deployment with fields replaced, with the given prompt', async () => {
      fake.script('delta', { chunks: ['pong'] });
      const typed = await post('/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: 'sk-typed-key-777777', upstreamModelId: 'delta', prompt: 'Ping' });
      expect(typed.Data).toMatchObject({ ok: true, text: 'pong' });
      expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-typed-key-777777');
      expect(fake.requests.at(-1)!.body.messages.at(-1).content).toBe('Ping');
      expect(typed.raw).not.toContain('typed-key');

      // The saved deployment of alpha, asked for another upstream model: the saved key goes with it.
      const deployment = await deploymentOf('alpha');
      const replaced = await post('/api/admin/AiModelMap/Test', { aiModelMapId: deployment.aiModelMapId, upstreamModelId: 'delta' });
      expect(replaced.Data.ok).toBe(true);
      expect(fake.requests.at(-1)!).toMatchObject({ model: 'delta', headers: { authorization: `Bearer ${ENV_KEY}` } });
      // An empty key means none.
      await post('/api/admin/AiModelMap/Test', { aiModelMapId: deployment.aiModelMapId, apiKey: '' });
      expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
    });

    it('answers only the first tokens of a long answer', async () => {
      fake.script('long', { chunks: Array.from({ length: 40 }, () => 'abcdefghij') });
      const res = await post('/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'long' });
      expect(res.Data.ok).toBe(true);
      expect(res.Data.text).toBe('abcdefghij'.repeat(20));
    });

    it("says what went wrong: the provider's refusal without the key, no answer in time, an unreachable address", async () => {
      const key = 'sk-refused-secret-abcdef';
      fake.script('refused', { status: 401, errorMessage: `Incorrect API key provided: ${key}` });
      const refused = await post('/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: key, upstreamModelId: 'refused' });
      expect(refused.Code).toBe(10000);
      expect(refused.Data).toMatchObject({ ok: false, text: '', firstTokenMs: null, errorKind: 'auth' });
      expect(refused.Data.error).toMatch(/^HTTP 401: .*Incorrect API key provided/);
      expect(refused.raw).not.toContain('refused-secret');

      fake.script('hangs', { hang: true });
      const slow = await post('/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'hangs' });
      expect(slow.Data).toMatchObject({ ok: false, errorKind: 'timeout', error: 'no text within 2 s' });

      const unreachable = await post('/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', upstreamModelId: 'x' });
      expect(unreachable.Data).toMatchObject({ ok: false, errorKind: 'busy' });
      expect(unreachable.Data.error.length).toBeGreaterThan(5);
      expect(unreachable.Data.error).not.toMatch(/\n\s+at /);
    });

    it('refuses bad input with a clear Code', async () => {
      const missing = await post('/api/admin/AiModelMap/Test', {});
      expect(missing.Code).toBe(10400);
      expect(missing.Msg).toContain('Choose a saved deployment');
      expect((await post('/api/admin/AiModelMap/Test', { aiModelMapId: randomUUID() })).Code).toBe(10404);
      const bad = [
        { provider: 'openai' },
        { provider: 'evil', upstreamModelId: 'x' },
        { provider: 'openai', upstreamModelId: 'x', baseUrl: 'ftp://example.com/' },
        { provider: 'openai', upstreamModelId: 'x', baseUrl: 'javascript:alert(1)' },
        { provider: 'openai', upstreamModelId: 'x', prompt: 'p'.repeat(501) },
        { provider: 'openai', upstreamModelId: 'x\u0000' },
        { provider: 'openai', upstreamModelId: 'x', apiKey: 'k'.repeat(1001) },
        { aiModelMapId: 5 },
        [],
      ];
      for (const body of bad) expect((await post('/api/admin/AiModelMap/Test', body)).Code, JSON.stringify(body).slice(0, 80)).toBe(10400);
    });
  });
});

describe('admin models and deployments', () => {
  describe('import from a provider', () => {
    it("lists the upstream's models with the saved key, marking those already served", async () => {
      fake.reset();
      for (const id of ['alpha', 'imp-one', 'imp-two']) fake.script(id, {});
      const deployment = await deploymentOf('alpha');
      const res = await post('/api/admin/AiModelMap/OpenAiModel', { aiModelMapId: deployment.aiModelMapId });
      expect(res.Code, res.Msg).toBe(10000);
      expect(res.Data.list).toEqual([
        { upstreamModelId: 'alpha', ownedBy: null, imported: true, aiModelId: 'alpha' },
        { upstreamModelId: 'imp-one', ownedBy: null, imported: false, aiModelId: null },
        { upstreamModelId: 'imp-two', ownedBy: null, imported: false, aiModelId: null },
      ]);
      expect(fake.modelListRequests.at(-1)!.authorization).toBe(`Bearer ${ENV_KEY}`);
      expect(res.raw).not.toContain(ENV_KEY);

      // Another provider at the same address serves none of them yet; a typed key is used, not echoed.
      const typed = await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'openai', baseUrl: fake.baseUrl, apiKey: 'sk-list-key-31337' });
      expect(typed.Data.list.every((m: { imported: boolean }) => !m.imported)).toBe(true);
      expect(fake.modelListRequests.at(-1)!.authorization).toBe('Bearer sk-list-key-31337');
      expect(typed.raw).not.toContain('list-key');
    });

    it("reads Ollama's tags", async () => {
      const url = await fixed(200, JSON.stringify({ models: [{ name: 'qwen2:7b', size: 1 }, { name: 'llama3:latest' }] }));
      const res = await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'ollama', baseUrl: url });
      expect(res.Data.list.map((m: { upstreamModelId: string }) => m.upstreamModelId)).toEqual(['llama3:latest', 'qwen2:7b']);
    });

    it('says why a list could not be read, without the key', async () => {
      const refusing = await fixed(401, JSON.stringify({ error: { message: 'Invalid key sk-listed-secret-12345' } }));
      const refused = await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'openai-compatible', baseUrl: refusing, apiKey: 'sk-listed-secret-12345' });
      expect(refused.Code).toBe(10502);
      expect(refused.Msg).toMatch(/HTTP 401: Invalid key/);
      expect(refused.raw).not.toContain('listed-secret');
      const html = await fixed(200, '<html>hi</html>', 'text/html');
      expect((await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'openai-compatible', baseUrl: html })).Msg).toContain('not JSON');
      const wrongShape = await fixed(200, JSON.stringify({ data: 'nope' }));
      expect((await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'openai-compatible', baseUrl: wrongShape })).Msg).toContain('not a model list');
      const unreachable = await post('/api/admin/AiModelMap/OpenAiModel', { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' }, admin.token, 'zh');
      expect(unreachable.Code).toBe(10502);
      expect(unreachable.Msg).toContain('无法读取服务商的模型列表');
      for (const body of [{}, { provider: 'x' }, { provider: 'openai', baseUrl: 'file:///etc/passwd' }, { aiModelMapId: ['a'] }]) {
        expect((await post('/api/admin/AiModelMap/OpenAiModel', body)).Code, JSON.stringify(body)).toBe(10400);
      }
    });

    it('creates a model and a deployment per chosen upstream model, once', async () => {
      const key = 'sk-import-key-424242';
      const body = { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: key, upstreamModelIds: ['imp-one', 'Imp Two:latest'], pointsCost: 3, minVipLevel: 1 };
      const first = await post('/api/admin/AiModel/SyncModelMap', body);
      expect(first.Code, first.Msg).toBe(10000);
      expect(first.raw).not.toContain(key);
      expect(first.Data.skipped).toEqual([]);
      expect(first.Data.created.map((c: { upstreamModelId: string; aiModelId: string; newModel: boolean }) => [c.upstreamModelId, c.aiModelId, c.newModel])).toEqual([
        ['imp-one', 'imp-one', true],
        ['Imp Two:latest', 'imp-two', true],
      ]);
      const model = (await api(t.app, admin).getBody('/api/admin/AiModel/GetById?aiModelId=imp-one')).Data;
      expect(model).toMatchObject({ name: 'imp-one', online: false, pointsCost: 3, minVipLevel: 1, source: 'admin', deploymentCount: 1 });
      const deployment = await deploymentOf('imp-two');
      expect(deployment).toMatchObject({ provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'Imp Two:latest', hasApiKey: true, apiKeyHint: 'sk-...4242' });
      const [row] = await t.database.db.select().from(aiDeployments).where(eq(aiDeployments.id, deployment.aiModelMapId));
      expect(row.apiKeyEnc).not.toContain(key);
      // Offline until the operator puts them online: users do not see them yet.
      const served = (await api(t.app).getBody('/api/AiModel/GetModelListAll')).Data.map((m: { aiModelId: string }) => m.aiModelId);
      expect(served).not.toContain('imp-one');

      const again = await post('/api/admin/AiModel/SyncModelMap', body);
      expect(again.Data.created).toEqual([]);
      expect(again.Data.skipped).toEqual(first.Data.created.map(({ newModel: _, ...c }: { newModel: boolean }) => c));
      // alpha is served by this provider and address already (from the environment): skipped too.
      const env = await post('/api/admin/AiModel/SyncModelMap', { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelIds: ['alpha'] });
      expect(env.Data.skipped).toMatchObject([{ upstreamModelId: 'alpha', aiModelId: 'alpha' }]);
      // The same upstream id from another provider: the existing catalogue model gains a deployment.
      const other = await post('/api/admin/AiModel/SyncModelMap', { provider: 'openai', baseUrl: fake.baseUrl, upstreamModelIds: ['beta'] });
      expect(other.Data.created).toMatchObject([{ upstreamModelId: 'beta', aiModelId: 'beta', newModel: false }]);
      expect((await api(t.app, admin).getBody('/api/admin/AiModel/GetById?aiModelId=beta')).Data.deploymentCount).toBe(2);
    });

    it('imports online models that answer with the key given at import', async () => {
      const res = await post('/api/admin/AiModel/SyncModelMap', { provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: 'sk-online-key-5555', upstreamModelIds: ['imp-live'], online: true });
      expect(res.Data.created).toHaveLength(1);
      const served = (await api(t.app).getBody('/api/AiModel/GetModelListAll')).Data.map((m: { aiModelId: string }) => m.aiModelId);
      expect(served).toContain('imp-live');
      fake.script('imp-live', { chunks: ['live'] });
      const tested = await post('/api/admin/AiModelMap/Test', { aiModelMapId: res.Data.created[0].aiModelMapId });
      expect(tested.Data).toMatchObject({ ok: true, text: 'live' });
      expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-online-key-5555');
    });

    it('makes one deployment per upstream model when imports run at once', async () => {
      const ids = Array.from({ length: 10 }, (_, i) => `race-${i}`);
      const body = { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelIds: ids };
      const results = await Promise.all(Array.from({ length: 12 }, () => post('/api/admin/AiModel/SyncModelMap', body)));
      expect(results.map((r) => r.Code)).toEqual(Array(12).fill(10000));
      expect(results.reduce((n, r) => n + r.Data.created.length, 0)).toBe(10);
      expect(results.reduce((n, r) => n + r.Data.skipped.length, 0)).toBe(110);
      for (const id of ids) {
        const [{ n }] = await t.database.db.select({ n: count() }).from(aiDeployments).where(eq(aiDeployments.upstreamModelId, id));
        expect(n, id).toBe(1);
      }
      const [{ n }] = await t.database.db.select({ n: count() }).from(aiModels).where(eq(aiModels.id, 'race-0'));
      expect(n).toBe(1);
    });

    it('refuses bad input with a clear Code', async () => {
      const base = { provider: 'openai-compatible', baseUrl: fake.baseUrl };
      const bad = [
        { ...base, upstreamModelIds: [] },
        { ...base, upstreamModelIds: ['a', 'a'] },
        { ...base, upstreamModelIds: Array.from({ length: 201 }, (_, i) => `m${i}`) },
        { ...base, upstreamModelIds: ['x'.repeat(201)] },
        { ...base, upstreamModelIds: ['nul\u0000'] },
        { ...base, upstreamModelIds: 'imp-one' },
        { upstreamModelIds: ['imp-one'] },
        { ...base, upstreamModelIds: ['a'], pointsCost: -1 },
        { ...base, upstreamModelIds: ['a'], minVipLevel: 9 },
        { ...base, upstreamModelIds: ['a'], online: 'yes' },
      ];
      for (const body of bad) expect((await post('/api/admin/AiModel/SyncModelMap', body)).Code, JSON.stringify(body).slice(0, 80)).toBe(10400);
      expect((await post('/api/admin/AiModel/SyncModelMap', { aiModelMapId: randomUUID(), upstreamModelIds: ['a'] })).Code).toBe(10404);
    });
  });
});

describe('admin models and deployments', () => {
  describe('health', () => {
    it('reports success rate, median time to first token and the last error over a day and a week, from stored answers and failures', async () => {
      const deployments = (await api(t.app, admin).getBody('/api/admin/AiModelMap/GetList?aiModelId=beta')).Data;
      const dep = deployments.find((d: { provider: string }) => d.provider === 'openai-compatible').aiModelMapId;
      const sessionId = randomUUID();
      await t.database.db.insert(chatSessions).values({ id: sessionId, userId: admin.userId, title: 'health' });
      const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
      const message = (hoursAgo: number, fields: Partial<typeof chatMessages.$inferInsert>) => ({
        id: randomUUID(),
        sessionId,
        userId: admin.userId,
        inputMessage: 'q',
        requestedModelId: 'beta',
        aiModelId: 'beta',
        deploymentId: dep,
        finishReason: 'stop',
        createdAt: ago(hoursAgo),
        finishedAt: ago(hoursAgo),
        ...fields,
      });
      const failedRecorded = message(1, { finishReason: 'error', firstTokenMs: null });
      await t.database.db.insert(chatMessages).values([
        message(2, { firstTokenMs: 100 }),
        message(3, { firstTokenMs: 500 }),
        message(4, { firstTokenMs: 300 }),
        message(72, { firstTokenMs: 900 }),
        // Failed after its first text, with no failure recorded: a failure of the week.
        message(73, { finishReason: 'error', firstTokenMs: 50 }),
        // Outside both windows; and another deployment's answer.
        message(24 * 10, { firstTokenMs: 1 }),
        message(2, { firstTokenMs: 1, deploymentId: randomUUID() }),
        failedRecorded,
      ]);
      const failure = (hoursAgo: number, error: string, messageId: string | null = null) => ({
        id: randomUUID(),
        deploymentId: dep,
        aiModelId: 'beta',
        messageId,
        error,
        failedOver: false,
        createdAt: ago(hoursAgo),
      });
      await t.database.db.insert(upstreamFailures).values([
        failure(1, 'busy: HTTP 503 overloaded', failedRecorded.id),
        failure(48, 'timeout: no text before the first-text timeout'),
        failure(24 * 8, 'auth: HTTP 401 old'),
      ]);

      const one = (await api(t.app, admin).getBody(`/api/admin/AiModelMap/GetById?aiModelMapId=${dep}`)).Data;
      expect(one.health.day).toEqual({ attempts: 4, successes: 3, failures: 1, successRate: 0.75, p50FirstTokenMs: 300 });
      expect(one.health.week).toEqual({ attempts: 7, successes: 4, failures: 3, successRate: 4 / 7, p50FirstTokenMs: 400 });
      expect(one.health.lastError).toBe('busy: HTTP 503 overloaded');
      expect(Math.abs(Date.parse(one.health.lastErrorTime) - (Date.now() - 3_600_000))).toBeLessThan(60_000);

      // The list carries the same figures; a deployment without traffic has none.
      const listed = (await api(t.app, admin).getBody('/api/admin/AiModelMap/GetList?aiModelId=beta')).Data;
      expect(listed.find((d: { aiModelMapId: string }) => d.aiModelMapId === dep).health).toEqual(one.health);
      const quiet = (await deploymentOf('gamma')).health;
      const empty = { attempts: 0, successes: 0, failures: 0, successRate: null, p50FirstTokenMs: null };
      expect(quiet).toEqual({ lastError: null, lastErrorTime: null, day: empty, week: empty });
    });

    it("shows this instance's cool-down after failures", async () => {
      const deployment = await deploymentOf('gamma');
      expect(deployment.coolingUntil).toBeNull();
      markFailure(t.app.ctx, deployment.aiModelMapId);
      const cooling = (await api(t.app, admin).getBody(`/api/admin/AiModelMap/GetById?aiModelMapId=${deployment.aiModelMapId}`)).Data;
      expect(Date.parse(cooling.coolingUntil)).toBeGreaterThan(Date.now());
    });
  });

  it('refuses users who are not admins and visitors', async () => {
    const routes: [string, unknown][] = [
      ['/api/admin/AiModel/Sort', { ids: ['alpha'] }],
      ['/api/admin/AiModel/SyncModelMap', { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelIds: ['sneaky'] }],
      ['/api/admin/AiModelMap/Test', { provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'alpha' }],
      ['/api/admin/AiModelMap/OpenAiModel', { provider: 'openai-compatible', baseUrl: fake.baseUrl }],
    ];
    const calls = fake.requests.length + fake.modelListRequests.length;
    for (const [url, body] of routes) {
      expect((await post(url, body, user.token)).Code, url).toBe(10403);
      expect((await post(url, body, null)).Code, url).toBe(10402);
    }
    expect(fake.requests.length + fake.modelListRequests.length).toBe(calls);
    expect((await api(t.app, admin).getBody('/api/admin/AiModel/GetById?aiModelId=sneaky')).Code).toBe(10404);
  });
});
