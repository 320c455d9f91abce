import { request } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { chatMedia } from '../../server/db/schema/media.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { adminSaveDeployment } from '../../server/services/catalogue/catalogue-admin.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, headersFor, http, type RequestOptions } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { closeChatApp, startChatApp } from '../helpers/chat-apps.ts';
import { listening, parseChatStream, readStream, textOf } from '../helpers/chat.ts';
import { createUser, grantVip } from '../helpers/users.ts';

const MODELS = 'basic-model,adv-model:2,broken-model,mid-fail-model,slow-model,failover-model,rapid-model';

let fake: FakeOpenAI;
let t: TestApp;
let user: { userId: string; token: string };
let baseUrl: string;

const add = (token: string, body: Record<string, unknown>, options: RequestOptions = {}) => api(t.app, token).post('/api/Chat/AddMessage', body, options);
const messageRow = async (id: string) => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];
const pointsOf = async (userId: string) => (await getIntegral(t.database.db, userId, t.config.FREE_DAILY_POINTS))[0].integralValue;

beforeAll(async () => {
  ({ fake, t, user, baseUrl } = await startChatApp(MODELS));
});
afterAll(() => closeChatApp(t, fake));
beforeEach(() => fake.reset());

describe('AddMessage streaming: the stream, its history and upstream failures', () => {
  it('streams envelopes with stable ids, the echoed text, the finish reason and DONE, and stores the answer', async () => {
    const res = await add(user.token, { aiModelId: 'basic-model', inputMessage: '  Hello there\nsecond line  ' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    // What the server spent before the model call, and the database's part of it (bench/proxy-overhead).
    expect(res.headers['server-timing']).toMatch(/^prepare;dur=\d+\.\d\d, store;dur=\d+\.\d\d, wait;dur=\d+\.\d\d$/);

    const events = parseChatStream(res.body);
    expect(events.length).toBeGreaterThan(2);
    const [first] = events;
    expect(first.Data.OutputMessage).toBe('');
    for (const e of events) {
      expect(e.Code).toBe(10000);
      expect(e.Msg).toBe('');
      expect(Object.keys(e.Data).sort()).toEqual(
        ['ChatMessageId', 'ChatSessionId', 'FinishReason', 'InputMessage', 'ModelId', 'ModelName', 'OutputMessage', 'ReplaceMessage'].sort(),
      );
      expect(e.Data.ChatMessageId).toBe(first.Data.ChatMessageId);
      expect(e.Data.ChatSessionId).toBe(first.Data.ChatSessionId);
      expect(e.Data.InputMessage).toBe('Hello there\nsecond line');
      expect(e.Data.ModelId).toBe('basic-model');
      expect(e.Data.ReplaceMessage).toBe(false);
    }
    expect(events.slice(0, -1).every((e) => e.Data.FinishReason === null)).toBe(true);
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    expect(textOf(events)).toBe('Echo: Hello there\nsecond line');

    const row = await messageRow(first.Data.ChatMessageId);
    expect(row).toMatchObject({ outputMessage: 'Echo: Hello there\nsecond line', finishReason: 'stop', userId: user.userId });
    expect(row.finishedAt).toBeInstanceOf(Date);
    const [session] = await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, first.Data.ChatSessionId));
    expect(session).toMatchObject({ title: 'Hello there', userId: user.userId, describe: 'Hello there second line' });
  });

  it('keeps the text exact through awkward upstream chunking', async () => {
    fake.script('basic-model', { awkward: true });
    const input = '中文😀 and CRLF\r\nnext 🎉 line — ünïcödé';
    const res = await add(user.token, { aiModelId: 'basic-model', inputMessage: input });
    const events = parseChatStream(res.body);
    expect(textOf(events)).toBe(`Echo: ${input}`);
    expect((await messageRow(events[0].Data.ChatMessageId)).outputMessage).toBe(`Echo: ${input}`);
  });

  it('keeps the CORS headers on the stream', async () => {
    const res = await add(user.token, { aiModelId: 'basic-model', inputMessage: 'cors' }, { headers: { origin: t.config.publicUrl } });
    expect(res.headers['access-control-allow-origin']).toBe(t.config.publicUrl);
    expect(res.headers['access-control-expose-headers']).toMatch(/authorization/i);
  });

  it('sends the earlier exchanges of the session as history and names a new session from the first line', async () => {
    const long = `${'word '.repeat(20)}\nmore`;
    const first = parseChatStream((await add(user.token, { aiModelId: 'basic-model', inputMessage: long })).body);
    const sessionId = first[0].Data.ChatSessionId;
    const [session] = await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, sessionId));
    expect(Array.from(session.title)).toHaveLength(50);
    expect(session.title.endsWith('…')).toBe(true);

    const second = parseChatStream((await add(user.token, { chatSessionId: sessionId, aiModelId: 'basic-model', inputMessage: 'and now?' })).body);
    expect(second[0].Data.ChatSessionId).toBe(sessionId);
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'user', content: long.trim() },
      { role: 'assistant', content: `Echo: ${long.trim()}` },
      { role: 'user', content: 'and now?' },
    ]);
    const [after] = await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, sessionId));
    expect(after.describe).toBe('and now?');
    expect(after.lastActiveAt.getTime()).toBeGreaterThanOrEqual(session.lastActiveAt.getTime());
  });

  it('ends a mid-stream upstream failure with an error event and DONE, keeping the partial text', async () => {
    fake.script('mid-fail-model', { chunks: ['Hel', 'lo ', 'wor', 'ld'], failAfter: { chunks: 2, mode: 'error' } });
    const before = await pointsOf(user.userId);
    const res = await add(user.token, { aiModelId: 'mid-fail-model', inputMessage: 'fail please' }, { lang: 'zh-CN' });
    const events = parseChatStream(res.body);
    const last = events.at(-1)!;
    expect(last.Code).toBe(10503);
    expect(last.Msg).toBe('回答中断了：与模型的连接在回答完成前断开。请重试以获取完整回答。');
    expect(last.Data.FinishReason).toBe('error');
    expect(textOf(events)).toBe('Hello ');
    const row = await messageRow(last.Data.ChatMessageId);
    expect(row).toMatchObject({ outputMessage: 'Hello ', finishReason: 'error' });
    expect(row.errorMessage).toBeTruthy();
    // Only part of an answer: a flat-priced message is given back (docs/economy.md#cut-off-answers).
    expect(await pointsOf(user.userId)).toBe(before);
  });

  it('answers an upstream failure before the first token with an error event and refunds the points', async () => {
    fake.script('broken-model', { status: 500 });
    const before = await pointsOf(user.userId);
    const res = await add(user.token, { aiModelId: 'broken-model', inputMessage: 'anyone?' });
    const events = parseChatStream(res.body);
    const last = events.at(-1)!;
    expect(last.Code).toBe(10503);
    expect(last.Msg).toBe('This model is busy now. Please try again later');
    expect(textOf(events)).toBe('');
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(await messageRow(last.Data.ChatMessageId)).toMatchObject({ outputMessage: '', finishReason: 'error' });
    expect(await pointsOf(user.userId)).toBe(before);
    const ledger = await t.database.db.select().from(pointLedger).where(eq(pointLedger.refId, last.Data.ChatMessageId));
    // The charge (from the allowance and the balance together) and its refund.
    expect(ledger.map((l) => [l.reason, l.delta - l.allowance]).sort()).toEqual([
      ['message', -1],
      ['refund', 1],
    ]);
  });

  it('fails over to the next deployment when the first answers 500', async () => {
    await adminSaveDeployment(t.app.ctx, {
      aiModelId: 'failover-model',
      provider: 'openai-compatible',
      baseUrl: fake.baseUrl,
      apiKey: 'test',
      upstreamModelId: 'failing-upstream',
      priority: -10,
      enabled: true,
    });
    fake.script('failing-upstream', { status: 500 });
    const events = parseChatStream((await add(user.token, { aiModelId: 'failover-model', inputMessage: 'still there?' })).body);
    expect(events.every((e) => e.Code === 10000)).toBe(true);
    expect(textOf(events)).toBe('Echo: still there?');
    expect(fake.requests.map((r) => r.model)).toEqual(['failing-upstream', 'failover-model']);
  });
});

describe('AddMessage streaming: stopping, storing and disconnects', () => {
  it('stores what was shown and user-stopped when StopMessage arrives mid-stream', async () => {
    fake.script('slow-model', { chunks: Array.from({ length: 100 }, (_, i) => `c${i} `), delayMs: 30 });
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'go slowly' });
    let stopped = false;
    const { events, done } = await readStream(res, async (e) => {
      if (!stopped && e.Data.OutputMessage) {
        stopped = true;
        const stop = await api(t.app, user).post('/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId });
        expect(stop.json()).toMatchObject({ Code: 10000 });
      }
    });
    expect(done).toBe(true);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ Code: 10000, Data: { FinishReason: 'user-stopped' } });
    const shown = textOf(events);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(100 * 4);
    expect(await messageRow(last.Data.ChatMessageId)).toMatchObject({ outputMessage: shown, finishReason: 'user-stopped' });
  });

  it('stores the answer while it streams, never splitting an emoji across writes', async () => {
    const big = 'x'.repeat(4095);
    fake.script('slow-model', { chunks: [`${big}\ud83d`, '\ude00', ...Array.from({ length: 40 }, (_, i) => ` s${i}`)], delayMs: 100 });
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'big' });
    const { events, done } = await readStream(res, async (e) => {
      if (e.Data.OutputMessage !== '\ude00') return;
      // Mid-stream, the stored text already holds the emoji whole, without waiting for the end.
      const row = await vi.waitUntil(
        async () => {
          const r = await messageRow(e.Data.ChatMessageId);
          return r.outputMessage.length > big.length ? r : null;
        },
        { timeout: 5000, interval: 20 },
      );
      expect(row.finishReason).toBeNull();
      expect(row.outputMessage.startsWith(`${big}😀`)).toBe(true);
      await api(t.app, user).post('/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId });
    });
    expect(done).toBe(true);
    expect(await messageRow(events[0].Data.ChatMessageId)).toMatchObject({ finishReason: 'user-stopped', outputMessage: textOf(events) });
  });

  it('stores many answers streaming at once, each whole and in order, while they stream and at the end', async () => {
    const chunksOf = (n: number) => Array.from({ length: 12 }, (_, i) => `a${n}-${i}·`);
    fake.script('slow-model', { chunks: chunksOf(0), delayMs: 120 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, n) => {
        const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: `many ${n}` });
        let seenStored = false;
        const { events } = await readStream(res, async (e) => {
          if (seenStored || !e.Data.OutputMessage) return;
          // Mid-stream, what is stored is a start of what was sent (no piece lost, repeated or out of order).
          const row = await messageRow(e.Data.ChatMessageId);
          if (row.finishReason === null && row.outputMessage.length > 0) {
            expect(chunksOf(0).join('').startsWith(row.outputMessage)).toBe(true);
            seenStored = true;
          }
        });
        return { id: events[0].Data.ChatMessageId, text: textOf(events), seenStored };
      }),
    );
    expect(answers.some((a) => a.seenStored)).toBe(true);
    for (const a of answers) {
      expect(a.text).toBe(chunksOf(0).join(''));
      expect(await messageRow(a.id)).toMatchObject({ finishReason: 'stop', outputMessage: a.text });
    }
  });

  it('drops NUL characters the model sends, so the answer shown is the answer stored', async () => {
    fake.script('slow-model', { chunks: ['before\u0000', '\u0000', ' after\u0000end'], delayMs: 1 });
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'nul' });
    const { events, done } = await readStream(res, () => {});
    expect(done).toBe(true);
    expect(textOf(events)).toBe('before afterend');
    expect(await messageRow(events[0].Data.ChatMessageId)).toMatchObject({ finishReason: 'stop', outputMessage: 'before afterend' });
  });

  it('finishes and stores the answer when the client goes away (a disconnect is no stop)', async () => {
    fake.script('slow-model', { chunks: Array.from({ length: 100 }, (_, i) => `d${i} `), delayMs: 5 });
    const controller = new AbortController();
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'bye' }, { signal: controller.signal });
    const { events } = await readStream(res, (e) => !!e.Data.OutputMessage);
    controller.abort();
    const id = events[0].Data.ChatMessageId;
    const row = await vi.waitUntil(
      async () => {
        const r = await messageRow(id);
        return r.finishReason ? r : null;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(row.finishReason).toBe('stop');
    expect(row.outputMessage).toBe(Array.from({ length: 100 }, (_, i) => `d${i} `).join(''));
    // The upstream was read to its end, not cut.
    expect(await vi.waitUntil(() => fake.requests.at(-1)?.outcome, { timeout: 5000, interval: 20 })).toBe('completed');
  });

  it('answers 10404 to StopMessage on another user’s message', async () => {
    const other = await createUser(t.app);
    const events = parseChatStream((await add(user.token, { aiModelId: 'basic-model', inputMessage: 'mine' })).body);
    const res = await api(t.app, other).post('/api/Chat/StopMessage', { chatMessageId: events[0].Data.ChatMessageId });
    expect(res.json().Code).toBe(10404);
  });
});

describe('AddMessage streaming: refusals, validation and charges', () => {
  it('refuses another user’s session before any upstream call or charge', async () => {
    const other = await createUser(t.app);
    const mine = parseChatStream((await add(user.token, { aiModelId: 'basic-model', inputMessage: 'private' })).body);
    fake.reset();
    const before = await pointsOf(other.userId);
    const res = await add(other.token, { chatSessionId: mine[0].Data.ChatSessionId, aiModelId: 'basic-model', inputMessage: 'intrude' });
    expect(res.json()).toMatchObject({ Code: 10404, Data: null });
    expect(fake.requests).toHaveLength(0);
    expect(await pointsOf(other.userId)).toBe(before);
    const rows = await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, other.userId));
    expect(rows).toHaveLength(0);
  });

  it('gates models by plan with a JSON envelope and no upstream call', async () => {
    const free = await createUser(t.app);
    const res = await add(free.token, { aiModelId: 'adv-model', inputMessage: 'hi' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().Code).toBe(10450);
    expect(fake.requests).toHaveLength(0);
    await grantVip(t.app, free.userId, 2);
    const events = parseChatStream((await add(free.token, { aiModelId: 'adv-model', inputMessage: 'hi' })).body);
    expect(textOf(events)).toBe('Echo: hi');
  });

  it('sends a fast model\'s pieces in a few writes, none lost', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `p${i} `);
    fake.script('rapid-model', { chunks: pieces, delayMs: 3 });
    // Each read of the raw response is what one or more writes of the server brought.
    const reads = await new Promise<string[]>((resolve, reject) => {
      const req = request(`${baseUrl}/api/Chat/AddMessage`, { method: 'POST', headers: headersFor(user, {}, true) }, (res) => {
        const got: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => got.push(chunk));
        res.on('end', () => resolve(got));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ aiModelId: 'rapid-model', inputMessage: 'quick' }));
    });
    const events = parseChatStream(reads.join(''));
    expect(textOf(events)).toBe(pieces.join(''));
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    // 40 pieces over about 120 ms, each gathered for up to 16 ms after a write: about 8 writes, not 40.
    expect(reads.length).toBeLessThan(20);
  });

  it('validates the input: empty, too long, too many media; stores media ids', async () => {
    const bad = [
      { aiModelId: 'basic-model', inputMessage: '   ' },
      { aiModelId: 'basic-model', inputMessage: 'x'.repeat(32_001) },
      { aiModelId: 'basic-model', inputMessage: 'hi', chatMediaIds: ['1', '2', '3', '4', '5', '6'] },
      { aiModelId: '', inputMessage: 'hi' },
      { aiModelId: 'basic-model', inputMessage: 42 },
    ];
    for (const body of bad) expect((await add(user.token, body)).json().Code).toBe(10400);
    expect((await add(user.token, { aiModelId: 'basic-model', inputMessage: '   ' })).json().Msg).toMatch(/Please enter a message/);
    expect((await add(user.token, { aiModelId: 'no-such-model', inputMessage: 'hi' })).json().Code).toBe(10404);
    expect(fake.requests).toHaveLength(0);

    // Media ids must name the caller's own media items (tests/server/media.test.ts reads real pages).
    expect((await add(user.token, { aiModelId: 'basic-model', inputMessage: 'hi', chatMediaIds: ['m1'] })).json().Code).toBe(10404);
    await t.database.db.insert(chatMedia).values(['m1', 'm2'].map((id) => ({ id, userId: user.userId, mediaType: 'html' as const, contentText: id })));
    const events = parseChatStream(
      (await add(user.token, { chatSessionId: '', aiModelId: 'basic-model', inputMessage: 'with media', chatMediaIds: ['m1', 'm2'], webSearch: false, pluginIds: [] }))
        .body,
    );
    expect((await messageRow(events[0].Data.ChatMessageId)).mediaIds).toEqual(['m1', 'm2']);
    // An id repeated counts once: the page reaches the model (and the context count) once.
    const repeated = parseChatStream((await add(user.token, { aiModelId: 'basic-model', inputMessage: 'again', chatMediaIds: ['m1', 'm1', 'm2'] })).body);
    expect((await messageRow(repeated[0].Data.ChatMessageId)).mediaIds).toEqual(['m1', 'm2']);
  });

  it('needs a login', async () => {
    const res = await api(t.app).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'hi' });
    expect(res.json().Code).toBe(10402);
  });

  it('answers 10470 when points do not cover the cost, with no answer from the upstream', async () => {
    const poor = await createTestApp({ ...fakeOpenAIEnv(fake, 'basic-model'), FREE_DAILY_POINTS: '0' });
    try {
      const u = await createUser(poor.app);
      // An answer slow enough to be cut off when the charge is refused (tests/server/chat-first-token.test.ts).
      fake.script('basic-model', { chunks: ['slow ', 'answer'], delayMs: 250 });
      const res = await api(poor.app, u).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'hi' });
      expect(res.json()).toMatchObject({ Code: 10470, Msg: 'Not Enough Points. Check in daily for free points.' });
      // The upstream is asked while the points are charged, and cut off when the charge is refused.
      expect(fake.requests.filter((r) => r.outcome === 'completed')).toHaveLength(0);
      const rows = await poor.database.db.select().from(chatMessages).where(and(eq(chatMessages.userId, u.userId)));
      expect(rows).toHaveLength(0);
    } finally {
      await poor.close();
    }
  });

  it('charges the model’s cost per message', async () => {
    const before = await pointsOf(user.userId);
    parseChatStream((await add(user.token, { aiModelId: 'basic-model', inputMessage: 'cost' })).body);
    expect(await pointsOf(user.userId)).toBe(before - 1);
  });
});

describe('AddMessage during shutdown', () => {
  it('ends running streams as interrupted, stored, before the instance closes', async () => {
    const fake = await startFakeOpenAI();
    const t = await createTestApp(fakeOpenAIEnv(fake, 'slow-model'));
    try {
      fake.script('slow-model', { chunks: Array.from({ length: 100 }, (_, i) => `z${i} `), delayMs: 30 });
      const user = await createUser(t.app);
      const baseUrl = await listening(t.app);
      const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'shutdown' });
      let closing: Promise<void> | undefined;
      const { events, done } = await readStream(res, (e) => {
        if (e.Data.OutputMessage && !closing) closing = t.app.close();
      });
      await closing;
      expect(done).toBe(true);
      expect(events.at(-1)!.Data.FinishReason).toBe('interrupted');
      const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, events[0].Data.ChatMessageId));
      expect(row).toMatchObject({ finishReason: 'interrupted', outputMessage: textOf(events) });
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
