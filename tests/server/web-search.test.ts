import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveModelSchema } from '../../shared/contracts/model.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { createSearchProvider, SEARCH_TIMEOUT_MS, SearchError } from '../../server/providers/web-search.ts';
import { adminSaveModel } from '../../server/services/catalogue/catalogue-admin.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeSearxng, type FakeSearxng } from '../fixtures/fake-searxng.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { parseChatStream, textOf, type StreamEvent } from '../helpers/chat.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

const article = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>
<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>${body}</article><footer>© Field Notes</footer></body></html>`;

const OTTERS = article(
  'Sea otters',
  `<p>Sea otters hold hands while they sleep, so that they do not drift apart. This is called rafting.</p>
   <p>${'They eat sea urchins, crabs and clams, and use stones as tools to open shells. '.repeat(8)}</p>`,
);
const RAFTS = article(
  'Otter rafts',
  `<p>A group of resting otters is a raft; rafts of over a thousand otters have been seen in Alaska.</p>
   <p>${'Rafts float in kelp beds, which the otters wrap around themselves as anchors. '.repeat(8)}</p>`,
);

type Extras = { Citations?: { index: number; title: string; url: string }[] };
const extrasOf = (e: StreamEvent) => e.Data as StreamEvent['Data'] & Extras;

describe('web search for AddMessage (webSearch: true)', () => {
  let searx: FakeSearxng;
  let fake: FakeOpenAI;
  let t: TestApp;
  let user: TestUser;

  const add = (app: TestApp, token: string, body: Record<string, unknown>) => api(app.app, token).post('/api/Chat/AddMessage', body);
  const pointsOf = async (app: TestApp, userId: string) =>
    (await getIntegral(app.database.db, userId, app.config.FREE_DAILY_POINTS))[0].integralValue;
  const settingOf = async (app: TestApp, key: string) =>
    (await api(app.app).getBody('/api/System/GetSettingListAll')).Data.find((s: { settingKey: string }) => s.settingKey === key)
      ?.settingValue;

  beforeAll(async () => {
    searx = await startFakeSearxng();
    fake = await startFakeOpenAI();
    t = await createTestApp({
      ...fakeOpenAIEnv(fake, 'search-model,plain-model'),
      SEARXNG_URL: searx.url,
      READER_ALLOWLIST: searx.host,
    });
    // An operator's model that may not search (the catalogue's webSearch flag).
    await adminSaveModel(t.app.ctx, SaveModelSchema.parse({ aiModelId: 'plain-model', name: 'plain-model', webSearch: false }));
    user = await createUser(t.app);
    searx.pages.set('otters', OTTERS);
    searx.pages.set('rafts', RAFTS);
    searx.pages.set('broken', { status: 500 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await searx.close();
  });
  beforeEach(() => {
    fake.reset();
    searx.reset();
  });

  it('searches the question, reads the result pages, sends the Citations before the text, stores them and lists them', async () => {
    searx.results([
      { title: 'Sea otters | Field Notes', url: searx.page('otters'), content: 'Otters hold hands.' },
      { title: 'A page that fails', url: searx.page('broken'), content: 'Broken.' },
      { title: 'Otter rafts', url: searx.page('rafts'), content: 'Rafts of otters.' },
    ]);
    fake.script('search-model', { chunks: ['Otters hold hands ', 'to stay together [1], ', 'in rafts [2].'] });
    const before = await pointsOf(t, user.userId);

    const res = await add(t, user.token, { aiModelId: 'search-model', inputMessage: '  Why do sea otters\nhold hands?  ', webSearch: true });
    const events = parseChatStream(res.body);
    expect(events.every((e) => e.Code === 10000)).toBe(true);
    expect(textOf(events)).toBe('Otters hold hands to stay together [1], in rafts [2].');
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');

    // The failing result is skipped; the others keep the search's order, numbered from 1.
    const citations = [
      { index: 1, title: 'Sea otters | Field Notes', url: searx.page('otters') },
      { index: 2, title: 'Otter rafts', url: searx.page('rafts') },
    ];
    const withCitations = events.findIndex((e) => extrasOf(e).Citations);
    expect(withCitations).toBeGreaterThan(0);
    expect(extrasOf(events[withCitations]).Citations).toEqual(citations);
    const firstText = events.findIndex((e) => e.Data.OutputMessage !== '');
    expect(withCitations).toBeLessThan(firstText);

    // The provider got the question as a SearXNG JSON query.
    expect(searx.requests).toHaveLength(1);
    const searched = new URL(searx.requests[0].url, searx.url);
    expect(searched.pathname).toBe('/search');
    expect(searched.searchParams.get('q')).toBe('Why do sea otters hold hands?');
    expect(searched.searchParams.get('format')).toBe('json');

    // The model got the pages as numbered sources, asked to cite them, before the conversation.
    const messages = fake.requests[0].body.messages as { role: string; content: any }[];
    expect(messages[0].role).toBe('system');
    const system = messages[0].content as string;
    expect(system).toContain(`<source index="1" title="Sea otters | Field Notes" url="${searx.page('otters')}">`);
    expect(system).toContain('Sea otters hold hands while they sleep');
    expect(system).toContain(`<source index="2" title="Otter rafts" url="${searx.page('rafts')}">`);
    expect(system).toContain('rafts of over a thousand otters');
    expect(system).toMatch(/cite .*\[1\], \[2\]/);
    expect(system).not.toContain('A page that fails');
    expect(messages.at(-1)).toMatchObject({ role: 'user' });

    const messageId = events[0].Data.ChatMessageId;
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, messageId));
    expect(row.citations).toEqual(citations);
    const listed = await api(t.app, user).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${events[0].Data.ChatSessionId}`);
    expect(listed.json().Data.list[0].citations).toEqual(citations);
    // Charged like any message of the model: the search itself costs nothing more.
    expect(await pointsOf(t, user.userId)).toBe(before - 1);
  });

  it('tells the model when no result could be read, and sends an empty Citations list', async () => {
    searx.results([{ title: 'A page that fails', url: searx.page('broken'), content: '' }]);
    fake.script('search-model', { chunks: ['Nothing found.'] });
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'search-model', inputMessage: 'otters?', webSearch: true })).body);
    expect(events.find((e) => extrasOf(e).Citations)?.Data).toMatchObject({ Citations: [] });
    expect(fake.requests[0].body.messages[0].content).toContain('no result could be read');
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
  });

  it('refuses a model that may not search (10400) before any search, upstream call or charge; auto picks one that may', async () => {
    const before = await pointsOf(t, user.userId);
    const res = (await add(t, user.token, { aiModelId: 'plain-model', inputMessage: 'otters?', webSearch: true })).json();
    expect(res).toMatchObject({ Code: 10400, Data: null });
    expect(res.Msg).toMatch(/plain-model cannot search the web/);
    expect(searx.requests).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
    expect(await pointsOf(t, user.userId)).toBe(before);

    searx.results([{ title: 'Sea otters', url: searx.page('otters'), content: '' }]);
    for (let i = 0; i < 3; i++) {
      const events = parseChatStream((await add(t, user.token, { aiModelId: 'auto', inputMessage: `otters ${i}?`, webSearch: true })).body);
      expect(events.at(-1)!.Data.ModelId).toBe('search-model');
    }
  });

  it('ends with 10502 and gives the points back when the search provider fails', async () => {
    searx.failWith(503);
    const before = await pointsOf(t, user.userId);
    const events = parseChatStream((await add(t, user.token, { aiModelId: 'search-model', inputMessage: 'otters?', webSearch: true })).body);
    const last = events.at(-1)!;
    expect(last.Code).toBe(10502);
    expect(last.Msg).toMatch(/web search failed/);
    expect(last.Data.FinishReason).toBe('error');
    expect(fake.requests).toHaveLength(0);
    expect(await pointsOf(t, user.userId)).toBe(before);
  });

  it('stops during the search: user-stopped, and the model is never called', async () => {
    // The search never answers while held: the chat can only end because the stop ended it.
    const release = searx.hold();
    const pending = add(t, user.token, { aiModelId: 'search-model', inputMessage: 'slow otters?', webSearch: true });
    await vi.waitUntil(() => searx.requests.length > 0, { timeout: 5000, interval: 20 });
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.inputMessage, 'slow otters?'));
    const stop = await api(t.app, user).post('/api/Chat/StopMessage', { chatMessageId: row.id });
    expect(stop.json().Code).toBe(10000);
    // The stop ends the search request itself: Tandem hangs up on the held search, long before the
    // search's own time limit would have (a stop that only waited for the search would pass the rest).
    await vi.waitUntil(() => searx.abandoned === 1, { timeout: SEARCH_TIMEOUT_MS / 2, interval: 20 });
    const events = parseChatStream((await pending).body);
    expect(events.at(-1)).toMatchObject({ Code: 10000, Data: { FinishReason: 'user-stopped' } });
    release();
    expect(fake.requests).toHaveLength(0);
    expect((await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, row.id)))[0].finishReason).toBe('user-stopped');
  });

  it('shows the provider in use in the public setting web_search_provider', async () => {
    expect(await settingOf(t, 'web_search_provider')).toBe('searxng');
  });

  describe('without a search provider', () => {
    let bare: TestApp;
    let someone: TestUser;
    beforeAll(async () => {
      bare = await createTestApp(fakeOpenAIEnv(fake, 'search-model'));
      someone = await createUser(bare.app);
    });
    afterAll(() => bare.close());

    it('answers webSearch with 10461 saying web search is not set up, with no upstream call and no charge', async () => {
      const before = await pointsOf(bare, someone.userId);
      for (const lang of ['en', 'zh']) {
        const res = await api(bare.app, someone).post('/api/Chat/AddMessage', { aiModelId: 'search-model', inputMessage: 'otters?', webSearch: true }, { lang });
        const body = res.json();
        expect(body).toMatchObject({ Code: 10461, Data: null });
        expect(body.Msg).toMatch(lang === 'en' ? /Web search is not set up.*SEARXNG_URL/ : /联网搜索/);
      }
      expect(fake.requests).toHaveLength(0);
      expect(await pointsOf(bare, someone.userId)).toBe(before);
      expect(await bare.database.db.select().from(chatMessages).where(eq(chatMessages.userId, someone.userId))).toEqual([]);
      // The same message without web search is answered.
      const events = parseChatStream((await add(bare, someone.token, { aiModelId: 'search-model', inputMessage: 'otters?', webSearch: false })).body);
      expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    });

    it('leaves the public setting web_search_provider empty', async () => {
      expect(await settingOf(bare, 'web_search_provider')).toBe('');
    });
  });
});

describe('search providers (request formats, against fakes over HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const json = (body: unknown) => (_req: unknown, res: import('node:http').ServerResponse) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('SearXNG: GET /search?q=&format=json; content is the snippet; addresses once, http(s) only, at most count', async () => {
    server.handle(
      json({
        results: [
          { title: 'One', url: 'https://one.example/a', content: 'first' },
          { title: 'One again', url: 'https://one.example/a', content: 'duplicate' },
          { title: 'Script', url: 'javascript:alert(1)', content: 'no' },
          { title: '', url: 'https://two.example/', content: 'second' },
          { title: 'Three', url: 'https://three.example/', content: 'third' },
        ],
      }),
    );
    const provider = createSearchProvider(loadConfig({ SEARXNG_URL: `${server.url}/searx/` }))!;
    expect(provider.name).toBe('searxng');
    const results = await provider.search('sea otters & kelp', { count: 2 });
    expect(results).toEqual([
      { title: 'One', url: 'https://one.example/a', snippet: 'first' },
      { title: 'https://two.example/', url: 'https://two.example/', snippet: 'second' },
    ]);
    const seen = new URL(server.requests[0].url, server.url);
    expect(server.requests[0].method).toBe('GET');
    expect(seen.pathname).toBe('/searx/search');
    expect(Object.fromEntries(seen.searchParams)).toEqual({ q: 'sea otters & kelp', format: 'json' });
  });

  it('Tavily: POST /search with the key as a bearer token and {query, max_results}', async () => {
    server.handle(json({ query: 'otters', results: [{ title: 'Otters', url: 'https://otters.example/', content: 'They raft.', score: 0.9 }] }));
    const provider = createSearchProvider(loadConfig({ TAVILY_API_KEY: 'tvly-test', TAVILY_BASE_URL: server.url }))!;
    expect(provider.name).toBe('tavily');
    expect(await provider.search('otters', { count: 3 })).toEqual([{ title: 'Otters', url: 'https://otters.example/', snippet: 'They raft.' }]);
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/search');
    expect(req.headers.authorization).toBe('Bearer tvly-test');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ query: 'otters', max_results: 3, search_depth: 'basic' });
  });

  it('Brave: GET /web/search?q=&count= with X-Subscription-Token; its <strong> marks are removed', async () => {
    server.handle(
      json({ web: { results: [{ title: '<strong>Sea</strong> otters', url: 'https://brave.example/otters', description: 'They <strong>hold</strong> hands.' }] } }),
    );
    const provider = createSearchProvider(loadConfig({ BRAVE_SEARCH_API_KEY: 'brave-key', BRAVE_BASE_URL: `${server.url}/res/v1` }))!;
    expect(provider.name).toBe('brave');
    expect(await provider.search('sea otters', { count: 4 })).toEqual([
      { title: 'Sea otters', url: 'https://brave.example/otters', snippet: 'They hold hands.' },
    ]);
    const [req] = server.requests;
    const seen = new URL(req.url, server.url);
    expect(req.method).toBe('GET');
    expect(seen.pathname).toBe('/res/v1/web/search');
    expect(Object.fromEntries(seen.searchParams)).toEqual({ q: 'sea otters', count: '4' });
    expect(req.headers['x-subscription-token']).toBe('brave-key');
    expect(req.headers.accept).toBe('application/json');
  });

  it('fails with a SearchError on an error status or an answer that is not JSON', async () => {
    const provider = createSearchProvider(loadConfig({ SEARXNG_URL: server.url }))!;
    server.handle((_req, res) => void res.writeHead(429).end('slow down'));
    await expect(provider.search('x', { count: 1 })).rejects.toBeInstanceOf(SearchError);
    server.handle((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    await expect(provider.search('x', { count: 1 })).rejects.toBeInstanceOf(SearchError);
  });

  it('is chosen by the environment: WEB_SEARCH_PROVIDER among several, else SearXNG, Tavily, Brave in that order', () => {
    const all = { SEARXNG_URL: 'http://searx.internal:8080', TAVILY_API_KEY: 'tvly', BRAVE_SEARCH_API_KEY: 'brave' };
    expect(createSearchProvider(loadConfig(all))!.name).toBe('searxng');
    expect(createSearchProvider(loadConfig({ ...all, WEB_SEARCH_PROVIDER: 'brave' }))!.name).toBe('brave');
    expect(createSearchProvider(loadConfig({ TAVILY_API_KEY: 'tvly', BRAVE_SEARCH_API_KEY: 'brave' }))!.name).toBe('tavily');
    expect(createSearchProvider(loadConfig({}))).toBeNull();
    expect(() => loadConfig({ WEB_SEARCH_PROVIDER: 'tavily' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEB_SEARCH_PROVIDER: 'google' })).toThrow(/WEB_SEARCH_PROVIDER/);
    expect(loadConfig({}).WEB_SEARCH_RESULTS).toBe(5);
  });
});
