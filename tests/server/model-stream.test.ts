import http, { createServer, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../server/context.ts';
import type { AuthUser } from '../../server/services/accounts/auth.ts';
import { adminSaveDeployment, adminSaveModel } from '../../server/services/catalogue/catalogue-admin.ts';
import type { ChatTurn } from '../../server/providers/upstream.ts';
import { openModelStream, resolveModel, type OpenedStream } from '../../server/services/chat/model-stream.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testSaveModel } from '../helpers/models.ts';

const SECRET_KEY = 'model-stream-test-secret-key-0123456789';

const userOf = (vipLevel: number): AuthUser => ({
  id: 'u1',
  email: 'u1@example.com',
  userName: 'u1',
  role: 'user',
  vipOrder: null,
  vipLevel,
  invitedBy: null,
});

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Whether the request's connection waits in its agent's pool for the next request (kept alive). */
function isFreeSocket(request: ClientRequest): boolean {
  const { agent } = request as ClientRequest & { agent: http.Agent };
  return Object.values(agent.freeSockets).some((sockets) => sockets?.includes(request.socket!));
}

async function collect(stream: OpenedStream): Promise<{ text: string; finish?: string }> {
  let text = '';
  let finish: string | undefined;
  for await (const part of stream.parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'finish') finish = part.reason;
  }
  return { text, finish };
}

const ask = (text: string): ChatTurn[] => [
  { role: 'system', content: 'You are a test.' },
  { role: 'user', content: text },
];

async function rejectionOf(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

// The model streams' describes share one app and fake upstream; the auto model has its own.
let t: TestApp;
let ctx: AppContext;
let fake: FakeOpenAI;
let deadUrl: string;
let n = 0;

/** A fresh model (new ids keep the per-instance health of earlier tests out of the way). */
async function model(
  deployments: { upstream: string; baseUrl?: string; priority?: number }[],
  opts: { level?: number; isImage?: boolean; cost?: number; contextWindow?: number } = {},
): Promise<string> {
  const aiModelId = `m${++n}`;
  await adminSaveModel(
    ctx,
    testSaveModel(aiModelId, {
      name: `Model ${n}`,
      minVipLevel: opts.level ?? 0,
      modelMap: { isImage: opts.isImage ?? false, fileTypes: [] },
      webSearch: true,
      pointsCost: opts.cost ?? 1,
      contextWindow: opts.contextWindow ?? 8192,
    }),
  );
  for (const [i, d] of deployments.entries()) {
    await adminSaveDeployment(ctx, {
      aiModelId,
      provider: 'openai-compatible',
      baseUrl: d.baseUrl ?? fake.baseUrl,
      apiKey: 'sk-test-key-1234',
      upstreamModelId: d.upstream,
      priority: d.priority ?? i,
      enabled: true,
    });
  }
  return aiModelId;
}

const open = async (aiModelId: string, text = 'hi', signal = new AbortController().signal, firstTextTimeoutMs?: number) =>
  openModelStream(ctx, await resolveModel(ctx, { user: userOf(3), aiModelId, hasImages: false, conversationChars: text.length }), {
    messages: ask(text),
    signal,
    firstTextTimeoutMs,
  });

const requestsFor = (upstream: string) => fake.requests.filter((r) => r.model === upstream).length;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  deadUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  t = await createTestApp({ SECRET_KEY });
  ctx = t.app.ctx;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('model streams: reading an answer', () => {
  it('assembles text cut at awkward places (split UTF-8, CRLF, comments, keep-alives)', async () => {
    const chunks = ['中', '文😀', ' line\r\n', 'two ', 'ünïcødé ', '🙂🙂', ' end'];
    fake.script('awkward', { chunks, awkward: true });
    const id = await model([{ upstream: 'awkward' }]);
    const stream = await open(id);
    expect(stream).toMatchObject({ modelId: id, modelName: expect.stringMatching(/^Model /) });
    expect(await collect(stream)).toEqual({ text: chunks.join(''), finish: 'stop' });
    const sent = fake.requests.find((r) => r.model === 'awkward')!;
    expect(sent.body.stream).toBe(true);
    expect(sent.headers.authorization).toBe('Bearer sk-test-key-1234');
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('keeps the upstream connection open from one message to the next', async () => {
    fake.script('kept', { chunks: ['one ', 'two'] });
    const id = await model([{ upstream: 'kept' }]);
    // The upstream requests, to see their connections go back to the pool.
    const requests = vi.spyOn(http, 'request');
    for (let i = 0; i < 3; i++) {
      expect((await collect(await open(id))).text).toBe('one two');
      // As between two messages: the end of the body has arrived and the connection is free again.
      const request = requests.mock.results.at(-1)!.value as ClientRequest;
      await vi.waitUntil(() => isFreeSocket(request), { interval: 5 });
    }
    requests.mockRestore();
    const ports = fake.requests.filter((r) => r.model === 'kept').map((r) => r.remotePort);
    expect(ports).toHaveLength(3);
    expect(new Set(ports).size).toBe(1);
  });

  it('reports a length finish', async () => {
    fake.script('long', { chunks: ['a', 'b'], finishReason: 'length' });
    expect(await collect(await open(await model([{ upstream: 'long' }])))).toEqual({ text: 'ab', finish: 'length' });
  });
});

describe('model streams: failing over', () => {
  for (const [label, first] of [
    ['answers 500', { status: 500 }],
    ['answers 429', { status: 429 }],
    ['refuses the connection', 'dead'],
    ['fails in its first event', { failAfter: { chunks: 0, mode: 'error' as const } }],
  ] as const) {
    it(`fails over when the first deployment ${label}, and cools it down`, async () => {
      const bad = `bad-${n}`;
      const good = `good-${n}`;
      if (first !== 'dead') fake.script(bad, first);
      fake.script(good, { chunks: ['fine'] });
      const id = await model([{ upstream: bad, baseUrl: first === 'dead' ? deadUrl : undefined }, { upstream: good }]);
      const s1 = await open(id);
      expect(await collect(s1)).toEqual({ text: 'fine', finish: 'stop' });
      const badCalls = requestsFor(bad);
      expect(badCalls).toBe(first === 'dead' ? 0 : 1);
      expect(requestsFor(good)).toBe(1);

      // Cooling: the next message goes straight to the healthy deployment.
      const s2 = await open(id);
      expect(s2.deploymentId).toBe(s1.deploymentId);
      expect(await collect(s2)).toEqual({ text: 'fine', finish: 'stop' });
      expect(requestsFor(bad)).toBe(badCalls);
      expect(requestsFor(good)).toBe(2);
    });
  }

  it('fails over when the first deployment sends no text before the first-text timeout', async () => {
    fake.script('slow', { headerDelayMs: 2000 });
    fake.script('quick', { chunks: ['ok'] });
    const id = await model([{ upstream: 'slow' }, { upstream: 'quick' }]);
    const started = Date.now();
    expect(await collect(await open(id, 'hi', undefined, 200))).toEqual({ text: 'ok', finish: 'stop' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('tries deployments by priority', async () => {
    fake.script('second', { chunks: ['second'] });
    fake.script('first', { chunks: ['first'] });
    const id = await model([
      { upstream: 'second', priority: 5 },
      { upstream: 'first', priority: -1 },
    ]);
    expect((await collect(await open(id))).text).toBe('first');
  });

  it('gives a long answer read late whole and in order (the upstream paused, then resumed)', async () => {
    // Far more parts than the reader holds before pausing the response (QUEUED_PARTS).
    const chunks = Array.from({ length: 400 }, (_, i) => `w${i} `);
    fake.script('long-read-late', { chunks });
    const stream = await open(await model([{ upstream: 'long-read-late' }]));
    // Nothing more is read until the upstream has written the whole answer: the parts queue up.
    await vi.waitFor(() => expect(fake.requests.find((r) => r.model === 'long-read-late')?.outcome).toBe('completed'), { timeout: 5000 });
    const { text, finish } = await collect(stream);
    expect(text).toBe(chunks.join(''));
    expect(finish).toBe('stop');
  });

  for (const mode of ['error', 'drop'] as const) {
    it(`throws from the iteration when the upstream fails after the first text (${mode})`, async () => {
      // The delay lets the first chunks leave before a drop (destroying a socket discards unsent writes).
      fake.script(`mid-${mode}`, { chunks: ['one ', 'two ', 'three'], failAfter: { chunks: 2, mode }, delayMs: 20 });
      fake.script(`backup-${mode}`, { chunks: ['never'] });
      const id = await model([{ upstream: `mid-${mode}` }, { upstream: `backup-${mode}` }]);
      const stream = await open(id);
      let text = '';
      const err = await rejectionOf(
        (async () => {
          for await (const part of stream.parts) if (part.type === 'text') text += part.text;
        })(),
      );
      expect(err).toBeInstanceOf(Error);
      // A drop right after a write may discard that write.
      expect(mode === 'error' ? ['one two '] : ['one ', 'one two ']).toContain(text);
      expect(requestsFor(`backup-${mode}`)).toBe(0);
    });
  }

  it('answers 10503 when every deployment fails', async () => {
    fake.script('down-1', { status: 503 });
    fake.script('down-2', { status: 500 });
    const id = await model([{ upstream: 'down-1' }, { upstream: 'down-2' }, { upstream: 'down-3', baseUrl: deadUrl }]);
    const err = await rejectionOf(open(id));
    expect(err.code).toBe(10503);
    expect(err.key).toBe('modelBusy');
    expect(requestsFor('down-1')).toBe(1);
    expect(requestsFor('down-2')).toBe(1);
  });
});

describe('model streams: aborting', () => {
  it('stops on abort while streaming and before the first text, without cooling the deployment', async () => {
    fake.script('trickle', { chunks: Array.from({ length: 50 }, (_, i) => `${i} `), delayMs: 20 });
    const id = await model([{ upstream: 'trickle' }]);
    const ac = new AbortController();
    const stream = await open(id, 'hi', ac.signal);
    let parts = 0;
    const err = await rejectionOf(
      (async () => {
        for await (const part of stream.parts) if (part.type === 'text' && ++parts === 3) ac.abort();
      })(),
    );
    expect(err.name).toBe('AbortError');
    expect(parts).toBeLessThan(10);

    fake.script('hang', { hang: true });
    fake.script('hang-backup', { chunks: ['x'] });
    const hangId = await model([{ upstream: 'hang' }, { upstream: 'hang-backup' }]);
    const ac2 = new AbortController();
    const aborted = rejectionOf(open(hangId, 'hi', ac2.signal));
    // Aborted while the upstream holds the request, before any text.
    await vi.waitUntil(() => requestsFor('hang') === 1, { interval: 5 });
    ac2.abort();
    expect((await aborted).name).toBe('AbortError');
    expect(requestsFor('hang-backup')).toBe(0);
    // Not cooled: the next message tries it first again.
    fake.script('hang', { chunks: ['back'] });
    expect((await collect(await open(hangId))).text).toBe('back');
  });
});

describe('model streams: resolveModel', () => {
  it('refuses a model above the plan with 10450 before any upstream call', async () => {
    fake.script('premium', { chunks: ['x'] });
    const id = await model([{ upstream: 'premium' }], { level: 2 });
    const before = fake.requests.length;
    const err = await rejectionOf(resolveModel(ctx, { user: userOf(0), aiModelId: id, hasImages: false, conversationChars: 1 }));
    expect(err.code).toBe(10450);
    expect(err.params).toEqual({ model: expect.any(String), plan: 'Advanced' });
    expect(fake.requests.length).toBe(before);
    await expect(resolveModel(ctx, { user: userOf(2), aiModelId: id, hasImages: false, conversationChars: 1 })).resolves.toMatchObject({
      model: { aiModelId: id },
    });
  });

  it('answers modelNotFound for unknown ids and images sent to a text-only model', async () => {
    const id = await model([{ upstream: 'text-only' }]);
    const unknown = await rejectionOf(resolveModel(ctx, { user: userOf(3), aiModelId: 'nope', hasImages: false, conversationChars: 1 }));
    expect(unknown.code).toBe(10404);
    const images = await rejectionOf(resolveModel(ctx, { user: userOf(3), aiModelId: id, hasImages: true, conversationChars: 1 }));
    expect(images.code).toBe(10400);
  });
});

describe('the auto model', () => {
  let t: TestApp;
  let ctx: AppContext;
  let fake: FakeOpenAI;

  async function add(aiModelId: string, opts: { level: number; cost: number; contextWindow: number; isImage: boolean }, upstream = aiModelId) {
    await adminSaveModel(
      ctx,
      testSaveModel(aiModelId, {
        minVipLevel: opts.level,
        modelMap: { isImage: opts.isImage, fileTypes: [] },
        webSearch: true,
        pointsCost: opts.cost,
        contextWindow: opts.contextWindow,
      }),
    );
    await adminSaveDeployment(ctx, {
      aiModelId,
      provider: 'openai-compatible',
      baseUrl: fake.baseUrl,
      upstreamModelId: upstream,
      priority: 0,
      enabled: true,
    });
  }

  const pick = async (vipLevel: number, hasImages: boolean, conversationChars: number) =>
    (await resolveModel(ctx, { user: userOf(vipLevel), aiModelId: 'auto', hasImages, conversationChars })).model.aiModelId;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ SECRET_KEY });
    ctx = t.app.ctx;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('answers 10460 when nothing is configured', async () => {
    const err = await rejectionOf(pick(3, false, 10));
    expect(err.code).toBe(10460);
    expect(err.key).toBe('noModelConfigured');
  });

  it('picks by plan, images, conversation length and health, and reports the model used', async () => {
    await add('big-pro', { level: 2, cost: 5, contextWindow: 1_000_000, isImage: true });
    // Only a plan model exists: a free user is told which plan it needs.
    const err = await rejectionOf(pick(0, false, 10));
    expect(err.code).toBe(10450);
    expect(err.params).toEqual({ model: 'big-pro', plan: 'Advanced' });

    await add('small-text', { level: 0, cost: 1, contextWindow: 8_000, isImage: false });
    await add('mid-vision', { level: 0, cost: 3, contextWindow: 32_000, isImage: true });

    expect(await pick(0, false, 100)).toBe('small-text');
    expect(await pick(0, true, 100)).toBe('mid-vision');
    expect(await pick(0, false, 50_000)).toBe('mid-vision');
    expect(await pick(2, false, 50_000)).toBe('big-pro');
    expect(await pick(3, false, 100)).toBe('small-text');

    fake.script('small-text', { chunks: ['from small'] });
    const resolved = await resolveModel(ctx, { user: userOf(0), aiModelId: 'auto', hasImages: false, conversationChars: 2 });
    expect(resolved.requestedId).toBe('auto');
    const stream = await openModelStream(ctx, resolved, { messages: ask('hi'), signal: new AbortController().signal });
    expect(stream).toMatchObject({ modelId: 'small-text', modelName: 'small-text' });
    expect((await collect(stream)).text).toBe('from small');

    // Its only deployment fails and cools down: auto moves on to the next cheapest.
    fake.script('small-text', { status: 500 });
    expect((await rejectionOf(openModelStream(ctx, resolved, { messages: ask('hi'), signal: new AbortController().signal }))).code).toBe(
      10503,
    );
    expect(await pick(0, false, 100)).toBe('mid-vision');
  });
});
