import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { getIntegral } from '../../server/services/points/ledger.ts';
import type { FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, http } from '../helpers/api.ts';
import { onPostgres, type TestApp } from '../helpers/app.ts';
import { buses, closeChatApp, startChatApp, useTwoInstances } from '../helpers/chat-apps.ts';
import { parseChatStream, readStream, textOf, type StreamEvent } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * ResumeMessage: following an answer from an offset, on the instance that runs it and on another one,
 * while it runs and after it ended; the answer runs on when its asker goes away.
 */

/** Emoji (surrogate pairs) and Chinese, split so that one chunk ends inside a pair. */
const MIXED = ['Hi ', '\ud83d', '\ude00 你', '好，世界', ' 🎉 ', 'ok ', '数学 ∑ 😀😀', ' end'];
const MIXED_TEXT = MIXED.join('');
const longAnswer = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `你好${i} ` : i % 3 === 1 ? `😀${i} ` : `w${i} `));

const startAnswer = (baseUrl: string, token: string, aiModelId: string, signal?: AbortSignal) =>
  http(baseUrl, token).post('/api/Chat/AddMessage', { aiModelId, inputMessage: 'a long answer please' }, { signal });

const resumeUrl = (id: string, offset: number | string) => `/api/Chat/ResumeMessage?chatMessageId=${encodeURIComponent(id)}&offset=${offset}`;

/** Reads a resumed stream to its end (over real HTTP). */
async function readResumed(baseUrl: string, token: string, id: string, offset: number): Promise<{ events: StreamEvent[]; done: boolean }> {
  const res = await http(baseUrl, token).get(resumeUrl(id, offset));
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return readStream(res, () => false);
}

describe('ResumeMessage on one instance', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let user: TestUser;
  let baseUrl: string;

  const messageRow = async (id: string) => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];
  const resume = (token: string, id: string, offset: number | string) => api(t.app, token).get(resumeUrl(id, offset));

  beforeAll(async () => {
    ({ fake, t, user, baseUrl } = await startChatApp('basic-model,slow-model'));
  });
  afterAll(() => closeChatApp(t, fake));
  beforeEach(() => fake.reset());

  it('sends a finished answer from every offset, inside a surrogate pair and between Chinese characters too', async () => {
    fake.script('basic-model', { chunks: MIXED });
    const res = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'mixed' });
    const asked = parseChatStream(res.body);
    const full = textOf(asked);
    expect(full).toBe(MIXED_TEXT);
    const id = asked[0].Data.ChatMessageId;
    for (let offset = 0; offset <= full.length; offset++) {
      const answer = await resume(user.token, id, offset);
      expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
      // The body is valid UTF-8 even when it starts with the second half of a pair (escaped as \udXXX).
      expect(Buffer.from(answer.body, 'utf8').toString('utf8')).toBe(answer.body);
      const events = parseChatStream(answer.body);
      expect(full.slice(0, offset) + textOf(events), `offset ${offset}`).toBe(full);
      expect(events.at(-1)!.Data).toMatchObject({ FinishReason: 'stop', ChatMessageId: id, ChatSessionId: asked[0].Data.ChatSessionId, InputMessage: 'mixed' });
      expect(events.slice(0, -1).every((e) => e.Code === 10000 && e.Data.FinishReason === null)).toBe(true);
    }
  });

  it('follows a running answer from every offset of what was shown, live to its end, each character once', async () => {
    const chunks = ['😀你', '好🎉', ...longAnswer(40)];
    fake.script('slow-model', { chunks, delayMs: 15 });
    let shown = '';
    const followers: Promise<{ offset: number; events: StreamEvent[]; done: boolean }>[] = [];
    const res = await startAnswer(baseUrl, user.token, 'slow-model');
    const asked = await readStream(res, (e) => {
      shown += e.Data.OutputMessage;
      // Once the emoji and Chinese have arrived: a reader from every offset of them (1 and 4 are inside pairs).
      if (followers.length === 0 && shown.length >= 5) {
        for (let offset = 0; offset <= shown.length; offset++) {
          followers.push(readResumed(baseUrl, user.token, e.Data.ChatMessageId, offset).then((r) => ({ offset, ...r })));
        }
      }
    });
    expect(asked.done).toBe(true);
    const full = textOf(asked.events);
    expect(full).toBe(chunks.join(''));
    expect(followers.length).toBeGreaterThan(5);
    for (const f of await Promise.all(followers)) {
      expect(f.done).toBe(true);
      expect(full.slice(0, f.offset) + textOf(f.events), `offset ${f.offset}`).toBe(full);
      expect(f.events.at(-1)!.Data.FinishReason).toBe('stop');
    }
    expect((await messageRow(asked.events[0].Data.ChatMessageId)).outputMessage).toBe(full);
  });

  it('keeps answering after the asking client went away: resumed to its end, stored once, charged once', async () => {
    const chunks = longAnswer(60);
    fake.script('slow-model', { chunks, delayMs: 10 });
    const before = (await getIntegral(t.database.db, user.userId, t.config.FREE_DAILY_POINTS))[0].integralValue;
    const messagesOf = async () => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, user.userId))).length;
    const messagesBefore = await messagesOf();
    const controller = new AbortController();
    const res = await startAnswer(baseUrl, user.token, 'slow-model', controller.signal);
    let shown = '';
    const { events } = await readStream(res, (e) => {
      shown += e.Data.OutputMessage;
      return shown.length > 10;
    });
    controller.abort();
    const id = events[0].Data.ChatMessageId;
    // Another surface picks it up from what the first one showed.
    const followed = await readResumed(baseUrl, user.token, id, shown.length);
    expect(followed.done).toBe(true);
    expect(shown + textOf(followed.events)).toBe(chunks.join(''));
    expect(followed.events.at(-1)!.Data.FinishReason).toBe('stop');
    const row = await messageRow(id);
    expect(row).toMatchObject({ finishReason: 'stop', outputMessage: chunks.join('') });
    expect(await messagesOf()).toBe(messagesBefore + 1);
    const charges = await t.database.db.select().from(pointLedger).where(and(eq(pointLedger.refId, id), eq(pointLedger.reason, 'message')));
    expect(charges).toHaveLength(1);
    const after = (await getIntegral(t.database.db, user.userId, t.config.FREE_DAILY_POINTS))[0].integralValue;
    expect(before - after).toBe(row.pointsCost);
    expect(fake.requests).toHaveLength(1);
  });

  it('marks the chat as answering in the history while its answer is written', async () => {
    const chunks = longAnswer(30);
    fake.script('slow-model', { chunks, delayMs: 20 });
    const fresh = await createUser(t.app);
    const list = async () =>
      (await api(t.app, fresh).getBody('/api/Chat/GetChatSessionListBySelf?page=1&count=20')).Data.list as {
        chatSessionId: string;
        answering: boolean;
      }[];
    let during: { chatSessionId: string; answering: boolean }[] = [];
    const res = await startAnswer(baseUrl, fresh.token, 'slow-model');
    const { events, done } = await readStream(res, async (e) => {
      if (e.Data.OutputMessage && during.length === 0) during = await list();
    });
    expect(done).toBe(true);
    const sessionId = events[0].Data.ChatSessionId;
    expect(during).toEqual([expect.objectContaining({ chatSessionId: sessionId, answering: true })]);
    expect(await list()).toEqual([expect.objectContaining({ chatSessionId: sessionId, answering: false })]);
  });

  it('ends a resumed reader with user-stopped when the answer is stopped', async () => {
    fake.script('slow-model', { chunks: longAnswer(200), delayMs: 10 });
    const res = await startAnswer(baseUrl, user.token, 'slow-model');
    let id = '';
    await readStream(res, (e) => {
      id = e.Data.ChatMessageId;
      return !!e.Data.OutputMessage;
    });
    const reader = readResumed(baseUrl, user.token, id, 0);
    const stop = await api(t.app, user).post('/api/Chat/StopMessage', { chatMessageId: id });
    expect(stop.json().Code).toBe(10000);
    const followed = await reader;
    expect(followed.done).toBe(true);
    expect(followed.events.at(-1)!.Data.FinishReason).toBe('user-stopped');
    expect(textOf(followed.events)).toBe((await messageRow(id)).outputMessage);
  });

  it('refuses another user’s message, a signed-out caller and bad input with a clear Code', async () => {
    fake.script('basic-model', { chunks: ['short'] });
    const asked = parseChatStream((await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'mine' })).body);
    const id = asked[0].Data.ChatMessageId;
    const other = await createUser(t.app);
    const refused = await resume(other.token, id, 0);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json()).toMatchObject({ Code: 10404, Data: null });
    expect((await api(t.app).getBody(resumeUrl(id, 0))).Code).toBe(10402);

    const beyond = await resume(user.token, id, 6);
    expect(beyond.json()).toMatchObject({ Code: 10400, Data: null });
    expect(beyond.json().Msg).toContain('5');
    const zh = await api(t.app, user).get(resumeUrl(id, 6), { lang: 'zh-CN' });
    expect(zh.json().Msg).toMatch(/回答/);
    for (const offset of ['-1', '1.5', 'abc', '1e12', '99999999999999999999', `${10_000_001}`]) {
      expect((await resume(user.token, id, offset)).json().Code, offset).toBe(10400);
    }
    for (const badId of ['', '%00', 'a%00b', 'x'.repeat(65), '%ED%A0%80']) {
      expect((await api(t.app, user).getBody(`/api/Chat/ResumeMessage?chatMessageId=${badId}&offset=0`)).Code, badId).toBe(10400);
    }
    expect((await api(t.app, user).getBody('/api/Chat/ResumeMessage')).Code).toBe(10400);
    expect((await resume(user.token, 'no-such-message', 0)).json().Code).toBe(10404);
  });
});

// Two instances need a shared database: PGlite lives inside one process.
(onPostgres ? describe : describe.skip).each(buses)('ResumeMessage across two instances, bus over $name', ({ env }) => {
  const two = useTwoInstances(env, 'slow-model');

  it('follows on B, from several offsets, an answer running on A: complete and in order', async () => {
    const chunks = longAnswer(150);
    two.fake.script('slow-model', { chunks, delayMs: 15 });
    const user = await createUser(two.a.app);
    let shown = '';
    const followers: Promise<{ offset: number; events: StreamEvent[]; done: boolean }>[] = [];
    const res = await startAnswer(two.urlA, user.token, 'slow-model');
    const asked = await readStream(res, (e) => {
      shown += e.Data.OutputMessage;
      // Offsets ahead of what A has stored yet (it stores every 500 ms), behind it, and 0; one inside a pair.
      if (followers.length === 0 && shown.length > 40) {
        const pair = shown.indexOf('😀') + 1;
        for (const offset of [0, pair, 17, shown.length]) {
          followers.push(readResumed(two.urlB, user.token, e.Data.ChatMessageId, offset).then((r) => ({ offset, ...r })));
        }
      }
    });
    expect(asked.done).toBe(true);
    const full = chunks.join('');
    expect(textOf(asked.events)).toBe(full);
    for (const f of await Promise.all(followers)) {
      expect(f.done, `offset ${f.offset}`).toBe(true);
      expect(full.slice(0, f.offset) + textOf(f.events), `offset ${f.offset}`).toBe(full);
      expect(f.events.at(-1)!.Data.FinishReason).toBe('stop');
    }
    // Pieces came over the bus while the answer ran, not all from the row at the end.
    const [first] = await Promise.all(followers);
    expect(first.events.length).toBeGreaterThan(3);
  });

  it('follows on B an answer whose asker on A went away; it is stored once and complete', async () => {
    const chunks = longAnswer(80);
    two.fake.script('slow-model', { chunks, delayMs: 10 });
    const user = await createUser(two.a.app);
    const controller = new AbortController();
    const res = await startAnswer(two.urlA, user.token, 'slow-model', controller.signal);
    let shown = '';
    const { events } = await readStream(res, (e) => {
      shown += e.Data.OutputMessage;
      return shown.length > 20;
    });
    controller.abort();
    const id = events[0].Data.ChatMessageId;
    const followed = await readResumed(two.urlB, user.token, id, shown.length);
    expect(followed.done).toBe(true);
    expect(shown + textOf(followed.events)).toBe(chunks.join(''));
    const rows = await two.b.database.db.select().from(chatMessages).where(eq(chatMessages.userId, user.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, finishReason: 'stop', outputMessage: chunks.join('') });
    const charges = await two.b.database.db.select().from(pointLedger).where(and(eq(pointLedger.refId, id), eq(pointLedger.reason, 'message')));
    expect(charges).toHaveLength(1);
  });

  it('refuses on B another user’s message running on A', async () => {
    two.fake.script('slow-model', { chunks: longAnswer(40), delayMs: 10 });
    const owner = await createUser(two.a.app);
    const other = await createUser(two.b.app);
    const res = await startAnswer(two.urlA, owner.token, 'slow-model');
    let refused: unknown;
    const { done } = await readStream(res, async (e) => {
      if (refused || !e.Data.OutputMessage) return;
      refused = await api(two.b.app, other).getBody(resumeUrl(e.Data.ChatMessageId, 0));
    });
    expect(done).toBe(true);
    expect(refused).toMatchObject({ Code: 10404, Data: null });
  });

  it('sends on B, from an offset, an answer A has finished', async () => {
    const chunks = longAnswer(20);
    two.fake.script('slow-model', { chunks, delayMs: 5 });
    const user = await createUser(two.a.app);
    const asked = await readStream(await startAnswer(two.urlA, user.token, 'slow-model'), () => false);
    const id = asked.events[0].Data.ChatMessageId;
    await vi.waitUntil(async () => (await two.b.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0]?.finishReason, { timeout: 5000 });
    const followed = await readResumed(two.urlB, user.token, id, 3);
    expect(chunks.join('').slice(0, 3) + textOf(followed.events)).toBe(chunks.join(''));
  });
});
