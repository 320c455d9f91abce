import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auth, createUser } from '../helpers/users.ts';

type User = { userId: string; token: string };
type Hit = { chatSessionId: string; chatMessageId: string; field: string; snippet: string; matchStart: number; matchLength: number; sessionTitle: string };

describe('full-text search in messages (SearchMessages)', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let minute = 0;

  const search = (u: User | null, q: string, extra = '') =>
    t.app
      .inject({ method: 'GET', url: `/api/Chat/SearchMessages?q=${encodeURIComponent(q)}${extra}`, headers: u ? auth(u.token) : {} })
      .then((r) => ({ status: r.statusCode, ...(r.json() as { Code: number; Msg: string; Data: { list: Hit[]; total: number } }) }));

  /** One session with one message per [input, output] pair, each a minute newer than the last. */
  async function seed(u: User, title: string, pairs: [string, string][]): Promise<{ sessionId: string; messageIds: string[] }> {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: u.userId, title });
    const messageIds: string[] = [];
    for (const [input, output] of pairs) {
      const id = randomUUID();
      const at = new Date(Date.UTC(2026, 0, 1) + ++minute * 60_000);
      await t.database.db.insert(chatMessages).values({
        id, sessionId, userId: u.userId, inputMessage: input, outputMessage: output,
        requestedModelId: 'basic-model', finishReason: 'stop', createdAt: at,
      });
      messageIds.push(id);
    }
    return { sessionId, messageIds };
  }

  const marked = (h: Hit) => h.snippet.slice(h.matchStart, h.matchStart + h.matchLength);

  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t.app);
    bob = await createUser(t.app);
  });
  afterAll(() => t.close());

  it('finds an English word inside an answer, any case, with the match marked in its snippet', async () => {
    const { sessionId, messageIds } = await seed(alice, 'Gardening', [
      ['How do I grow tomatoes?', 'Tomatoes need sun. Water them deeply, and stake the Photosynthesis-hungry vines.'],
      ['And peppers?', 'Peppers like warmth.'],
    ]);
    const res = await search(alice, 'photosynthesis');
    expect(res.Code).toBe(10000);
    expect(res.Data.total).toBe(1);
    const [hit] = res.Data.list;
    expect(hit).toMatchObject({ chatSessionId: sessionId, chatMessageId: messageIds[0], field: 'output', sessionTitle: 'Gardening' });
    expect(marked(hit!)).toBe('Photosynthesis');
  });

  it('finds Chinese text with no spaces, inside questions and answers, and marks it', async () => {
    const { messageIds } = await seed(alice, '中文', [
      ['请解释一下量子纠缠是什么意思', '量子纠缠是一种量子力学现象。'],
      ['天气怎么样', '今天北京的天气晴朗，适合出门散步。'],
    ]);
    const entangled = await search(alice, '量子纠缠');
    expect(entangled.Data.list.map((h) => h.chatMessageId)).toEqual([messageIds[0]]);
    expect(entangled.Data.list[0]).toMatchObject({ field: 'input' });
    expect(marked(entangled.Data.list[0]!)).toBe('量子纠缠');
    const weather = await search(alice, '适合出门');
    expect(weather.Data.list.map((h) => [h.chatMessageId, h.field])).toEqual([[messageIds[1], 'output']]);
    expect(marked(weather.Data.list[0]!)).toBe('适合出门');
  });

  it('cuts a snippet around a match deep in a long answer, and marks it past emoji before it', async () => {
    const long = `${'😀'.repeat(30)} ${'filler words '.repeat(200)}the needle-in-haystack phrase ${'tail '.repeat(200)}`;
    const { messageIds } = await seed(alice, 'Long', [['long one', long]]);
    const [hit] = (await search(alice, 'NEEDLE-IN-HAYSTACK')).Data.list;
    expect(hit!.chatMessageId).toBe(messageIds[0]);
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(Array.from(hit!.snippet).length).toBeLessThanOrEqual(161);
    expect(marked(hit!)).toBe('needle-in-haystack');
    const [emoji] = (await search(alice, 'filler words filler')).Data.list;
    expect(marked(emoji!)).toBe('filler words filler');
    expect(emoji!.snippet.startsWith('😀')).toBe(true);
  });

  it('treats %, _ and \\ literally', async () => {
    await seed(alice, 'Percent', [['what is 50% of 8?', 'It is 4; a_b and c\\d are not wildcards.']]);
    expect((await search(alice, '50%')).Data.total).toBe(1);
    expect((await search(alice, 'a_b')).Data.total).toBe(1);
    expect((await search(alice, 'c\\d')).Data.total).toBe(1);
    expect((await search(alice, '5_%')).Data.total).toBe(0);
  });

  it("never finds another user's messages", async () => {
    await seed(bob, 'Bob secret', [['bob-only-zebracorn question', 'bob-only-zebracorn answer']]);
    expect((await search(bob, 'zebracorn')).Data.total).toBe(1);
    expect((await search(alice, 'zebracorn')).Data).toEqual({ list: [], total: 0 });
  });

  it('pages newest first, and keeps the total', async () => {
    const pairs = Array.from({ length: 5 }, (_, i): [string, string] => [`paging-marker ${i}`, `answer ${i}`]);
    const { messageIds } = await seed(alice, 'Paging', pairs);
    const page1 = await search(alice, 'paging-marker', '&page=1&count=2');
    const page3 = await search(alice, 'paging-marker', '&page=3&count=2');
    expect(page1.Data.total).toBe(5);
    expect(page1.Data.list.map((h) => h.chatMessageId)).toEqual([messageIds[4], messageIds[3]]);
    expect(page3.Data.list.map((h) => h.chatMessageId)).toEqual([messageIds[0]]);
  });

  it('beyond the newest 1000 messages read one by one, still finds old matches, and keeps order across pages', async () => {
    const carol = await createUser(t.app);
    const { sessionId } = await seed(carol, 'Many', []);
    // 1,100 messages a second apart; the 3 oldest alone hold the rare word.
    await t.database.db.execute(sql`
      insert into chat_messages (id, session_id, user_id, input_message, output_message, requested_model_id, finish_reason, created_at)
      select 'many-' || i, ${sessionId}, ${carol.userId}, 'filler question ' || i, case when i <= 3 then 'an ancient-marker answer' else 'plain answer' end,
             'basic-model', 'stop', timestamp '2026-02-01' + (i || ' seconds')::interval
      from generate_series(1, 1100) i`);
    const old = await search(carol, 'ancient-marker');
    expect(old.Data.list.map((h) => h.chatMessageId)).toEqual(['many-3', 'many-2', 'many-1']);
    expect(old.Data.total).toBe(3);
    const page2 = await search(carol, 'filler question', '&page=2&count=10');
    expect(page2.Data.list.map((h) => h.chatMessageId)).toEqual(Array.from({ length: 10 }, (_, i) => `many-${1090 - i}`));
    expect(page2.Data.total).toBe(100);
  });

  it('refuses the signed-out and empty or over-long searches with a clear message', async () => {
    expect((await search(null, 'x')).Code).toBe(10402);
    const empty = await search(alice, '   ');
    expect(empty.Code).toBe(10400);
    expect(empty.Msg).toContain('Type something to search for.');
    expect((await search(alice, 'x'.repeat(101))).Code).toBe(10400);
  });
});
