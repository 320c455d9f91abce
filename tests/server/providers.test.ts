import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Provider } from '../../shared/contracts/model.ts';
import { aiDeployments } from '../../server/db/schema/models.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { adminSaveDeployment } from '../../server/services/catalogue/catalogue-admin.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import { sourcesPreamble } from '../../server/services/search/web-search.ts';
import { startFakeAnthropic, type AnthropicScript } from '../fixtures/fake-anthropic.ts';
import { startFakeGoogle, type GoogleScript } from '../fixtures/fake-google.ts';
import { startFakeSearxng, type FakeSearxng } from '../fixtures/fake-searxng.ts';
import { http } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listening, parseChatStream, textOf } from '../helpers/chat.ts';
import type { ModelRequest, ScriptedFake } from '../helpers/http-server.ts';
import { createUser, grantVip, type TestUser } from '../helpers/users.ts';

/**
 * Chats through the Anthropic and Google providers (the AI SDK's @ai-sdk/anthropic and
 * @ai-sdk/google) against fakes that speak their streaming protocols over real HTTP: the catalogue
 * seeded from the environment, AddMessage end to end, what the upstream receives, failover and errors.
 */

const SECRET_KEY = 'providers-test-secret-key-0123456789abcd';

type Script = AnthropicScript & GoogleScript;
type Fake = ScriptedFake<Script, ModelRequest>;
type Turn = { role: 'user' | 'assistant'; text: string };

/** What differs between the providers; the tests below are the same for both. */
type Upstream = {
  provider: Provider;
  /** Prefix of the upstream model ids. */
  family: string;
  start(): Promise<Fake>;
  /** The key the tests configure: the variable that sets it and the header it travels in (the base URL and the models are {PROVIDER}_BASE_URL and {PROVIDER}_MODELS). */
  key: { env: string; value: string; header: string };
  path(model: string): string;
  /** The request body's conversation and system prompt, in the provider's wire format. */
  wire(turns: Turn[], system?: string): object;
  systemField: string;
  /** Ends the answer at the output limit. */
  lengthScript: Script;
  /** Failures before the first text: each fails over to the next deployment. */
  early: { label: string; script: Script }[];
  /** Failures after some text: each ends the answer with an error, keeping the text. */
  midStream: { label: string; mode: 'error' | 'drop' }[];
  /** An answer the provider ends with a finish reason that means an error, where it has one. */
  errorFinish?: Script;
};

/** The variables that point the server at the fake upstream with the test key and models. */
function upstreamEnv(up: Upstream, fake: Fake, models: string[]): Record<string, string> {
  const prefix = up.provider.toUpperCase();
  return { [up.key.env]: up.key.value, [`${prefix}_BASE_URL`]: fake.baseUrl, [`${prefix}_MODELS`]: models.join(', ') };
}

const anthropic: Upstream = {
  provider: 'anthropic',
  family: 'claude',
  start: startFakeAnthropic,
  key: { env: 'ANTHROPIC_API_KEY', value: 'sk-ant-env-key-1234', header: 'x-api-key' },
  path: () => '/v1/messages',
  wire: (turns, system) => ({
    messages: turns.map((t) => ({ role: t.role, content: [{ type: 'text', text: t.text }] })),
    ...(system ? { system: [{ type: 'text', text: system }] } : {}),
  }),
  systemField: 'system',
  lengthScript: { chunks: ['cut ', 'sho'], stopReason: 'max_tokens' },
  early: [
    { label: 'answers 529 overloaded_error', script: { status: 529 } },
    { label: 'answers 401 authentication_error', script: { status: 401 } },
    { label: 'answers 200 with an overloaded_error event first', script: { overloadedFirst: true } },
    { label: 'sends an error event before any text', script: { failAfter: { chunks: 0, mode: 'error' } } },
  ],
  midStream: [
    { label: 'sends an error event', mode: 'error' },
    { label: 'drops the connection', mode: 'drop' },
  ],
};

const google: Upstream = {
  provider: 'google',
  family: 'gemini',
  start: startFakeGoogle,
  key: { env: 'GOOGLE_GENERATIVE_AI_API_KEY', value: 'AIza-env-key-5678', header: 'x-goog-api-key' },
  path: (model) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
  wire: (turns, system) => ({
    contents: turns.map((t) => ({ role: t.role === 'assistant' ? 'model' : 'user', parts: [{ text: t.text }] })),
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
  }),
  systemField: 'systemInstruction',
  lengthScript: { chunks: ['cut ', 'sho'], finishReason: 'MAX_TOKENS' },
  early: [
    { label: 'answers 429 RESOURCE_EXHAUSTED', script: { status: 429 } },
    { label: 'answers 500 INTERNAL', script: { status: 500 } },
    { label: 'sends an error event before any text', script: { failAfter: { chunks: 0, mode: 'error' } } },
  ],
  midStream: [
    { label: 'drops the connection', mode: 'drop' },
    { label: 'sends an error event', mode: 'error' },
  ],
  errorFinish: { chunks: ['Let ', 'me '], finishReason: 'MALFORMED_FUNCTION_CALL' },
};

for (const up of [anthropic, google]) {
  // Each provider's app and fake, for the two describes after them.
  const f = up.family;
  /** Catalogue models, one upstream id each: `id` or `id:level`. */
  const MODELS = [
    `${f}-test:1`,
    `${f}-plain`,
    `${f}-long`,
    ...up.early.map((_, i) => `${f}-failover-${i}`),
    `${f}-busy`,
    ...up.midStream.map((m) => `${f}-mid-${m.mode}`),
    `${f}-error-finish`,
  ];
  let fake: Fake;
  let searx: FakeSearxng;
  let t: TestApp;
  let baseUrl: string;
  let user: TestUser;

  const add = async (body: Record<string, unknown>) => {
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return parseChatStream(await res.text());
  };
  const storedMessages = async (sessionId: string) => {
    const res = await http(baseUrl, user).get(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}`);
    const { Code, Data } = await res.json();
    expect(Code).toBe(10000);
    return Data.list as { inputMessage: string; outputMessage: string; finishReason: string | null; aiModelId: string; modelName: string }[];
  };
  const pointsOf = async () => (await getIntegral(t.database.db, user.userId, t.config.FREE_DAILY_POINTS))[0].integralValue;

  beforeAll(async () => {
    fake = await up.start();
    searx = await startFakeSearxng();
    t = await createTestApp({ SECRET_KEY, SEARXNG_URL: searx.url, ...upstreamEnv(up, fake, MODELS) });
    // A deployment seeded without the fake's base URL would send the key to the real API.
    const stray = (await t.database.db.select().from(aiDeployments)).filter((d) => d.baseUrl !== fake.baseUrl);
    if (stray.length) throw new Error(`seeded deployments not pointing at the fake: ${stray.map((d) => `${d.upstreamModelId} → ${d.baseUrl}`).join(', ')}`);
    baseUrl = await listening(t.app);
    user = await createUser(t.app);
    await grantVip(t.app, user.userId, 1);
  });
  afterAll(async () => {
    t?.app.server.closeAllConnections();
    await t?.close();
    await fake?.close();
    await searx?.close();
  });
  beforeEach(() => fake.reset());

  describe(`chatting through ${up.provider}: answers`, () => {
    it('seeds the catalogue from the environment, with the key encrypted, contacting no upstream', async () => {
      const { Code, Data } = await (await fetch(`${baseUrl}/api/AiModel/GetModelListAll`)).json();
      expect(Code).toBe(10000);
      const byId = new Map<string, Record<string, unknown>>(Data.map((m: { aiModelId: string }) => [m.aiModelId, m]));
      expect([...byId.keys()].sort()).toEqual(['auto', ...MODELS.map((m) => m.replace(/:\d$/, ''))].sort());
      expect(byId.get(`${f}-test`)).toMatchObject({ name: `${f}-test`, minVipLevel: 1, minVipLevelName: 'Standard', pointsCost: 2 });
      expect(byId.get(`${f}-plain`)).toMatchObject({ name: `${f}-plain`, minVipLevel: 0, pointsCost: 1 });
      const rows = await t.database.db.select().from(aiDeployments).where(eq(aiDeployments.source, 'env'));
      expect(rows).toHaveLength(MODELS.length);
      for (const row of rows) {
        expect(row).toMatchObject({ provider: up.provider, baseUrl: fake.baseUrl, source: 'env', enabled: true });
        expect(row.upstreamModelId).toBe(row.aiModelId);
        expect(row.apiKeyEnc).toMatch(/^v1\./);
        expect(row.apiKeyEnc).not.toContain(up.key.value);
      }
      expect(fake.requests).toHaveLength(0);
    });

    it('streams the answer exactly through awkward chunking and split characters, ends with stop and DONE, and stores it', async () => {
      // An emoji split between its UTF-16 halves and a ZWJ sequence split in two deltas; the fake
      // also cuts the SSE bytes inside multi-byte characters.
      const chunks = ['Hel', 'lo, ', 'wörld ', '\ud83d', '\ude00', ' 中文', ' 👩\u200d', '💻', ' — done'];
      fake.script(`${f}-test`, { chunks, awkward: true });
      const events = await add({ aiModelId: `${f}-test`, inputMessage: 'Say hello' });
      const expected = chunks.join('');
      expect(expected).toBe('Hello, wörld 😀 中文 👩‍💻 — done');
      expect(events.every((e) => e.Code === 10000 && e.Data.ModelId === `${f}-test`)).toBe(true);
      expect(events.slice(0, -1).every((e) => e.Data.FinishReason === null)).toBe(true);
      expect(events.at(-1)!.Data.FinishReason).toBe('stop');
      expect(textOf(events)).toBe(expected);
      expect(await storedMessages(events[0].Data.ChatSessionId)).toEqual([
        expect.objectContaining({ inputMessage: 'Say hello', outputMessage: expected, finishReason: 'stop', aiModelId: `${f}-test`, modelName: `${f}-test` }),
      ]);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({ method: 'POST', path: up.path(`${f}-test`), model: `${f}-test` });
    });

    it('reports an answer cut at the output limit as length', async () => {
      fake.script(`${f}-long`, up.lengthScript);
      const events = await add({ aiModelId: `${f}-long`, inputMessage: 'Write a lot' });
      expect(textOf(events)).toBe('cut sho');
      expect(events.at(-1)!.Data.FinishReason).toBe('length');
      expect((await storedMessages(events[0].Data.ChatSessionId))[0]).toMatchObject({ outputMessage: 'cut sho', finishReason: 'length' });
    });

    it('sends the key, the model, the system prompt and the earlier exchanges of the session', async () => {
      const first = await add({ aiModelId: `${f}-plain`, inputMessage: 'First question' });
      const sessionId = first[0].Data.ChatSessionId;
      expect(textOf(first)).toBe('Echo: First question');
      // webSearch gives the model a system prompt (the search found nothing here).
      const second = await add({ chatSessionId: sessionId, aiModelId: `${f}-plain`, inputMessage: 'And now? 🙂', webSearch: true });
      expect(second[0].Data.ChatSessionId).toBe(sessionId);
      expect(textOf(second)).toBe('Echo: And now? 🙂');
      expect(searx.requests).toHaveLength(1);

      expect(fake.requests).toHaveLength(2);
      for (const r of fake.requests) {
        expect(r).toMatchObject({ method: 'POST', path: up.path(`${f}-plain`), model: `${f}-plain` });
        expect(r.headers[up.key.header]).toBe(up.key.value);
        if (up.provider === 'anthropic') expect(r.headers['anthropic-version']).toBe('2023-06-01');
      }
      const [one, two] = fake.requests;
      expect(one.body).toMatchObject(up.wire([{ role: 'user', text: 'First question' }]));
      expect(one.body[up.systemField]).toBeUndefined();
      expect(two.body).toMatchObject(
        up.wire(
          [
            { role: 'user', text: 'First question' },
            { role: 'assistant', text: 'Echo: First question' },
            { role: 'user', text: 'And now? 🙂' },
          ],
          sourcesPreamble([]),
        ),
      );
      expect((await storedMessages(sessionId)).map((m) => m.outputMessage)).toEqual(['Echo: First question', 'Echo: And now? 🙂']);
    });
  });

  describe(`chatting through ${up.provider}: failing upstreams`, () => {
    for (const [i, { label, script }] of up.early.entries()) {
      it(`fails over to the model's next deployment when the upstream ${label}`, async () => {
        const aiModelId = `${f}-failover-${i}`;
        await adminSaveDeployment(t.app.ctx, {
          aiModelId,
          provider: up.provider,
          baseUrl: fake.baseUrl,
          apiKey: 'backup-key-0000',
          upstreamModelId: `${f}-backup`,
          priority: 10,
          enabled: true,
        });
        fake.script(aiModelId, script);
        fake.script(`${f}-backup`, { chunks: ['saved ', 'by the ', 'backup'] });
        const before = await pointsOf();
        const events = await add({ aiModelId, inputMessage: 'still there?' });
        expect(events.every((e) => e.Code === 10000)).toBe(true);
        expect(textOf(events)).toBe('saved by the backup');
        expect(events.at(-1)!.Data.FinishReason).toBe('stop');
        expect(fake.requests.map((r) => r.model)).toEqual([aiModelId, `${f}-backup`]);
        expect(fake.requests.map((r) => r.headers[up.key.header])).toEqual([up.key.value, 'backup-key-0000']);
        expect((await storedMessages(events[0].Data.ChatSessionId))[0]).toMatchObject({ outputMessage: 'saved by the backup', finishReason: 'stop' });
        expect(await pointsOf()).toBe(before - 1);
      });
    }

    it(`ends the stream with 10503 and refunds the points when the only deployment ${up.early[0].label}`, async () => {
      fake.script(`${f}-busy`, up.early[0].script);
      const before = await pointsOf();
      const events = await add({ aiModelId: `${f}-busy`, inputMessage: 'anyone?' });
      const last = events.at(-1)!;
      expect(last.Code).toBe(10503);
      expect(last.Msg).toBe('This model is busy now. Please try again later');
      expect(last.Data.FinishReason).toBe('error');
      expect(textOf(events)).toBe('');
      expect(events.slice(0, -1).every((e) => e.Code === 10000)).toBe(true);
      expect(fake.requests.map((r) => r.model)).toEqual([`${f}-busy`]);
      expect((await storedMessages(last.Data.ChatSessionId))[0]).toMatchObject({ outputMessage: '', finishReason: 'error' });
      expect(await pointsOf()).toBe(before);
      const ledger = await t.database.db.select().from(pointLedger).where(eq(pointLedger.refId, last.Data.ChatMessageId));
      // The charge (from the allowance and the balance together) and its refund.
      expect(ledger.map((l) => [l.reason, l.delta - l.allowance]).sort()).toEqual([
        ['message', -1],
        ['refund', 1],
      ]);
    });

    const { errorFinish } = up;
    if (errorFinish)
      it('ends the stream with 10503, keeping the text, when the model finishes with an error', async () => {
        fake.script(`${f}-error-finish`, errorFinish);
        const events = await add({ aiModelId: `${f}-error-finish`, inputMessage: 'call a tool' });
        const last = events.at(-1)!;
        expect(last.Code).toBe(10503);
        expect(last.Data.FinishReason).toBe('error');
        expect(textOf(events)).toBe('Let me ');
        expect((await storedMessages(last.Data.ChatSessionId))[0]).toMatchObject({ outputMessage: 'Let me ', finishReason: 'error' });
      });

    for (const { label, mode } of up.midStream) {
      it(`keeps the partial text and stores error when the upstream ${label} mid-stream`, async () => {
        const aiModelId = `${f}-mid-${mode}`;
        // The delay lets the first pieces leave before a drop.
        fake.script(aiModelId, { chunks: ['Hel', 'lo 😀 ', 'wor', 'ld'], failAfter: { chunks: 2, mode }, delayMs: 20 });
        const before = await pointsOf();
        const events = await add({ aiModelId, inputMessage: 'fail halfway' });
        const last = events.at(-1)!;
        expect(last.Code).toBe(10503);
        // Said as what happened, not "busy"; a flat-priced answer broken off is given back (docs/economy.md#cut-off-answers).
        expect(last.Msg).toBe('The answer was cut off: the connection to the model broke before it finished. Retry to get the whole answer.');
        expect(last.Data.FinishReason).toBe('error');
        expect(textOf(events)).toBe('Hello 😀 ');
        expect((await storedMessages(last.Data.ChatSessionId))[0]).toMatchObject({ outputMessage: 'Hello 😀 ', finishReason: 'error' });
        expect(await pointsOf()).toBe(before);
      });
    }
  });
}
