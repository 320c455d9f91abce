import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { aiDeployments, aiModels } from '../../server/db/schema/models.ts';
import { openModelStream, resolveModel } from '../../server/services/chat/model-stream.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, grantVip } from '../helpers/users.ts';

const SECRET_KEY = 'catalogue-test-secret-key-0123456789abc';

/** A GET that must answer HTTP 200; its envelope. */
async function get(app: FastifyInstance, url: string, token?: string) {
  const res = await api(app, token).get(url);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** A POST that must answer HTTP 200; its envelope. */
async function post(app: FastifyInstance, url: string, body: unknown, token?: string) {
  const res = await api(app, token).post(url, body);
  expect(res.statusCode).toBe(200);
  return res.json();
}

const ids = (list: { aiModelId: string }[]) => list.map((m) => m.aiModelId);

/** The same database and bus as `t`: a second instance, or the same one after a restart. */
async function anotherInstance(t: TestApp, env: Record<string, string>, shareBus = false) {
  const app = await buildApp({
    config: loadConfig({ OLLAMA_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent', SECRET_KEY, ...env }),
    database: t.database,
    logger: false,
    ...(shareBus ? { bus: t.app.ctx.bus } : {}),
  });
  // A message that comes back proves the instance listens on the bus (on PostgreSQL LISTEN is
  // asynchronous; closing before it is done would fail it).
  const heard = new Promise<void>((resolve) => {
    const off = app.ctx.bus.subscribe('catalogue', () => {
      off();
      resolve();
    });
  });
  await app.ctx.bus.publish('catalogue', 'test');
  await heard;
  return app;
}

describe('seeding from the environment', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  const env = () => ({
    SECRET_KEY,
    OPENAI_API_KEY: 'sk-env-key-abcd1234',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODELS: 'gpt-4o-mini, gpt-4o:2, Acme/Text Model:3',
  });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp(env());
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('creates catalogue entries with levels, costs and vision flags, contacting no upstream', async () => {
    const { Code, Data } = await get(t.app, '/api/AiModel/GetModelListAll');
    expect(Code).toBe(10000);
    expect(ids(Data)).toEqual(['auto', 'gpt-4o-mini', 'gpt-4o', 'acme-text-model']);
    const [, mini, big, text] = Data;
    expect(mini).toMatchObject({ name: 'gpt-4o-mini', minVipLevel: 0, minVipLevelName: 'Free', pointsCost: 1, locked: false });
    expect(mini.modelMap.isImage).toBe(true);
    expect(big).toMatchObject({ minVipLevel: 2, minVipLevelName: 'Advanced', pointsCost: 5, locked: true, webSearch: true });
    expect(text).toMatchObject({ name: 'Acme/Text Model', minVipLevel: 3, minVipLevelName: 'Super', pointsCost: 10 });
    expect(text.modelMap.isImage).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });

  it('stores the key encrypted and uses it for the upstream', async () => {
    const rows = await t.database.db.select().from(aiDeployments);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.apiKeyEnc).toMatch(/^v1\./);
      expect(row.apiKeyEnc).not.toContain('sk-env-key');
      expect(row.baseUrl).toBe(fake.baseUrl);
      expect(row.source).toBe('env');
    }
    fake.script('gpt-4o-mini', { chunks: ['hello'] });
    const user = { id: 'u', email: 'u@example.com', userName: 'u', role: 'user' as const, vipOrder: null, vipLevel: 0, invitedBy: null };
    const resolved = await resolveModel(t.app.ctx, { user, aiModelId: 'gpt-4o-mini', hasImages: false, conversationChars: 2 });
    const stream = await openModelStream(t.app.ctx, resolved, { messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal });
    for await (const _ of stream.parts);
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-env-key-abcd1234');
    expect(fake.requests[0].model).toBe('gpt-4o-mini');
  });

  it('is idempotent on restart, follows a changed environment and keeps what an operator edited', async () => {
    const before = await t.database.db.select().from(aiDeployments);
    const same = await anotherInstance(t, env());
    await same.close();
    const after = await t.database.db.select().from(aiDeployments);
    expect(after.map((d) => d.id).sort()).toEqual(before.map((d) => d.id).sort());
    expect(await t.database.db.select().from(aiModels)).toHaveLength(3);

    // The operator edits one model: it becomes theirs.
    const [mini] = await t.database.db.select().from(aiModels).where(eq(aiModels.id, 'gpt-4o-mini'));
    await t.database.db.update(aiModels).set({ pointsCost: 7, source: 'admin' }).where(eq(aiModels.id, mini.id));

    const changed = await anotherInstance(t, { ...env(), OPENAI_MODELS: 'gpt-4o:1,gpt-4o-mini:2' });
    const { Data } = await get(changed, '/api/AiModel/GetModelListAll');
    await changed.close();
    expect(ids(Data)).toEqual(['auto', 'gpt-4o-mini', 'gpt-4o']);
    expect(Data[1]).toMatchObject({ minVipLevel: 0, pointsCost: 7 });
    expect(Data[2]).toMatchObject({ minVipLevel: 1, pointsCost: 2 });
    expect((await t.database.db.select().from(aiDeployments)).length).toBe(2);
  });
});

describe('importing from Ollama', () => {
  let ollama: Server;
  let url: string;
  let t: TestApp | undefined;

  beforeAll(async () => {
    ollama = createServer((req, res) => {
      if (req.url === '/api/tags') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest' }, { name: 'llava:7b' }] }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => ollama.close(r));
  });

  it('imports every model of a reachable Ollama at level 0', async () => {
    t = await createTestApp({ SECRET_KEY, OLLAMA_URL: url });
    const { Data } = await get(t.app, '/api/Chat/GetModelListAll');
    expect(ids(Data)).toEqual(['auto', 'llama3.2', 'llava-7b']);
    expect(Data.every((m: { minVipLevel: number }) => m.minVipLevel === 0)).toBe(true);
    expect(Data[2].modelMap.isImage).toBe(true);
    const deps = await t.database.db.select().from(aiDeployments);
    expect(deps.map((d) => [d.provider, d.upstreamModelId, d.source]).sort()).toEqual([
      ['ollama', 'llama3.2:latest', 'ollama'],
      ['ollama', 'llava:7b', 'ollama'],
    ]);
    await t.close();
    t = undefined;
  });

  it('imports only OLLAMA_MODELS when set, with their levels', async () => {
    t = await createTestApp({ SECRET_KEY, OLLAMA_URL: url, OLLAMA_MODELS: 'llava:7b:1,not-pulled' });
    const { Data } = await get(t.app, '/api/Chat/GetModelListAll');
    expect(ids(Data)).toEqual(['auto', 'llava-7b']);
    expect(Data[1].minVipLevel).toBe(1);
  });

  it('starts without models when nothing is configured and Ollama is unreachable', async () => {
    const bare = await createTestApp({ SECRET_KEY });
    try {
      const { Data } = await get(bare.app, '/api/Chat/GetModelListAll');
      expect(ids(Data)).toEqual(['auto']);
    } finally {
      await bare.close();
    }
  });
});

describe('the catalogue API', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let admin: { token: string; userId: string };
  let user: { token: string; userId: string };

  const saveModel = (body: Record<string, unknown>, token = admin.token) => post(t.app, '/api/admin/AiModel/Save', body, token);
  const saveMap = (body: Record<string, unknown>, token = admin.token) => post(t.app, '/api/admin/AiModelMap/Save', body, token);
  const list = async (token?: string) => (await get(t.app, '/api/Chat/GetModelListAll', token)).Data as { aiModelId: string; locked: boolean }[];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ SECRET_KEY });
    admin = await createAdmin(t.app);
    user = await createUser(t.app);
    for (const level of [0, 1, 2, 3]) {
      const res = await saveModel({ aiModelId: `level-${level}`, name: `Level ${level}`, minVipLevel: level, pointsCost: level + 1 });
      expect(res.Code).toBe(10000);
      expect((await saveMap({ aiModelId: `level-${level}`, provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'up' })).Code).toBe(10000);
    }
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('lists auto first and locks models above the plan of visitors, free users and VIP users', async () => {
    const visitor = await list();
    expect(ids(visitor)).toEqual(['auto', 'level-0', 'level-1', 'level-2', 'level-3']);
    expect(visitor.map((m) => m.locked)).toEqual([false, false, true, true, true]);
    expect((await list(user.token)).map((m) => m.locked)).toEqual([false, false, true, true, true]);
    const vip = await createUser(t.app);
    await grantVip(t.app, vip.userId, 2);
    expect((await list(vip.token)).map((m) => m.locked)).toEqual([false, false, false, false, true]);
    const same = (await get(t.app, '/api/AiModel/GetModelListAll', vip.token)).Data;
    expect(same.map((m: { locked: boolean }) => m.locked)).toEqual([false, false, false, false, true]);
    expect(visitor[0]).toMatchObject({ name: 'Auto', minVipLevel: 0, pointsCost: 1 });
  });

  it('serves one model and checks the plan for it', async () => {
    expect(await get(t.app, '/api/AiModel/GetAiModelById?aiModelId=level-2')).toMatchObject({
      Code: 10000,
      Data: { aiModelId: 'level-2', minVipLevelName: 'Advanced', pointsCost: 3 },
    });
    expect((await get(t.app, '/api/AiModel/GetAiModelById?aiModelId=nope')).Code).toBe(10404);
    expect((await get(t.app, '/api/AiModel/GetAiModelById')).Code).toBe(10400);

    expect((await get(t.app, '/api/Chat/CheckModelLevelMax?aiModelId=level-2')).Code).toBe(10402);
    expect((await get(t.app, '/api/Chat/CheckModelLevelMax?aiModelId=level-2', user.token)).Data).toEqual({
      allowed: false,
      minVipLevel: 2,
      minVipLevelName: 'Advanced',
      userVipLevel: 0,
    });
    expect((await get(t.app, '/api/Chat/CheckModelLevelMax?aiModelId=auto', user.token)).Data.allowed).toBe(true);
    const vip = await createUser(t.app);
    await grantVip(t.app, vip.userId, 3);
    expect((await get(t.app, '/api/Chat/CheckModelLevelMax?aiModelId=level-2', vip.token)).Data).toMatchObject({ allowed: true, userVipLevel: 3 });
    expect((await get(t.app, '/api/Chat/CheckModelLevelMax?aiModelId=gone', user.token)).Code).toBe(10404);
  });

  it('refuses admin calls from users and visitors', async () => {
    expect((await get(t.app, '/api/admin/AiModel/GetList', user.token)).Code).toBe(10403);
    expect((await get(t.app, '/api/admin/AiModel/GetList')).Code).toBe(10402);
    expect((await saveModel({ name: 'Sneaky' }, user.token)).Code).toBe(10403);
    expect(ids(await list())).not.toContain('sneaky');
  });

  it('validates saved models', async () => {
    expect((await saveModel({ name: 'Bad', minVipLevel: 5 })).Code).toBe(10400);
    expect((await saveModel({ name: '' })).Code).toBe(10400);
    expect((await saveModel({ name: 'X', pointsCost: -1 })).Code).toBe(10400);
    expect((await saveModel({ aiModelId: 'auto', name: 'Auto 2' })).Code).toBe(10409);
    expect((await saveModel({ name: 'Level 0' })).Code).toBe(10409);
    expect((await saveMap({ aiModelId: 'level-0', provider: 'nope', upstreamModelId: 'x' })).Code).toBe(10400);
    expect((await saveMap({ aiModelId: 'level-0', provider: 'openai', baseUrl: 'ftp://x', upstreamModelId: 'x' })).Code).toBe(10400);
    expect((await saveMap({ aiModelId: 'missing', provider: 'openai', upstreamModelId: 'x' })).Code).toBe(10404);
  });

  it('creates, updates, lists, takes offline and deletes models', async () => {
    const created = await saveModel({ name: 'Vision Pro', minVipLevel: 1, modelMap: { isImage: true, fileTypes: ['PDF', 'txt'] } });
    expect(created).toMatchObject({
      Code: 10000,
      Data: { aiModelId: 'vision-pro', online: true, source: 'admin', deploymentCount: 0, modelMap: { isImage: true, fileTypes: ['pdf', 'txt'] } },
    });
    // No deployment yet: users do not see it.
    expect(ids(await list())).not.toContain('vision-pro');
    await saveMap({ aiModelId: 'vision-pro', provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'vp' });
    expect(ids(await list())).toContain('vision-pro');

    expect((await saveModel({ aiModelId: 'vision-pro', name: 'Vision Pro 2', minVipLevel: 1, sort: -5 })).Data.name).toBe('Vision Pro 2');
    expect(ids(await list())[1]).toBe('vision-pro');

    expect((await post(t.app, '/api/admin/AiModel/Online', { aiModelId: 'vision-pro', online: false }, admin.token)).Data.online).toBe(false);
    expect(ids(await list())).not.toContain('vision-pro');
    const page = await get(t.app, '/api/admin/AiModel/GetList?page=1&count=2&keyword=vision', admin.token);
    expect(page.Data.total).toBe(1);
    expect(page.Data.list[0]).toMatchObject({ aiModelId: 'vision-pro', online: false, deploymentCount: 1 });
    const all = await get(t.app, '/api/admin/AiModel/GetList?page=1&count=2', admin.token);
    expect(all.Data.total).toBe(5);
    expect(all.Data.list).toHaveLength(2);
    expect((await get(t.app, '/api/admin/AiModel/GetById?aiModelId=vision-pro', admin.token)).Data.name).toBe('Vision Pro 2');

    expect((await post(t.app, '/api/admin/AiModel/Delete', { aiModelId: 'vision-pro' }, admin.token)).Code).toBe(10000);
    expect((await get(t.app, '/api/admin/AiModel/GetById?aiModelId=vision-pro', admin.token)).Code).toBe(10404);
    expect((await post(t.app, '/api/admin/AiModel/Delete', { aiModelId: 'vision-pro' }, admin.token)).Code).toBe(10404);
    expect(await t.database.db.select().from(aiDeployments).where(eq(aiDeployments.aiModelId, 'vision-pro'))).toHaveLength(0);
  });

  it('never returns a key in clear and stores it encrypted', async () => {
    const key = 'sk-live-secret-abcdefgh-9876';
    const saved = await saveMap({ aiModelId: 'level-0', provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: key, upstreamModelId: 'keyed', priority: -10 });
    expect(saved.Code).toBe(10000);
    expect(saved.Data).toMatchObject({ hasApiKey: true, apiKeyHint: 'sk-...9876', upstreamModelId: 'keyed', enabled: true });
    const id = saved.Data.aiModelMapId;
    const listed = await api(t.app, admin).get('/api/admin/AiModelMap/GetList?aiModelId=level-0');
    const one = await api(t.app, admin).get(`/api/admin/AiModelMap/GetById?aiModelMapId=${id}`);
    for (const res of [JSON.stringify(saved), listed.body, one.body]) expect(res).not.toContain('secret-abcdefgh');
    expect(listed.json().Data.map((d: { aiModelMapId: string }) => d.aiModelMapId)[0]).toBe(id);

    const [row] = await t.database.db.select().from(aiDeployments).where(eq(aiDeployments.id, id));
    expect(row.apiKeyEnc).toMatch(/^v1\./);
    expect(row.apiKeyEnc).not.toContain(key);
    expect(row.apiKeyEnc).not.toContain(Buffer.from(key).toString('base64url'));

    // Saved again without apiKey: the key stays, and the upstream receives it.
    const kept = await saveMap({ aiModelMapId: id, aiModelId: 'level-0', provider: 'openai-compatible', baseUrl: fake.baseUrl, upstreamModelId: 'keyed', priority: -10 });
    expect(kept.Data.hasApiKey).toBe(true);
    fake.script('keyed', { chunks: ['ok'] });
    const resolved = await resolveModel(t.app.ctx, {
      user: { id: user.userId, email: '', userName: '', role: 'user', vipOrder: null, vipLevel: 0, invitedBy: null },
      aiModelId: 'level-0',
      hasImages: false,
      conversationChars: 1,
    });
    const stream = await openModelStream(t.app.ctx, resolved, { messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal });
    for await (const _ of stream.parts);
    expect(stream.deploymentId).toBe(id);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key}`);

    const cleared = await saveMap({ aiModelMapId: id, aiModelId: 'level-0', provider: 'openai-compatible', apiKey: '', upstreamModelId: 'keyed' });
    expect(cleared.Data).toMatchObject({ hasApiKey: false, apiKeyHint: null, baseUrl: null });
    expect((await post(t.app, '/api/admin/AiModelMap/Delete', { aiModelMapId: id }, admin.token)).Code).toBe(10000);
    expect((await get(t.app, `/api/admin/AiModelMap/GetById?aiModelMapId=${id}`, admin.token)).Code).toBe(10404);
  });

  it('serves from its cache and drops it on every instance after an admin change', async () => {
    const other = await anotherInstance(t, {}, true);
    try {
      const listOn = async (app: FastifyInstance) => ids((await get(app, '/api/Chat/GetModelListAll')).Data);
      expect(await listOn(other)).toEqual(await listOn(t.app));
      // Written behind the server's back: the cached catalogue does not see it.
      await t.database.db.insert(aiModels).values({ id: 'sideways', name: 'Sideways' });
      await t.database.db.insert(aiDeployments).values({ id: 'sideways-d', aiModelId: 'sideways', provider: 'ollama', upstreamModelId: 'x' });
      expect(await listOn(t.app)).not.toContain('sideways');
      expect(await listOn(other)).not.toContain('sideways');

      // An admin change on the first instance reaches the second through the bus.
      await post(t.app, '/api/admin/AiModel/Online', { aiModelId: 'level-3', online: false }, admin.token);
      await expect.poll(() => listOn(other)).toContain('sideways');
      expect(await listOn(other)).not.toContain('level-3');
      expect(await listOn(t.app)).toContain('sideways');
    } finally {
      await other.close();
    }
  });
});
