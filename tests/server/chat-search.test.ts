import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { RECENT_WINDOW } from '../../server/services/chat/search.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

type User = { userId: string; token: string };
type Hit = { chatSessionId: string; chatMessageId: string; field: string; snippet: string; matchStart: number; matchLength: number; sessionTitle: string };

describe('full-text search in messages (SearchMessages)', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let minute = 0;

  const search = (u: User | null, q: string, extra = '') =>
    api(t.app, u?.token)
      .get(`/api/Chat/SearchMessages?q=${encodeURIComponent(q)}${extra}`)
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

  /**
   * Replaces the user's messages with `plain` ones holding no match, newest, and below them
   * `matching` older ones that hold `word` (ids `${tag}-1`, the oldest, up), a second apart;
   * `interleaved` spreads the matches among the plain ones instead (every other message, from the oldest).
   */
  async function manyMessages(u: User, tag: string, word: string, matching: number, plain: number, interleaved = false): Promise<User> {
    await t.database.db.delete(chatSessions).where(eq(chatSessions.userId, u.userId));
    const { sessionId } = await seed(u, tag, []);
    const isMatch = interleaved ? sql`(i % 2 = 1 and i <= ${matching * 2 - 1})` : sql`i <= ${matching}`;
    await t.database.db.execute(sql`
      insert into chat_messages (id, session_id, user_id, input_message, output_message, requested_model_id, finish_reason, created_at)
      select ${tag} || '-' || i, ${sessionId}, ${u.userId}, 'question ' || i, case when ${isMatch} then 'an answer with ' || ${word} else 'plain answer' end,
             'basic-model', 'stop', timestamp '2026-03-01' + (i || ' seconds')::interval
      from generate_series(1, ${matching + plain}) i`);
    return u;
  }
  const ids = (tag: string, from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => `${tag}-${from - i}`);

  it('counts 99, 100 and 101 matches as 99, 100 and "100 or more", all within the newest messages', async () => {
    const dave = await createUser(t.app);
    for (const [matching, total] of [[99, 99], [100, 100], [101, 100]] as const) {
      const tag = `win${matching}`;
      const u = await manyMessages(dave, tag, 'tallyword', matching, 30);
      const first = await search(u, 'tallyword', '&page=1&count=20');
      expect([first.Data.total, first.Data.list.map((h) => h.chatMessageId)]).toEqual([total, ids(tag, matching, matching - 19)]);
      // The last page, past the cap: the page is still right, and so is the total.
      const last = await search(u, 'tallyword', `&page=${Math.ceil(matching / 20)}&count=20`);
      expect([last.Data.total, last.Data.list.map((h) => h.chatMessageId)]).toEqual([total, ids(tag, matching - Math.floor((matching - 1) / 20) * 20, 1)]);
      expect((await search(u, 'tallyword', `&page=${Math.ceil(matching / 20) + 1}&count=20`)).Data).toEqual({ list: [], total });
    }
  });

  it('counts a common word that lies beyond the newest 1000 messages, or on both sides of that window', async () => {
    const erin = await createUser(t.app);
    for (const [matching, total] of [[99, 99], [100, 100], [101, 100]] as const) {
      const tag = `old${matching}`;
      const u = await manyMessages(erin, tag, 'oldword', matching, RECENT_WINDOW);
      const first = await search(u, 'oldword', '&page=1&count=20');
      expect([first.Data.total, first.Data.list.map((h) => h.chatMessageId)]).toEqual([total, ids(tag, matching, matching - 19)]);
      const later = await search(u, 'oldword', '&page=5&count=20');
      expect([later.Data.total, later.Data.list.map((h) => h.chatMessageId)]).toEqual([total, ids(tag, matching - 80, Math.max(matching - 99, 1))]);
    }
    // 1,200 messages, the oldest 400 every other one a match: 100 matches within the newest 1000, 100 before them.
    const both = await manyMessages(erin, 'both', 'bothword', 200, 1000, true);
    const page1 = await search(both, 'bothword', '&page=1&count=20');
    expect(page1.Data.total).toBe(100);
    expect(page1.Data.list.map((h) => h.chatMessageId)).toEqual(Array.from({ length: 20 }, (_, i) => `both-${399 - 2 * i}`));
    // The last page (67 of 3 a page) lies beyond the window and holds the two oldest matches.
    const oldest = await search(both, 'bothword', '&page=67&count=3');
    expect([oldest.Data.total, oldest.Data.list.map((h) => h.chatMessageId)]).toEqual([100, ['both-3', 'both-1']]);
    // 99 matches every other message from the oldest of 1,138: 30 within the window, 69 before it.
    const split = await manyMessages(erin, 'split', 'splitword', 99, 1039, true);
    const splitPage = await search(split, 'splitword', '&page=1&count=20');
    expect([splitPage.Data.total, splitPage.Data.list[0]?.chatMessageId]).toEqual([99, 'split-197']);
  });

  it('refuses the signed-out and empty or over-long searches with a clear message', async () => {
    expect((await search(null, 'x')).Code).toBe(10402);
    const empty = await search(alice, '   ');
    expect(empty.Code).toBe(10400);
    expect(empty.Msg).toContain('Type something to search for.');
    expect((await search(alice, 'x'.repeat(101))).Code).toBe(10400);
  });
});
