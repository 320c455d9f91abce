import { readFileSync, writeFileSync, mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllDeployments } from '../../shared/contracts/model.ts';
import type { AdminModelType, ModelType } from '../../shared/contracts/model-type.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import { startFakeImages, type FakeImages } from '../fixtures/fake-images.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { testSaveModel } from '../helpers/models.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

// One app: a fake OpenAI-compatible upstream serving gpt-4o (chat + vision, by its name), text-small
// (chat) and dall-e-3 (an image generator, by its name), and a fake images API for drawing models.
let fake: FakeOpenAI;
let images: FakeImages;
let t: TestApp;
let admin: TestUser;
let user: TestUser;

const DRAW_KEY = 'sk-draw-secret-123456789';

beforeAll(async () => {
  fake = await startFakeOpenAI();
  images = await startFakeImages();
  t = await createTestApp({ OPENAI_API_KEY: 'sk-upstream-secret-987654321', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'gpt-4o,text-small,dall-e-3', AUTH_RATE_LIMIT: '1000' });
  admin = await createAdmin(t.app);
  user = await createUser(t.app);
  // A drawing model of the catalogue, served by the fake images API.
  const saved = await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('drawer', { typeIds: ['image'], pointsCost: 3 }));
  expect(saved.Code).toBe(10000);
  const dep = await api(t.app, admin).postBody('/api/admin/AiModelMap/Save', {
    aiModelId: 'drawer',
    provider: 'openai-compatible',
    baseUrl: images.baseUrl,
    apiKey: DRAW_KEY,
    upstreamModelId: 'fake-draw-2',
  });
  expect(dep.Code).toBe(10000);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await images?.close();
});

const adminTypes = async () => (await api(t.app, admin).getBody('/api/admin/AiModelType/GetList')).Data as AdminModelType[];
const saveType = (body: Record<string, unknown>, lang = 'en') => api(t.app, admin).postBody('/api/admin/AiModelType/Save', body, { lang });
const deleteType = (aiModelTypeId: string, lang = 'en') => api(t.app, admin).postBody('/api/admin/AiModelType/Delete', { aiModelTypeId }, { lang });
const modelList = async (query = '', who?: TestUser) =>
  (await api(t.app, who).getBody(`/api/AiModel/GetModelListAll${query}`)) as { Code: number; Data: { aiModelId: string; types: string[]; modelMap: { isImage: boolean } }[] };

describe('model types: what users see', () => {
  it('lists the seeded types, signed out, named in the caller’s language, in order; hidden ones are left out', async () => {
    const en = (await api(t.app).getBody('/api/AiModelType/GetAiModelTypeAll', { lang: 'en' })).Data as ModelType[];
    expect(en.map((x) => [x.aiModelTypeId, x.name])).toEqual([
      ['chat', 'Chat'],
      ['vision', 'Vision'],
      ['image', 'Image generation'],
      ['embedding', 'Embedding'],
      ['translation', 'Translation'],
    ]);
    const zh = (await api(t.app).getBody('/api/AiModelType/GetAiModelTypeAll', { lang: 'zh-CN' })).Data as ModelType[];
    expect(zh.map((x) => x.name)).toEqual(['对话', '识图', '图像生成', '向量嵌入', '翻译']);
    const asked = (await api(t.app).getBody('/api/AiModelType/GetAiModelTypeAll?language=zh', { lang: 'en' })).Data as ModelType[];
    expect(asked[0]!.name).toBe('对话');

    expect((await saveType({ aiModelTypeId: 'translation', nameEn: 'Translation', nameZh: '翻译', enabled: false })).Code).toBe(10000);
    const shown = (await api(t.app).getBody('/api/AiModelType/GetAiModelTypeAll')).Data as ModelType[];
    expect(shown.map((x) => x.aiModelTypeId)).not.toContain('translation');
    expect((await adminTypes()).find((x) => x.aiModelTypeId === 'translation')).toMatchObject({ enabled: false });
    await saveType({ aiModelTypeId: 'translation', nameEn: 'Translation', nameZh: '翻译', enabled: true });
  });

  it('gives seeded models their types (chat; vision by name; an image generator draws), lists them, and filters by type', async () => {
    const all = (await modelList()).Data;
    const typesOf = (id: string) => all.find((m) => m.aiModelId === id)?.types;
    expect(typesOf('gpt-4o')).toEqual(['chat', 'vision']);
    expect(typesOf('text-small')).toEqual(['chat']);
    expect(typesOf('dall-e-3')).toEqual(['image']);
    expect(typesOf('drawer')).toEqual(['image']);
    expect(typesOf('auto')).toEqual(['chat', 'vision']);
    expect(all.find((m) => m.aiModelId === 'gpt-4o')!.modelMap.isImage).toBe(true);

    const chat = (await modelList('?aiModelTypeId=chat')).Data.map((m) => m.aiModelId);
    expect(chat).toEqual(['auto', ...all.filter((m) => m.types.includes('chat') && m.aiModelId !== 'auto').map((m) => m.aiModelId)]);
    expect(chat).not.toContain('dall-e-3');
    expect(chat).not.toContain('drawer');
    const drawing = (await api(t.app, user).getBody('/api/Chat/GetModelListAll?aiModelTypeId=image')).Data.map((m: { aiModelId: string }) => m.aiModelId);
    expect(drawing.sort()).toEqual(['dall-e-3', 'drawer']);
    expect((await modelList('?aiModelTypeId=embedding')).Data).toEqual([]);
    expect((await modelList('?aiModelTypeId=Not%20a%20type!')).Code).toBe(10400);
  });
});

describe('model types: chat and drawing refuse a model of the wrong type', () => {
  it('AddMessage refuses an image-only model with 10463, in the user’s language, before calling anything or charging', async () => {
    const pointsOf = async () => (await getIntegral(t.database.db, user.userId, t.config.FREE_DAILY_POINTS))[0].integralValue;
    const before = await pointsOf();
    const res = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'dall-e-3', inputMessage: 'Hello' });
    expect(res.json()).toMatchObject({ Code: 10463, Msg: 'dall-e-3 is not a chat model: it cannot answer messages. Pick a chat model.' });
    const zh = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'drawer', inputMessage: '你好' }, { lang: 'zh-CN' });
    expect(zh.json().Msg).toBe('drawer 不是对话模型，无法回复消息。请选择对话模型。');
    expect(fake.requests).toHaveLength(0);
    expect(await pointsOf()).toBe(before);
    // A chat model still answers.
    const ok = parseChatStream((await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'text-small', inputMessage: 'Hello' })).body);
    expect(ok.some((e) => e.Code === 10000)).toBe(true);
  });

  it('AddDraw draws with an image-generation model through its deployment, and refuses a chat model with 10463', async () => {
    const refused = await api(t.app, user).postBody('/api/Chat/AddDraw', { prompt: 'a lighthouse', aiModelId: 'text-small' });
    expect(refused).toMatchObject({ Code: 10463, Msg: 'text-small cannot generate images. Pick an image-generation model.' });
    expect((await api(t.app, user).postBody('/api/Chat/AddDraw', { prompt: 'a lighthouse', aiModelId: 'no-such' })).Code).toBe(10404);
    expect(images.requests).toHaveLength(0);

    const drawn = await api(t.app, user).postBody('/api/Chat/AddDraw', { prompt: 'a lighthouse at dusk', aiModelId: 'drawer' });
    expect(drawn).toMatchObject({ Code: 10000, Data: { chatMediaId: expect.any(String) } });
    expect(images.requests[0]!.body).toMatchObject({ model: 'fake-draw-2', prompt: 'a lighthouse at dusk' });
    expect(images.requests[0]!.headers.authorization).toBe(`Bearer ${DRAW_KEY}`);
  });
});

describe('model types: operators manage them', () => {
  it('creates, reads, renames, re-orders, hides and deletes a type, each write in the audit log', async () => {
    const created = await saveType({ nameEn: 'Speech to text', nameZh: '语音转文字' });
    expect(created).toMatchObject({ Code: 10000, Data: { aiModelTypeId: 'speech-to-text', nameEn: 'Speech to text', enabled: true, builtIn: false, modelCount: 0 } });
    expect((await saveType({ nameEn: 'Speech to text', nameZh: '语音' })).Code).toBe(10409);
    const got = await api(t.app, admin).getBody('/api/admin/AiModelType/GetById?aiModelTypeId=speech-to-text');
    expect(got.Data).toMatchObject({ nameZh: '语音转文字' });
    expect((await api(t.app, admin).getBody('/api/admin/AiModelType/GetById?aiModelTypeId=nothing')).Code).toBe(10404);

    const renamed = await saveType({ aiModelTypeId: 'speech-to-text', nameEn: 'Transcription', nameZh: '转写', sort: 1, enabled: false });
    expect(renamed.Data).toMatchObject({ nameEn: 'Transcription', sort: 1, enabled: false });
    expect((await adminTypes())[0]!.aiModelTypeId).toBe('speech-to-text');

    expect((await saveType({ nameEn: '', nameZh: '空' })).Msg).toContain('Type the name of the model type in both languages.');
    expect((await saveType({ nameEn: 'x'.repeat(31), nameZh: '长' }, 'zh-CN')).Msg).toContain('模型类型名称最多 30 个字符。');
    expect((await saveType({ aiModelTypeId: '9lives', nameEn: 'Nine', nameZh: '九' })).Code).toBe(10400);

    expect((await deleteType('speech-to-text')).Code).toBe(10000);
    expect((await adminTypes()).some((x) => x.aiModelTypeId === 'speech-to-text')).toBe(false);
    expect((await deleteType('speech-to-text')).Code).toBe(10404);
    const log = (await api(t.app, admin).getBody('/api/admin/AuditLog/GetList?page=1&count=50&targetType=aiModelType')).Data.list as {
      targetId: string;
      before: AdminModelType | null;
      after: AdminModelType | null;
    }[];
    const mine = log.filter((e) => e.targetId === 'speech-to-text');
    expect(mine.map((e) => [e.before?.nameEn ?? null, e.after?.nameEn ?? null])).toEqual(
      expect.arrayContaining([
        [null, 'Speech to text'],
        ['Speech to text', 'Transcription'],
        ['Transcription', null],
      ]),
    );
  });

  it('refuses to delete a type a model has, or a built-in one, with a message saying what to do', async () => {
    expect((await saveType({ aiModelTypeId: 'rerank', nameEn: 'Rerank', nameZh: '重排序' })).Code).toBe(10000);
    const model = await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('reranker', { typeIds: ['rerank', 'chat'] }));
    expect(model.Data).toMatchObject({ types: ['chat', 'rerank'] });
    expect((await adminTypes()).find((x) => x.aiModelTypeId === 'rerank')).toMatchObject({ modelCount: 1 });
    expect(await deleteType('rerank')).toMatchObject({
      Code: 10409,
      Msg: 'The type rerank is still used by 1 model(s). Remove it from those models first, or hide it instead.',
    });
    expect((await deleteType('rerank', 'zh-CN')).Msg).toBe('类型 rerank 仍被 1 个模型使用。请先从这些模型中移除它，或改为隐藏。');
    expect(await deleteType('chat')).toMatchObject({ Code: 10409, Msg: expect.stringContaining('built in') });
    // Taken off the model, it can go.
    expect((await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('reranker', { typeIds: ['chat'] }))).Data.types).toEqual(['chat']);
    expect((await deleteType('rerank')).Code).toBe(10000);
  });

  it('saves a model’s types: an unknown or empty list is refused; without typeIds vision follows modelMap.isImage', async () => {
    expect((await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('typed', { typeIds: ['chat', 'nope'] }))).Code).toBe(10400);
    expect((await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('typed', { typeIds: [] }))).Code).toBe(10400);
    expect((await api(t.app, admin).getBody('/api/admin/AiModel/GetById?aiModelId=typed')).Code).toBe(10404);
    const plain = await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('typed'));
    expect(plain.Data).toMatchObject({ types: ['chat'], modelMap: { isImage: false } });
    const seeing = await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('typed', { modelMap: { isImage: true, fileTypes: [] } }));
    expect(seeing.Data).toMatchObject({ types: ['chat', 'vision'], modelMap: { isImage: true } });
    const byTypes = await api(t.app, admin).postBody('/api/admin/AiModel/Save', testSaveModel('typed', { typeIds: ['translation', 'chat'] }));
    expect(byTypes.Data).toMatchObject({ types: ['chat', 'translation'], modelMap: { isImage: false } });
    const filtered = (await api(t.app, admin).getBody('/api/admin/AiModel/GetList?page=1&count=100&aiModelTypeId=translation')).Data.list;
    expect(filtered.map((m: { aiModelId: string }) => m.aiModelId)).toEqual(['typed']);
  });

  it('is for operators only', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/AiModelType/GetList', undefined],
      ['GET', '/api/admin/AiModelType/GetById?aiModelTypeId=chat', undefined],
      ['POST', '/api/admin/AiModelType/Save', { aiModelTypeId: 'chat', nameEn: 'Hacked', nameZh: '黑' }],
      ['POST', '/api/admin/AiModelType/Delete', { aiModelTypeId: 'embedding' }],
      ['GET', '/api/admin/AiModelMap/GetAiModelListAll', undefined],
    ] as const) {
      const res = method === 'GET' ? await api(t.app, user).getBody(url) : await api(t.app, user).postBody(url, body);
      expect(res.Code, url).toBe(10403);
      const anonymous = method === 'GET' ? await api(t.app).getBody(url) : await api(t.app).postBody(url, body);
      expect(anonymous.Code, url).toBe(10402);
    }
    expect((await adminTypes()).find((x) => x.aiModelTypeId === 'chat')).toMatchObject({ nameEn: 'Chat' });
  });
});

describe('GetAiModelListAll: every deployment across models', () => {
  it('lists deployments with their model, filters by model, account and keyword, and never answers a key', async () => {
    const all = await api(t.app, admin).getBody('/api/admin/AiModelMap/GetAiModelListAll?page=1&count=100');
    const data = all.Data as AllDeployments;
    expect(data.total).toBe(data.list.length);
    expect(data.list.map((d) => d.aiModelId).sort()).toEqual(['dall-e-3', 'drawer', 'gpt-4o', 'text-small']);
    const drawer = data.list.find((d) => d.aiModelId === 'drawer')!;
    expect(drawer).toMatchObject({ modelName: 'drawer', provider: 'openai-compatible', baseUrl: images.baseUrl, upstreamModelId: 'fake-draw-2', hasApiKey: true });
    expect(drawer.apiKeyHint).not.toContain(DRAW_KEY);
    expect(data.accounts).toEqual(
      expect.arrayContaining([
        { provider: 'openai-compatible', baseUrl: images.baseUrl, deploymentCount: 1 },
        { provider: 'openai-compatible', baseUrl: fake.baseUrl, deploymentCount: 3 },
      ]),
    );
    const text = JSON.stringify(all);
    expect(text).not.toContain(DRAW_KEY);
    expect(text).not.toContain('sk-upstream-secret-987654321');
    expect(text).not.toContain('apiKeyEnc');

    const byModel = (await api(t.app, admin).getBody('/api/admin/AiModelMap/GetAiModelListAll?aiModelId=gpt-4o')).Data as AllDeployments;
    expect(byModel.list.map((d) => d.aiModelId)).toEqual(['gpt-4o']);
    const byAccount = (await api(t.app, admin).getBody(`/api/admin/AiModelMap/GetAiModelListAll?provider=openai-compatible&baseUrl=${encodeURIComponent(images.baseUrl)}`))
      .Data as AllDeployments;
    expect(byAccount.list.map((d) => d.aiModelId)).toEqual(['drawer']);
    const byKeyword = (await api(t.app, admin).getBody('/api/admin/AiModelMap/GetAiModelListAll?keyword=SMALL')).Data as AllDeployments;
    expect(byKeyword.list.map((d) => d.aiModelId)).toEqual(['text-small']);
    const paged = (await api(t.app, admin).getBody('/api/admin/AiModelMap/GetAiModelListAll?page=2&count=3')).Data as AllDeployments;
    expect(paged).toMatchObject({ total: 4 });
    expect(paged.list).toHaveLength(1);
    expect((await api(t.app, admin).getBody('/api/admin/AiModelMap/GetAiModelListAll?provider=nope')).Code).toBe(10400);
  });
});

describe('the model types migration', () => {
  it('gives existing models their types: chat for all, vision where they read images, image for image generators', { timeout: 60_000 }, async () => {
    const folder = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));
    const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_model_types'));
    expect(at).toBeGreaterThan(0);
    // The migrations before this one, in a folder of their own.
    const before = mkdtempSync(join(tmpdir(), 'tandem-migrations-'));
    cpSync(folder, before, { recursive: true });
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
    try {
      const db = drizzle(client);
      // As the server does before it migrates (server/db/client.ts).
      await client.exec('create extension if not exists pg_trgm');
      await migrate(db, { migrationsFolder: before });
      await client.exec(`
        insert into ai_models (id, name, is_image) values ('old-vision', 'Old vision', true), ('old-text', 'Old text', false), ('dall-e-2', 'DALL·E 2', false);
      `);
      await migrate(db, { migrationsFolder: folder });
      const links = await client.query<{ ai_model_id: string; type_id: string }>('select ai_model_id, type_id from ai_model_type_links order by 1, 2');
      expect(links.rows.map((r) => `${r.ai_model_id}:${r.type_id}`)).toEqual(['dall-e-2:image', 'old-text:chat', 'old-vision:chat', 'old-vision:vision']);
      const columns = await client.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'ai_models'");
      expect(columns.rows.map((c) => c.column_name)).not.toContain('is_image');
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
