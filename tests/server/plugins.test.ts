import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatCitation, ChatToolCall } from '../../shared/contracts/chat.ts';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { plugins } from '../../server/db/schema/plugins.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import { startFakeImages, TINY_PNG, type FakeImages } from '../fixtures/fake-images.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeSearxng, type FakeSearxng } from '../fixtures/fake-searxng.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream, textOf, type StreamEvent } from '../helpers/chat.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

type Extras = { Citations?: ChatCitation[]; ToolCalls?: ChatToolCall[] };
const extrasOf = (e: StreamEvent) => e.Data as StreamEvent['Data'] & Extras;
const toolEvents = (events: StreamEvent[]) => events.map((e) => extrasOf(e).ToolCalls).filter((c) => c !== undefined);

const OTTERS = `<!doctype html><html><head><title>Sea otters</title></head><body><article><h1>Sea otters</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This is called rafting.</p>
<p>${'They eat sea urchins, crabs and clams, and use stones as tools to open shells. '.repeat(8)}</p></article></body></html>`;

// Every describe of this file runs against these: an app with every plugin's service (fake, on loopback), and a bare one with none.
let fake: FakeOpenAI;
let searx: FakeSearxng;
let images: FakeImages;
let t: TestApp;
let bare: TestApp;
let user: TestUser;
let admin: TestUser;

const add = (app: TestApp, token: string, body: Record<string, unknown>) => api(app.app, token).post('/api/Chat/AddMessage', body);
const pointsOf = async (app: TestApp, userId: string) =>
  (await getIntegral(app.database.db, userId, app.config.FREE_DAILY_POINTS))[0].integralValue;
const messageRow = async (id: string) => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];
const setPlugin = (id: string, values: Partial<typeof plugins.$inferInsert>) =>
  t.database.db.update(plugins).set(values).where(eq(plugins.id, id));

beforeAll(async () => {
  fake = await startFakeOpenAI();
  searx = await startFakeSearxng();
  images = await startFakeImages();
  searx.pages.set('otters', OTTERS);
  t = await createTestApp({
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODELS: 'tool-model',
    SEARXNG_URL: searx.url,
    READER_ALLOWLIST: searx.host,
    IMAGES_BASE_URL: images.baseUrl,
    IMAGES_API_KEY: 'img-key',
    IMAGES_MODEL: 'fake-draw',
  });
  bare = await createTestApp({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'tool-model' });
  user = await createUser(t.app);
  admin = await createAdmin(t.app);
});
afterAll(async () => {
  await t.close();
  await bare.close();
  await fake.close();
  await searx.close();
  await images.close();
});
beforeEach(() => {
  fake.reset();
  searx.reset();
  images.reset();
});

describe('function plugins, GetPluginListAll and the admin calls', () => {
  it('lists the built-in plugins to anyone, available when the server has what each needs', async () => {
    const listed = (await api(t.app).get('/api/Plugin/GetPluginListAll')).json();
    expect(listed.Code).toBe(10000);
    expect(listed.Data).toEqual([
      expect.objectContaining({ pluginId: 'web_search', toolName: 'web_search', pluginType: 2, pointsCost: 1, available: true }),
      expect.objectContaining({ pluginId: 'read_url', toolName: 'read_url', pluginType: 2, pointsCost: 1, available: true }),
      expect.objectContaining({ pluginId: 'generate_image', toolName: 'generate_image', pluginType: 2, pointsCost: 10, available: true }),
    ]);
    expect(listed.Data[0]).toEqual({
      pluginId: 'web_search',
      pluginName: 'Web search',
      description: expect.stringContaining('search the web'),
      pluginType: 2,
      toolName: 'web_search',
      icon: '',
      pointsCost: 1,
      available: true,
    });
    // Without a search provider or an images endpoint, those two are listed as unavailable.
    const plain = (await api(bare.app).get('/api/Plugin/GetPluginListAll?scene=web')).json().Data;
    expect(plain.map((p: { toolName: string; available: boolean }) => [p.toolName, p.available])).toEqual([
      ['web_search', false],
      ['read_url', true],
      ['generate_image', false],
    ]);
  });

  it('filters by scene', async () => {
    await setPlugin('read_url', { scenes: 'extension,h5' });
    try {
      const ids = async (q: string) =>
        (await api(t.app).get(`/api/Plugin/GetPluginListAll${q}`)).json().Data.map((p: { pluginId: string }) => p.pluginId);
      expect(await ids('?scene=web')).toEqual(['web_search', 'generate_image']);
      expect(await ids('?scene=h5')).toEqual(['web_search', 'read_url', 'generate_image']);
      expect(await ids('')).toEqual(['web_search', 'read_url', 'generate_image']);
      expect((await api(t.app).get('/api/Plugin/GetPluginListAll?scene=moon')).json().Code).toBe(10400);
    } finally {
      await setPlugin('read_url', { scenes: '' });
    }
  });

  it('lets admins list every plugin and switch one off or change its cost; others get 10403', async () => {
    expect((await api(t.app, user).get('/api/admin/Plugin/GetList')).json().Code).toBe(10403);
    const refused = await api(t.app, user).post('/api/admin/Plugin/Save', { pluginId: 'read_url', online: false });
    expect(refused.json().Code).toBe(10403);

    const saved = (await api(t.app, admin).post('/api/admin/Plugin/Save', { pluginId: 'read_url', online: false, pointsCost: 3 })).json();
    expect(saved.Data).toMatchObject({ pluginId: 'read_url', online: false, pointsCost: 3, scenes: '', available: true });
    try {
      const all = (await api(t.app, admin).get('/api/admin/Plugin/GetList')).json().Data;
      expect(all.map((p: { pluginId: string; online: boolean }) => [p.pluginId, p.online])).toEqual([
        ['web_search', true],
        ['read_url', false],
        ['generate_image', true],
      ]);
      const listed = (await api(t.app).get('/api/Plugin/GetPluginListAll')).json().Data;
      expect(listed.map((p: { pluginId: string }) => p.pluginId)).toEqual(['web_search', 'generate_image']);
      // A plugin switched off cannot be used: the message is refused before any charge.
      const res = (await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'read it', pluginIds: ['read_url'] })).json();
      expect(res).toMatchObject({ Code: 10404, Data: null });
      expect(res.Msg).toMatch(/does not exist or was switched off/);
      expect(fake.requests).toHaveLength(0);
      // Only what was sent changes.
      const again = (await api(t.app, admin).post('/api/admin/Plugin/Save', { pluginId: 'read_url', online: true })).json().Data;
      expect(again).toMatchObject({ online: true, pointsCost: 3 });
    } finally {
      await api(t.app, admin).post('/api/admin/Plugin/Save', { pluginId: 'read_url', online: true, pointsCost: 1 });
    }
    expect((await api(t.app, admin).post('/api/admin/Plugin/Save', { pluginId: 'nope', online: true })).json().Code).toBe(10404);
  });

  it('keeps what operators set across restarts of the seeding', async () => {
    await setPlugin('generate_image', { pointsCost: 7, online: false, name: 'Old name' });
    const { seedPlugins } = await import('../../server/services/plugins/plugins.ts');
    await seedPlugins(t.app.ctx);
    const [row] = await t.database.db.select().from(plugins).where(eq(plugins.id, 'generate_image'));
    expect(row).toMatchObject({ pointsCost: 7, online: false, name: 'Image generation' });
    await setPlugin('generate_image', { pointsCost: 10, online: true });
  });
});

describe('function plugins, tool calls in AddMessage (pluginIds): running the tools', () => {
  it('offers no tools to a message without plugins', async () => {
    parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'hi' })).body);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].body.tools).toBeUndefined();
  });

  it('runs web_search when the model calls it: ToolCalls and Citations events, results back to the model, stored and charged', async () => {
    searx.results([
      { title: 'Sea otters', url: searx.page('otters'), content: 'Otters hold hands while they sleep.' },
      { title: 'Kelp', url: 'https://kelp.example/forest', content: 'Kelp forests shelter otters.' },
    ]);
    fake.script('tool-model', { toolCalls: [{ name: 'web_search', arguments: { query: 'why otters hold hands' } }], chunks: ['They raft ', 'together [1].'] });
    const before = await pointsOf(t, user.userId);

    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Why do otters hold hands?', pluginIds: ['web_search'] })).body);
    expect(events.every((e) => e.Code === 10000)).toBe(true);
    expect(textOf(events)).toBe('They raft together [1].');
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');

    // The call is shown running, then completed with its results; the whole list each time.
    const lists = toolEvents(events);
    expect(lists[0]).toEqual([
      { toolCallId: expect.any(String), toolName: 'web_search', input: '{"query":"why otters hold hands"}', status: 'running', output: '', images: [] },
    ]);
    const done = lists.at(-1)![0];
    expect(done).toMatchObject({ toolName: 'web_search', status: 'completed', images: [] });
    expect(done.output).toContain(`[1] Sea otters\nURL: ${searx.page('otters')}`);
    expect(done.output).toContain('[2] Kelp');
    const citations = [
      { index: 1, title: 'Sea otters', url: searx.page('otters') },
      { index: 2, title: 'Kelp', url: 'https://kelp.example/forest' },
    ];
    const withCitations = events.findIndex((e) => extrasOf(e).Citations?.length);
    expect(extrasOf(events[withCitations]).Citations).toEqual(citations);
    expect(withCitations).toBeLessThan(events.findIndex((e) => e.Data.OutputMessage !== ''));
    expect(new URL(searx.requests[0].url, searx.url).searchParams.get('q')).toBe('why otters hold hands');

    // First request: the tool offered as an OpenAI function. Second: the call and its result.
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'web_search',
          description: expect.stringContaining('Search the web'),
          parameters: expect.objectContaining({ type: 'object', required: ['query'] }),
        },
      },
    ]);
    const followUp = fake.requests[1].body.messages as any[];
    const assistant = followUp.at(-2);
    expect(assistant.role).toBe('assistant');
    expect(assistant.tool_calls).toEqual([
      { id: done.toolCallId, type: 'function', function: { name: 'web_search', arguments: '{"query":"why otters hold hands"}' } },
    ]);
    expect(followUp.at(-1)).toMatchObject({ role: 'tool', tool_call_id: done.toolCallId });
    expect(followUp.at(-1).content).toContain('[1] Sea otters');
    expect(followUp.at(-1).content).toContain('Cite these results as [n]');

    const row = await messageRow(events[0].Data.ChatMessageId);
    expect(row.toolCalls).toEqual([done]);
    expect(row.citations).toEqual(citations);
    // The model's cost and the plugin's, each in the ledger.
    expect(row.pointsCost).toBe(2);
    expect(await pointsOf(t, user.userId)).toBe(before - 2);
    const ledger = await t.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, user.userId), eq(pointLedger.refId, row.id)));
    // What each charged, from the balance and the free allowance together.
    expect(ledger.map((l) => [l.reason, l.delta - l.allowance]).sort()).toEqual([
      ['message', -1],
      ['plugin', -1],
    ]);
    const listed = (
      await api(t.app, user).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${events[0].Data.ChatSessionId}`)
    ).json().Data.list[0];
    expect(listed.toolCalls).toEqual([done]);
    expect(listed.citations).toEqual(citations);
  });

  it('stores what a tool call brings in from outside: NUL dropped and lone surrogate halves made U+FFFD, shown as stored', async () => {
    // A page title and a model's arguments with characters PostgreSQL's jsonb cannot hold.
    searx.results([{ title: 'Sea\u0000 otters \udc00', url: searx.page('otters'), content: 'Otters\u0000 raft.' }]);
    fake.script('tool-model', { toolCalls: [{ name: 'web_search', arguments: '{"query":"otters\u0000 \ud800"}' }], chunks: ['Rafts [1].'] });
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Otters?', pluginIds: ['web_search'] })).body);
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    const done = toolEvents(events).at(-1)![0];
    expect(done).toMatchObject({ status: 'completed', input: '{"query":"otters \ufffd"}' });
    expect(done.output).toContain('[1] Sea otters \ufffd');
    expect(done.output).not.toContain('\u0000');
    expect(new URL(searx.requests[0].url, searx.url).searchParams.get('q')).toBe('otters \ufffd');
    const row = await messageRow(events[0].Data.ChatMessageId);
    expect(row).toMatchObject({ finishReason: 'stop', outputMessage: 'Rafts [1].' });
    expect(row.toolCalls).toEqual([done]);
    expect(row.citations).toEqual([{ index: 1, title: 'Sea otters \ufffd', url: searx.page('otters') }]);
  });

  it('stores the sources of a web-searched message whose result titles hold NUL or a lone surrogate half', async () => {
    searx.results([{ title: 'Kelp\u0000 \ud83d forests', url: searx.page('otters'), content: 'Kelp.' }]);
    fake.script('tool-model', { chunks: ['Kelp [1].'] });
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Kelp?', webSearch: true })).body);
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    const citations = [{ index: 1, title: 'Kelp \ufffd forests', url: searx.page('otters') }];
    expect(events.map((e) => extrasOf(e).Citations).filter(Boolean).at(-1)).toEqual(citations);
    expect((await messageRow(events[0].Data.ChatMessageId)).citations).toEqual(citations);
  });

  it('runs generate_image: the image is stored as a draw media item and shown in the call', async () => {
    fake.script('tool-model', { toolCalls: [{ name: 'generate_image', arguments: { prompt: 'a red fox', size: '256x256' } }], chunks: ['Here is your fox.'] });
    const before = await pointsOf(t, user.userId);
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Draw a fox', pluginIds: ['generate_image'] })).body);
    expect(textOf(events)).toBe('Here is your fox.');

    expect(images.requests).toHaveLength(1);
    expect(images.requests[0].headers.authorization).toBe('Bearer img-key');
    expect(images.requests[0].body).toEqual({ model: 'fake-draw', prompt: 'a red fox', n: 1, size: '256x256', response_format: 'b64_json' });

    const done = toolEvents(events).at(-1)![0];
    expect(done).toMatchObject({ toolName: 'generate_image', status: 'completed' });
    expect(done.images).toHaveLength(1);
    const [media] = await t.database.db.select().from(chatMedia).where(and(eq(chatMedia.userId, user.userId), eq(chatMedia.purpose, 'draw')));
    expect(media).toMatchObject({ mediaType: 'image', mimeType: 'image/png', byteSize: TINY_PNG.length, title: 'a red fox' });
    expect(done.images[0]).toContain(`chatMediaId=${media.id}`);
    // The link works without a token (an <img src>), and serves the drawn bytes.
    const image = await api(t.app).get(done.images[0]);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);

    const row = await messageRow(events[0].Data.ChatMessageId);
    expect(row.pointsCost).toBe(11);
    expect(await pointsOf(t, user.userId)).toBe(before - 11);
    const listed = (
      await api(t.app, user).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${events[0].Data.ChatSessionId}`)
    ).json().Data.list[0];
    expect(listed.toolCalls[0].images[0]).toContain(`chatMediaId=${media.id}`);
    expect((await api(t.app).get(listed.toolCalls[0].images[0])).statusCode).toBe(200);
  });
});

describe('function plugins, tool calls in AddMessage (pluginIds): charges, refusals and limits', () => {
  it('ends a call whose points are not covered with an error result, and the answer goes on', async () => {
    const poor = await createUser(t.app);
    await setPlugin('generate_image', { pointsCost: 1_000_000 });
    try {
      fake.script('tool-model', { toolCalls: [{ name: 'generate_image', arguments: { prompt: 'a castle' } }], chunks: ['I could not draw it.'] });
      const before = await pointsOf(t, poor.userId);
      const events = parseChatStream((await add(t, poor.token, { aiModelId: 'tool-model', inputMessage: 'Draw a castle', pluginIds: ['generate_image'] })).body);
      expect(events.at(-1)).toMatchObject({ Code: 10000, Data: { FinishReason: 'stop' } });
      expect(textOf(events)).toBe('I could not draw it.');
      const done = toolEvents(events).at(-1)![0];
      expect(done).toMatchObject({ status: 'error', output: expect.stringMatching(/Not Enough Points/) });
      expect(images.requests).toHaveLength(0);
      expect(fake.requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/Not Enough Points/) });
      // Only the message was charged; nothing went below zero.
      expect(await pointsOf(t, poor.userId)).toBe(before - 1);
    } finally {
      await setPlugin('generate_image', { pointsCost: 10 });
    }
  });

  it('gives the points back when a tool fails: read_url of a private address is refused by the page reader', async () => {
    fake.script('tool-model', { toolCalls: [{ name: 'read_url', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } }], chunks: ['Cannot read it.'] });
    const before = await pointsOf(t, user.userId);
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Read the metadata', pluginIds: ['read_url'] })).body);
    const done = toolEvents(events).at(-1)![0];
    expect(done).toMatchObject({ toolName: 'read_url', status: 'error', output: expect.stringMatching(/only public web pages/) });
    expect(await pointsOf(t, user.userId)).toBe(before - 1);
  });

  it('reads a page with read_url through the reader', async () => {
    fake.script('tool-model', { toolCalls: [{ name: 'read_url', arguments: { url: searx.page('otters') } }], chunks: ['Read.'] });
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Read the otters page', pluginIds: ['read_url'] })).body);
    expect(toolEvents(events).at(-1)![0]).toMatchObject({ status: 'completed' });
    const result = fake.requests[1].body.messages.at(-1).content as string;
    expect(result).toContain('Title: Sea otters');
    expect(result).toContain('Sea otters hold hands while they sleep');
  });

  it('stops calling tools after 4 rounds and asks the model to answer in text', async () => {
    searx.results([{ title: 'Sea otters', url: searx.page('otters'), content: 'Otters.' }]);
    fake.script('tool-model', { toolCalls: [{ name: 'web_search', arguments: { query: 'otters' } }], toolCallsAlways: true, chunks: ['Enough searching.'] });
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'tool-model', inputMessage: 'Search forever', pluginIds: ['web_search'] })).body);
    expect(textOf(events)).toBe('Enough searching.');
    expect(fake.requests).toHaveLength(5);
    expect(fake.requests.slice(0, 4).every((r) => r.body.tool_choice === 'auto')).toBe(true);
    expect(fake.requests[4].body.tool_choice).toBe('none');
    expect(toolEvents(events).at(-1)!.map((c) => c.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // Each search's results are numbered after the previous ones.
    expect(extrasOf(events.findLast((e) => extrasOf(e).Citations)!).Citations!.map((c) => c.index)).toEqual([1, 2, 3, 4]);
  });

  it('refuses unknown plugins, and plugins the server cannot run, before any upstream call or charge', async () => {
    const someone = await createUser(bare.app);
    const before = await pointsOf(bare, someone.userId);
    const unknown = (await add(bare, someone.token, { aiModelId: 'tool-model', inputMessage: 'hi', pluginIds: ['nope', 'read_url'] })).json();
    expect(unknown).toMatchObject({ Code: 10404, Data: null });
    const unset = (await add(bare, someone.token, { aiModelId: 'tool-model', inputMessage: 'hi', pluginIds: ['generate_image'] })).json();
    expect(unset).toMatchObject({ Code: 10461, Data: null });
    expect(unset.Msg).toMatch(/Image generation plugin is not set up/);
    expect(fake.requests).toHaveLength(0);
    expect(await pointsOf(bare, someone.userId)).toBe(before);
  });
});

describe('function plugins, AddDraw', () => {
  it('draws an image, keeps it as the caller’s media item, and charges the generate_image plugin’s points', async () => {
    const before = await pointsOf(t, user.userId);
    const res = (await api(t.app, user).post('/api/Chat/AddDraw', { prompt: 'a lighthouse at dusk', size: '512x512' })).json();
    expect(res.Code).toBe(10000);
    expect(res.Data).toEqual({ chatMediaId: expect.any(String), imgSrcAll: expect.stringContaining(`chatMediaId=${res.Data.chatMediaId}`) });
    expect(images.requests[0].body).toMatchObject({ prompt: 'a lighthouse at dusk', size: '512x512' });
    const [media] = await t.database.db.select().from(chatMedia).where(eq(chatMedia.id, res.Data.chatMediaId));
    expect(media).toMatchObject({ userId: user.userId, mediaType: 'image', purpose: 'draw', mimeType: 'image/png' });
    expect((await api(t.app).get(res.Data.imgSrcAll)).rawPayload.equals(TINY_PNG)).toBe(true);
    expect(await pointsOf(t, user.userId)).toBe(before - 10);
    // The default size.
    await api(t.app, user).post('/api/Chat/AddDraw', { prompt: 'a boat' });
    expect(images.requests[1].body.size).toBe('1024x1024');
  });

  it('answers 10502 and gives the points back when the images service fails', async () => {
    images.failWith(500);
    const before = await pointsOf(t, user.userId);
    const res = (await api(t.app, user).post('/api/Chat/AddDraw', { prompt: 'a lighthouse' })).json();
    expect(res).toMatchObject({ Code: 10502, Data: null, Msg: expect.stringMatching(/could not be generated/) });
    expect(await pointsOf(t, user.userId)).toBe(before);
  });

  it('answers 10461 when images are not configured, and 10400 for a bad prompt or size', async () => {
    const someone = await createUser(bare.app);
    const res = (await api(bare.app, someone).post('/api/Chat/AddDraw', { prompt: 'a lighthouse' })).json();
    expect(res).toMatchObject({ Code: 10461, Data: null, Msg: expect.stringMatching(/IMAGES_BASE_URL/) });
    expect((await api(t.app, user).post('/api/Chat/AddDraw', { prompt: '   ' })).json().Code).toBe(10400);
    expect((await api(t.app, user).post('/api/Chat/AddDraw', { prompt: 'x', size: '4096x4096' })).json().Code).toBe(10400);
    expect(images.requests).toHaveLength(0);
  });
});
