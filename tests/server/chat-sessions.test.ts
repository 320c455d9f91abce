import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { recoverOrphanedAnswers } from '../../server/services/system/instances.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { storedMessage } from '../helpers/chat.ts';
import { createUser } from '../helpers/users.ts';

type User = { userId: string; token: string };

let t: TestApp;
let alice: User;
let bob: User;

const get = (u: User, url: string) => api(t.app, u.token).getBody(url);
const post = (u: User, url: string, payload: unknown) => api(t.app, u.token).postBody(url, payload);
const sessionsOf = (u: User, query = '') => get(u, `/api/Chat/GetChatSessionListBySelf?${query}`);

/** Sessions written directly, with activity times one minute apart (index 0 is the oldest). */
async function seedSessions(u: User, titles: string[]): Promise<string[]> {
  const base = Date.now() - titles.length * 60_000;
  const rows = titles.map((title, i) => ({
    id: randomUUID(),
    userId: u.userId,
    title,
    describe: `about ${title}`,
    createdAt: new Date(base + i * 60_000),
    lastActiveAt: new Date(base + i * 60_000),
  }));
  await t.database.db.insert(chatSessions).values(rows);
  return rows.map((r) => r.id);
}

async function seedMessage(u: User, sessionId: string, input: string, at: Date, parentId: string | null = null) {
  const message = storedMessage({ sessionId, userId: u.userId, inputMessage: input, createdAt: at, parentId });
  await t.database.db.insert(chatMessages).values(message);
  return message.id;
}

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.app);
  bob = await createUser(t.app);
});
afterAll(() => t.close());

describe('chat history: listing sessions and their messages', () => {
  it('lists only the caller’s sessions, newest activity first, with paging and total', async () => {
    const titles = Array.from({ length: 25 }, (_, i) => `Alice chat ${i}`);
    const ids = await seedSessions(alice, titles);
    await seedSessions(bob, ['Bob private']);

    const page1 = await sessionsOf(alice, 'page=1&count=20');
    expect(page1.Code).toBe(10000);
    expect(page1.Data.total).toBe(25);
    expect(page1.Data.list).toHaveLength(20);
    expect(page1.Data.list[0]).toEqual({
      chatSessionId: ids[24],
      sessionTitle: 'Alice chat 24',
      sessionDescribe: 'about Alice chat 24',
      createTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastActiveTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      pinned: false,
      // No answer is being written in it.
      answering: false,
    });
    const page2 = await sessionsOf(alice, 'page=2&count=20');
    expect(page2.Data.list.map((s: { chatSessionId: string }) => s.chatSessionId)).toEqual(ids.slice(0, 5).reverse());
    expect(page2.Data.total).toBe(25);
    expect((await sessionsOf(alice, 'page=3&count=20')).Data).toEqual({ list: [], total: 25 });

    const bobs = await sessionsOf(bob);
    expect(bobs.Data.list.map((s: { sessionTitle: string }) => s.sessionTitle)).toEqual(['Bob private']);
  });

  it('counts the total up to 1000 sessions past the page asked for, and pages on past that', async () => {
    const many = await createUser(t.app);
    await t.database.db.execute(sql`
      insert into chat_sessions (id, user_id, title, last_active_at)
      select 'many-' || i, ${many.userId}, 'Chat ' || i, timestamp '2026-01-01' + (i || ' seconds')::interval from generate_series(1, 1100) i`);
    const first = await sessionsOf(many, 'page=1&count=20');
    expect(first.Data.total).toBe(1020);
    expect(first.Data.list[0].chatSessionId).toBe('many-1100');
    const later = await sessionsOf(many, 'page=5&count=20');
    expect(later.Data.total).toBe(1100);
    expect(later.Data.list[0].chatSessionId).toBe('many-1020');
  });

  it('searches titles by case-insensitive substring, with % and _ taken literally', async () => {
    await seedSessions(alice, ['Quarterly REPORT draft', 'report: 100% done', 'my_report', 'myXreport']);
    const titlesFor = async (q: string) =>
      (await sessionsOf(alice, `page=1&count=10&sessionTitle=${encodeURIComponent(q)}`)).Data.list.map((s: { sessionTitle: string }) => s.sessionTitle);
    expect((await titlesFor('RePoRt')).sort()).toEqual(['Quarterly REPORT draft', 'my_report', 'myXreport', 'report: 100% done'].sort());
    expect(await titlesFor('100%')).toEqual(['report: 100% done']);
    expect(await titlesFor('my_')).toEqual(['my_report']);
    expect(await titlesFor('Bob')).toEqual([]);
    // One past the page while there are more matches, exact on the last page.
    expect((await sessionsOf(alice, 'sessionTitle=report&page=1&count=2')).Data.total).toBe(3);
    expect((await sessionsOf(alice, 'sessionTitle=report&page=2&count=2')).Data).toMatchObject({ total: 4, list: [{}, {}] });
    expect((await sessionsOf(alice, 'sessionTitle=report&page=1&count=4')).Data.total).toBe(4);
    expect((await sessionsOf(alice, 'sessionTitle=report&page=3&count=2')).Data).toEqual({ list: [], total: 4 });
    expect((await sessionsOf(alice, 'sessionTitle=report&page=9&count=2')).Data).toEqual({ list: [], total: 4 });
  });

  it('lists a session’s messages oldest first; another user’s session is 10404', async () => {
    const [sessionId] = await seedSessions(alice, ['with messages']);
    const t0 = Date.now() - 10_000;
    const first = await seedMessage(alice, sessionId, 'one', new Date(t0));
    const second = await seedMessage(alice, sessionId, 'two', new Date(t0 + 1000), first);
    const res = await get(alice, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}&page=1&count=20`);
    expect(res.Data.total).toBe(2);
    expect(res.Data.list.map((m: { chatMessageId: string }) => m.chatMessageId)).toEqual([first, second]);
    expect(res.Data.list[0]).toEqual({
      chatMessageId: first,
      chatSessionId: sessionId,
      inputMessage: 'one',
      outputMessage: 'Echo: one',
      aiModelId: 'basic-model',
      modelName: 'basic-model',
      chatMediaIds: [],
      chatMedias: [],
      citations: [],
      toolCalls: [],
      quickFunction: null,
      selection: null,
      finishReason: 'stop',
      createTime: new Date(t0).toISOString(),
      finishTime: new Date(t0).toISOString(),
      versionIds: [first],
      versionIndex: 1,
      versionCount: 1,
    });
    const paged = await get(alice, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}&page=2&count=1`);
    expect(paged.Data.list.map((m: { chatMessageId: string }) => m.chatMessageId)).toEqual([second]);
    const newest = await get(alice, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}&page=1&count=1&order=desc`);
    expect(newest.Data.list.map((m: { chatMessageId: string }) => m.chatMessageId)).toEqual([second]);
    expect((await get(alice, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}&order=up`)).Code).toBe(10400);

    const [empty] = await seedSessions(alice, ['empty']);
    expect((await get(alice, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${empty}`)).Data).toEqual({ list: [], total: 0 });
    expect((await get(bob, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${sessionId}`)).Code).toBe(10404);
    expect((await get(bob, `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${empty}`)).Code).toBe(10404);
    expect((await get(alice, '/api/Chat/GetChatMessageListBySelfSessionId')).Code).toBe(10400);
  });
});

describe('chat history: renaming and deleting', () => {
  it('renames the caller’s session only, trimmed, non-empty and bounded', async () => {
    const [id] = await seedSessions(alice, ['old name']);
    expect(await post(alice, '/api/Chat/UpdateSessionTitle', { chatSessionId: id, sessionTitle: '  New name  ' })).toMatchObject({ Code: 10000 });
    const titleOf = async () => (await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, id)))[0].title;
    expect(await titleOf()).toBe('New name');

    const empty = await post(alice, '/api/Chat/UpdateSessionTitle', { chatSessionId: id, sessionTitle: '   ' });
    expect(empty.Code).toBe(10400);
    expect(empty.Msg).toContain('Chat name is require');
    expect((await post(alice, '/api/Chat/UpdateSessionTitle', { chatSessionId: id, sessionTitle: 'x'.repeat(101) })).Code).toBe(10400);
    expect((await post(bob, '/api/Chat/UpdateSessionTitle', { chatSessionId: id, sessionTitle: 'hijacked' })).Code).toBe(10404);
    expect(await titleOf()).toBe('New name');
  });

  it('deletes listed sessions of the caller only; a foreign id deletes nothing', async () => {
    const [a1, a2, a3] = await seedSessions(alice, ['del 1', 'del 2', 'del 3']);
    const [b1] = await seedSessions(bob, ['bob keeps']);
    const mid = await seedMessage(alice, a1, 'in a1', new Date());
    const exists = async (ids: string[]) =>
      (await t.database.db.select({ id: chatSessions.id }).from(chatSessions).where(inArray(chatSessions.id, ids))).map((r) => r.id).sort();

    expect((await post(bob, '/api/Chat/DeleteSessions', { ids: [a1] })).Code).toBe(10404);
    expect((await post(alice, '/api/Chat/DeleteSessions', { ids: [a2, b1] })).Code).toBe(10404);
    expect(await exists([a1, a2, a3, b1])).toEqual([a1, a2, a3, b1].sort());

    expect(await post(alice, '/api/Chat/DeleteSessions', { ids: [a1, a2], isDelAll: false })).toMatchObject({ Code: 10000, Data: { deleted: 2 } });
    expect(await exists([a1, a2, a3, b1])).toEqual([a3, b1].sort());
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, mid))).toHaveLength(0);
    expect((await post(alice, '/api/Chat/DeleteSessions', { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) })).Code).toBe(10400);
  });

  it('deletes all of the caller’s sessions with isDelAll, and nobody else’s', async () => {
    const bobBefore = (await sessionsOf(bob)).Data.total;
    const aliceBefore = (await sessionsOf(alice)).Data.total;
    expect(aliceBefore).toBeGreaterThan(0);
    expect(await post(alice, '/api/Chat/DeleteSessions', { ids: [], isDelAll: true })).toMatchObject({ Code: 10000, Data: { deleted: aliceBefore } });
    expect((await sessionsOf(alice)).Data).toEqual({ list: [], total: 0 });
    expect((await sessionsOf(bob)).Data.total).toBe(bobBefore);
  });

  it('deletes one message of the caller only', async () => {
    const [s] = await seedSessions(alice, ['messages']);
    const m = await seedMessage(alice, s, 'delete me', new Date());
    expect((await post(bob, '/api/Chat/DeleteMessage', { chatMessageId: m })).Code).toBe(10404);
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, m))).toHaveLength(1);
    expect((await post(alice, '/api/Chat/DeleteMessage', { chatMessageId: m })).Code).toBe(10000);
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, m))).toHaveLength(0);
    expect((await post(alice, '/api/Chat/DeleteMessage', { chatMessageId: m })).Code).toBe(10404);
  });
});

describe('chat history: pinned chats', () => {
  const pin = (u: User, chatSessionId: string, pinned = true) => post(u, '/api/Chat/PinSession', { chatSessionId, pinned });
  const idsOf = async (u: User, query = 'page=1&count=100') => (await sessionsOf(u, query)).Data.list.map((s: { chatSessionId: string }) => s.chatSessionId);

  it('lists the pinned chats first, most recently pinned first, then the rest by last activity; unpinning puts a chat back', async () => {
    const u = await createUser(t.app);
    const [s0, s1, s2, s3, s4] = await seedSessions(u, ['zero', 'one', 'two', 'three', 'four']);
    expect(await pin(u, s1)).toMatchObject({ Code: 10000, Data: null });
    expect(await pin(u, s3)).toMatchObject({ Code: 10000 });
    expect(await idsOf(u)).toEqual([s3, s1, s4, s2, s0]);
    const [first] = (await sessionsOf(u)).Data.list;
    expect(first).toMatchObject({ chatSessionId: s3, pinned: true });
    // Pinning moves nothing else: the time it is listed by is still its last activity.
    const [row] = await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, s3));
    expect(first.lastActiveTime).toBe(row.lastActiveAt.toISOString());

    // Pinning a pinned chat again keeps its place among the pinned.
    expect(await pin(u, s1)).toMatchObject({ Code: 10000 });
    expect(await idsOf(u)).toEqual([s3, s1, s4, s2, s0]);

    expect(await pin(u, s3, false)).toMatchObject({ Code: 10000 });
    expect(await pin(u, s4, false)).toMatchObject({ Code: 10000 });
    expect(await idsOf(u)).toEqual([s1, s4, s3, s2, s0]);
    expect((await sessionsOf(u)).Data.list.map((s: { pinned: boolean }) => s.pinned)).toEqual([true, false, false, false, false]);
  });

  it('pages through the pinned chats and then the others with nothing missed or repeated', async () => {
    const u = await createUser(t.app);
    const ids = await seedSessions(u, Array.from({ length: 25 }, (_, i) => `Paged ${i}`));
    // The oldest three pinned, the newest of them last: pins lead page 1, and one page ends among them.
    for (const id of [ids[0], ids[2], ids[1]]) await pin(u, id);
    const expected = [ids[1], ids[2], ids[0], ...ids.slice(3).reverse()];

    const page1 = await sessionsOf(u, 'page=1&count=20');
    expect(page1.Data.total).toBe(25);
    expect(page1.Data.list.slice(0, 3).map((s: { pinned: boolean }) => s.pinned)).toEqual([true, true, true]);
    for (const count of [2, 3, 20]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(25 / count) + 1; page++) seen.push(...(await idsOf(u, `page=${page}&count=${count}`)));
      expect(seen, `count ${count}`).toEqual(expected);
    }
  });

  it('finds pinned chats by title too, first among the matches', async () => {
    const u = await createUser(t.app);
    const [older, , newer] = await seedSessions(u, ['Trip to Kyoto', 'Groceries', 'Trip to Rome']);
    await pin(u, older);
    expect(await idsOf(u, 'sessionTitle=trip&page=1&count=10')).toEqual([older, newer]);
    expect((await sessionsOf(u, 'sessionTitle=trip&page=1&count=1')).Data).toMatchObject({ total: 2, list: [{ chatSessionId: older, pinned: true }] });
    expect((await sessionsOf(u, 'sessionTitle=trip&page=2&count=1')).Data).toMatchObject({ total: 2, list: [{ chatSessionId: newer, pinned: false }] });
    expect(await idsOf(u, 'sessionTitle=groceries&page=1&count=10')).toHaveLength(1);
  });

  it("refuses another user's chat and an unknown id as a rename does (10404), and a bad body with a message that says what is wrong", async () => {
    const [alices] = await seedSessions(alice, ['not for bob']);
    const refused = await pin(bob, alices);
    expect(refused).toMatchObject({ Code: 10404, Data: null });
    expect(refused.Msg).toBe((await post(bob, '/api/Chat/UpdateSessionTitle', { chatSessionId: alices, sessionTitle: 'x' })).Msg);
    expect(await pin(bob, randomUUID())).toMatchObject({ Code: 10404 });
    expect((await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, alices)))[0].pinnedAt).toBeNull();

    // Refused as every bad body is: HTTP 200 with Code 10400 (docs/api.md), Msg naming the field.
    const bad: [unknown, string][] = [
      [{ chatSessionId: alices }, 'pinned: Invalid input: expected boolean'],
      [{ chatSessionId: alices, pinned: 'yes' }, 'pinned: Invalid input: expected boolean'],
      [{ chatSessionId: '', pinned: true }, 'chatSessionId:'],
      [{ pinned: true }, 'chatSessionId:'],
    ];
    for (const [body, says] of bad) {
      const res = await api(t.app, alice.token).post('/api/Chat/PinSession', body);
      expect(res.statusCode).toBe(200);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ Code: 10400, Msg: expect.stringContaining(says), Data: null });
    }
  });
});

describe('chat history: unfinished answers and logins', () => {
  it('marks messages left unfinished by a dead instance as interrupted', async () => {
    const [s] = await seedSessions(alice, ['crashed']);
    const insert = async (updatedAt: Date) => {
      const id = randomUUID();
      await t.database.db.insert(chatMessages).values({
        id,
        sessionId: s,
        userId: alice.userId,
        inputMessage: 'x',
        outputMessage: 'partial',
        requestedModelId: 'm',
        updatedAt,
      });
      return id;
    };
    const stale = await insert(new Date(Date.now() - 5 * 60_000));
    const fresh = await insert(new Date());
    await recoverOrphanedAnswers(t.app.ctx);
    const reasonOf = async (id: string) => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];
    expect(await reasonOf(stale)).toMatchObject({ finishReason: 'interrupted', outputMessage: 'partial' });
    // On PostgreSQL another instance may still be streaming a fresh one; PGlite has only this process.
    expect((await reasonOf(fresh)).finishReason).toBe(onPostgres ? null : 'interrupted');
  });

  it('needs a login on every chat history route', async () => {
    for (const url of ['/api/Chat/GetChatSessionListBySelf', '/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=x']) {
      expect((await api(t.app).getBody(url)).Code).toBe(10402);
    }
    for (const url of ['/api/Chat/UpdateSessionTitle', '/api/Chat/PinSession', '/api/Chat/DeleteSessions', '/api/Chat/DeleteMessage', '/api/Chat/StopMessage']) {
      expect((await api(t.app).postBody(url, {})).Code).toBe(10402);
    }
  });
});
