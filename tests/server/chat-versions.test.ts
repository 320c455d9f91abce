import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, http } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { listening, parseChatStream, readStream, storedMessage } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Answer versions (docs/api.md#answer-versions): Ask again and an edited question make a new version
 * of a turn (AddMessage versionOf) beside the earlier one, the chat shows one branch of the tree
 * (GetChatMessageListBySelfSessionId, the model's context, shares), SwitchVersion changes it, and
 * DeleteMessage keeps the rest of the tree.
 */

let fake: FakeOpenAI;
let t: TestApp;
let baseUrl: string;
let alice: TestUser;
let bob: TestUser;

type Item = { chatMessageId: string; inputMessage: string; outputMessage: string; finishReason: string | null; versionIds: string[]; versionIndex: number; versionCount: number };

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp(fakeOpenAIEnv(fake, 'basic-model,slow-model'));
  baseUrl = await listening(t.app);
  [alice, bob] = await Promise.all([createUser(t.app), createUser(t.app)]);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** Sends a message; answers its ids once its answer has ended. */
async function send(u: TestUser, body: { chatSessionId?: string; inputMessage: string; versionOf?: string }) {
  const res = await api(t.app, u).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', ...body });
  const events = parseChatStream(res.body);
  expect(events.at(-1)!.Data.FinishReason).toBe('stop');
  return { sessionId: events[0]!.Data.ChatSessionId, id: events[0]!.Data.ChatMessageId };
}

const list = async (u: TestUser, chatSessionId: string, query = 'page=1&count=100') =>
  (await api(t.app, u).getBody<{ list: Item[]; total: number }>(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${chatSessionId}&${query}`)).Data;
const inputs = async (u: TestUser, chatSessionId: string) => (await list(u, chatSessionId)).list.map((m) => m.inputMessage);
const switchTo = (u: TestUser, chatMessageId: string, chatSessionId?: string) => api(t.app, u).postBody('/api/Chat/SwitchVersion', { chatMessageId, chatSessionId });
/** The conversation the model was last asked, as role: text. */
const lastAsked = () =>
  (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role !== 'system').map((m) => `${m.role}: ${m.content}`);

describe('answer versions: Ask again and edited questions', () => {
  it('makes a new version beside an exchange, sends the model only its path, and lists the branch shown', async () => {
    const first = await send(alice, { inputMessage: 'first' });
    const chat = first.sessionId;
    const second = await send(alice, { chatSessionId: chat, inputMessage: 'second' });
    const again = await send(alice, { chatSessionId: chat, inputMessage: 'second', versionOf: second.id });
    // The model answered the same conversation again: the earlier answer to "second" is not in it.
    expect(lastAsked()).toEqual(['user: first', 'assistant: Echo: first', 'user: second']);
    const shown = await list(alice, chat);
    expect(shown.total).toBe(2);
    expect(shown.list.map((m) => [m.chatMessageId, m.versionIndex, m.versionCount, m.versionIds])).toEqual([
      [first.id, 1, 1, [first.id]],
      [again.id, 2, 2, [second.id, again.id]],
    ]);
    // Both versions are kept.
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.sessionId, chat))).toHaveLength(3);

    // An edited question: a version with another text; what followed the old one stays on its branch.
    const third = await send(alice, { chatSessionId: chat, inputMessage: 'third' });
    const edited = await send(alice, { chatSessionId: chat, inputMessage: 'second, edited', versionOf: again.id });
    expect(lastAsked()).toEqual(['user: first', 'assistant: Echo: first', 'user: second, edited']);
    expect(await inputs(alice, chat)).toEqual(['first', 'second, edited']);
    expect((await list(alice, chat)).list[1]).toMatchObject({ versionIndex: 3, versionCount: 3, versionIds: [second.id, again.id, edited.id] });

    // Switching back to version 2 shows its branch down to its end ("third").
    const back = await switchTo(alice, again.id);
    expect(back.Code).toBe(10000);
    expect(back.Data.total).toBe(3);
    expect(back.Data.list.map((m: Item) => [m.chatMessageId, m.versionIndex, m.versionCount])).toEqual([
      [again.id, 2, 3],
      [third.id, 1, 1],
    ]);
    expect(await inputs(alice, chat)).toEqual(['first', 'second', 'third']);
    // The next message follows the branch shown, and the model reads that branch only.
    await send(alice, { chatSessionId: chat, inputMessage: 'fourth' });
    expect(lastAsked()).toEqual(['user: first', 'assistant: Echo: first', 'user: second', 'assistant: Echo: second', 'user: third', 'assistant: Echo: third', 'user: fourth']);
    expect(await inputs(alice, chat)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('edits a first question: a first turn of its own, the model reads nothing before it', async () => {
    const first = await send(alice, { inputMessage: 'hello' });
    const chat = first.sessionId;
    await send(alice, { chatSessionId: chat, inputMessage: 'and then?' });
    const edited = await send(alice, { chatSessionId: chat, inputMessage: 'hello, edited', versionOf: first.id });
    expect(lastAsked()).toEqual(['user: hello, edited']);
    const shown = await list(alice, chat);
    expect(shown.list.map((m) => [m.chatMessageId, m.inputMessage, m.versionIndex, m.versionCount])).toEqual([[edited.id, 'hello, edited', 2, 2]]);
    expect(shown.total).toBe(1);
    // The first version's branch (two exchanges) comes back whole.
    expect((await switchTo(alice, first.id, chat)).Data.list.map((m: Item) => m.inputMessage)).toEqual(['hello', 'and then?']);
  });

  it('pages exactly over the branch shown, from either end', async () => {
    const first = await send(alice, { inputMessage: 'q1' });
    const chat = first.sessionId;
    let last = first;
    for (const q of ['q2', 'q3', 'q4', 'q5']) last = await send(alice, { chatSessionId: chat, inputMessage: q });
    // Another branch beside q5 and q4 that is not shown must not count.
    await send(alice, { chatSessionId: chat, inputMessage: 'q4 again', versionOf: (await list(alice, chat)).list[3]!.chatMessageId });
    await send(alice, { chatSessionId: chat, inputMessage: 'q5 on it' });
    await switchTo(alice, last.id);
    const page = async (query: string) => {
      const got = await list(alice, chat, query);
      return [got.total, got.list.map((m) => m.inputMessage)];
    };
    expect(await page('page=1&count=2&order=desc')).toEqual([5, ['q5', 'q4']]);
    expect(await page('page=2&count=2&order=desc')).toEqual([5, ['q3', 'q2']]);
    expect(await page('page=3&count=2&order=desc')).toEqual([5, ['q1']]);
    expect(await page('page=4&count=2&order=desc')).toEqual([5, []]);
    expect(await page('page=2&count=2&order=asc')).toEqual([5, ['q3', 'q4']]);
    expect(await page('page=3&count=2')).toEqual([5, ['q5']]);
  });

  it('keeps a stopped regeneration as its own version beside the earlier answer', async () => {
    const first = await send(alice, { inputMessage: 'tell me' });
    const chat = first.sessionId;
    fake.script('slow-model', { chunks: Array.from({ length: 100 }, (_, i) => `c${i} `), delayMs: 30 });
    const res = await http(baseUrl, alice).post('/api/Chat/AddMessage', { chatSessionId: chat, aiModelId: 'slow-model', inputMessage: 'tell me', versionOf: first.id });
    let stopped = false;
    const { events, done } = await readStream(res, async (e) => {
      if (stopped || !e.Data.OutputMessage) return;
      stopped = true;
      await api(t.app, alice).post('/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId });
    });
    expect(done).toBe(true);
    const stoppedId = events[0]!.Data.ChatMessageId;
    const shown = (await list(alice, chat)).list;
    expect(shown).toEqual([expect.objectContaining({ chatMessageId: stoppedId, finishReason: 'user-stopped', versionIndex: 2, versionIds: [first.id, stoppedId] })]);
    const back = await switchTo(alice, first.id);
    expect(back.Data.list).toEqual([expect.objectContaining({ chatMessageId: first.id, outputMessage: 'Echo: tell me', versionIndex: 1, versionCount: 2 })]);
  });
});

describe('answer versions: refusals', () => {
  it("refuses another user's exchange, and one of another chat, as not found, changing nothing", async () => {
    const mine = await send(alice, { inputMessage: 'private' });
    const other = await send(alice, { inputMessage: 'another chat' });
    const notFound = await api(t.app, bob).getBody(`/api/Chat/GetChatSession?chatSessionId=${mine.sessionId}`);
    const refused = await switchTo(bob, mine.id);
    expect(refused).toEqual({ Code: 10404, Msg: notFound.Msg, Data: null });
    expect(await switchTo(alice, mine.id, other.sessionId)).toMatchObject({ Code: 10404, Data: null });
    expect(await switchTo(alice, randomUUID())).toMatchObject({ Code: 10404 });

    const bobs = await send(bob, { inputMessage: 'bob chat' });
    const before = await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, bob.userId));
    // Bob's chat, Alice's exchange: not found, nothing stored or charged.
    const sent = await api(t.app, bob).postBody('/api/Chat/AddMessage', { chatSessionId: bobs.sessionId, aiModelId: 'basic-model', inputMessage: 'x', versionOf: mine.id });
    expect(sent).toMatchObject({ Code: 10404, Data: null });
    // Alice's own exchange of another of her chats: not found either.
    expect(await api(t.app, alice).postBody('/api/Chat/AddMessage', { chatSessionId: other.sessionId, aiModelId: 'basic-model', inputMessage: 'x', versionOf: mine.id })).toMatchObject({ Code: 10404 });
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, bob.userId))).toHaveLength(before.length);
    expect(await inputs(alice, mine.sessionId)).toEqual(['private']);
  });

  it('says what is wrong with a bad body, in the caller’s language', async () => {
    const en = await api(t.app, alice).postBody('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'x', versionOf: randomUUID() });
    expect(en).toMatchObject({ Code: 10400, Msg: expect.stringContaining('versionOf: A new version of a message needs the chat it belongs to'), Data: null });
    const zh = await api(t.app, alice).postBody('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: 'x', versionOf: randomUUID() }, { lang: 'zh' });
    expect(zh.Msg).toContain('需要提供它所在的对话');
    for (const body of [{}, { chatMessageId: '' }, { chatMessageId: 'x'.repeat(65) }, { chatMessageId: 42 }]) {
      const res = await api(t.app, alice).post('/api/Chat/SwitchVersion', body);
      expect(res.statusCode).toBe(200);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ Code: 10400, Msg: expect.stringContaining('chatMessageId'), Data: null });
    }
    expect((await api(t.app).postBody('/api/Chat/SwitchVersion', { chatMessageId: randomUUID() })).Code).toBe(10402);
  });
});

describe('answer versions: deleting an exchange of a tree', () => {
  /** Every parent named is an exchange of the same chat. */
  const dangling = async (chat: string) =>
    (await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from chat_messages m where m.session_id = ${chat}
      and m.parent_id is not null and not exists (select 1 from chat_messages p where p.id = m.parent_id and p.session_id = m.session_id)`)).rows[0]!.n;

  it('re-attaches what followed it, moves the branch shown, and keeps shares to their snapshot', async () => {
    const a1 = await send(alice, { inputMessage: 'a1' });
    const chat = a1.sessionId;
    const a2 = await send(alice, { chatSessionId: chat, inputMessage: 'a2' });
    const a3 = await send(alice, { chatSessionId: chat, inputMessage: 'a3' });
    const shared = await api(t.app, alice).postBody('/api/Chat/ShareSession', { chatSessionId: chat });
    const b2 = await send(alice, { chatSessionId: chat, inputMessage: 'b2', versionOf: a2.id });
    const b3 = await send(alice, { chatSessionId: chat, inputMessage: 'b3' });
    expect(await inputs(alice, chat)).toEqual(['a1', 'b2', 'b3']);

    // Deleting b2 (on the branch shown): b3 now follows a1 and joins the versions of that turn.
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: b2.id })).Code).toBe(10000);
    expect((await list(alice, chat)).list.map((m) => [m.inputMessage, m.versionIds])).toEqual([['a1', [a1.id]], ['b3', [a2.id, b3.id]]]);
    // Deleting the last exchange shown: the newest remaining version of its turn is shown, down its branch.
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: b3.id })).Code).toBe(10000);
    expect(await inputs(alice, chat)).toEqual(['a1', 'a2', 'a3']);
    // Deleting the share's last exchange: the snapshot ends at the one before it.
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: a3.id })).Code).toBe(10000);
    const seen = await api(t.app).getBody(`/api/Share/GetShare?shareId=${shared.Data.shareId}`);
    expect(seen.Data.messages.map((m: { inputMessage: string }) => m.inputMessage)).toEqual(['a1', 'a2']);
    expect(await inputs(alice, chat)).toEqual(['a1', 'a2']);
    // Deleting the first turn: the one after it becomes the first.
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: a1.id })).Code).toBe(10000);
    expect((await list(alice, chat)).list.map((m) => [m.inputMessage, m.versionCount])).toEqual([['a2', 1]]);
    expect(await dangling(chat)).toBe(0);
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: a2.id })).Code).toBe(10000);
    expect(await list(alice, chat)).toEqual({ list: [], total: 0 });
    expect((await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, chat)))[0]!.currentLeafId).toBeNull();
    // Another user's exchange is refused as not found, and stays.
    const bobs = await send(bob, { inputMessage: 'keep me' });
    expect((await api(t.app, alice).postBody('/api/Chat/DeleteMessage', { chatMessageId: bobs.id })).Code).toBe(10404);
    expect(await inputs(bob, bobs.sessionId)).toEqual(['keep me']);
  });
});

describe('answer versions: what else reads the branch shown', () => {
  it('shares, the chat’s answering mark and the history read the branch shown only', async () => {
    const a1 = await send(alice, { inputMessage: 'shared question' });
    const chat = a1.sessionId;
    await send(alice, { chatSessionId: chat, inputMessage: 'not shared', versionOf: a1.id });
    await switchTo(alice, a1.id);
    const shared = await api(t.app, alice).postBody('/api/Chat/ShareSession', { chatSessionId: chat });
    expect(shared.Data.messageCount).toBe(1);
    const seen = await api(t.app).getBody(`/api/Share/GetShare?shareId=${shared.Data.shareId}`);
    expect(seen.Data.messages.map((m: { inputMessage: string }) => m.inputMessage)).toEqual(['shared question']);

    // An answer still being written on the branch shown marks the chat; on another branch it does not.
    const unfinished = storedMessage({ sessionId: chat, userId: alice.userId, inputMessage: 'writing', parentId: null, finishReason: null, finishedAt: null });
    await t.database.db.insert(chatMessages).values(unfinished);
    const answering = async () => (await api(t.app, alice).getBody(`/api/Chat/GetChatSession?chatSessionId=${chat}`)).Data.answering;
    expect(await answering()).toBe(false);
    expect((await switchTo(alice, unfinished.id)).Code).toBe(10000);
    expect(await answering()).toBe(true);
    expect((await api(t.app, alice).getBody('/api/Chat/GetChatSessionListBySelf?page=1&count=100')).Data.list).toContainEqual(expect.objectContaining({ chatSessionId: chat, answering: true }));
  });
});

describe('answer versions: the migration', () => {
  it('makes a chat written before versions a straight line showing its newest exchange, and leaves chats with versions alone', async () => {
    const chat = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: chat, userId: alice.userId, title: 'from before' });
    const at = Date.UTC(2026, 0, 1);
    const rows = ['one', 'two', 'three'].map((q, i) => storedMessage({ sessionId: chat, userId: alice.userId, inputMessage: q, createdAt: new Date(at + i * 1000) }));
    await t.database.db.insert(chatMessages).values(rows);
    const versioned = await send(alice, { inputMessage: 'v1' });
    const v2 = await send(alice, { chatSessionId: versioned.sessionId, inputMessage: 'v2', versionOf: versioned.id });
    await switchTo(alice, versioned.id);

    const migration = readFileSync(new URL('../../server/db/migrations/0023_answer_versions_backfill.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await t.database.db.execute(sql.raw(statement));

    const shown = await list(alice, chat);
    expect(shown.total).toBe(3);
    expect(shown.list.map((m) => [m.inputMessage, m.versionCount])).toEqual([['one', 1], ['two', 1], ['three', 1]]);
    expect((await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, chat)))[0]!.currentLeafId).toBe(rows[2]!.id);
    // Run again, it changes nothing; the chat with versions still shows the version chosen.
    for (const statement of migration.split('--> statement-breakpoint')) await t.database.db.execute(sql.raw(statement));
    expect(await inputs(alice, chat)).toEqual(['one', 'two', 'three']);
    expect((await list(alice, versioned.sessionId)).list.map((m) => [m.chatMessageId, m.versionIds])).toEqual([[versioned.id, [versioned.id, v2.id]]]);
  });
});
