import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { FAVOURITE_PREVIEW_CHARS, MAX_FAVOURITE_ANSWER_CHARS } from '../../shared/contracts/favourites.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { storedMessage } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Favourite answers (/api/Save/*): a copy of an answer kept by its owner, listed newest first,
 * searched in the question and the answer, edited without touching the chat, and kept when the chat
 * is deleted. Another user's favourite or message is answered as absent (10404).
 */


type Item = {
  favouriteId: string;
  question: string;
  answer: string;
  aiModelId: string | null;
  modelName: string | null;
  answerTime: string;
  createTime: string;
  updateTime: string;
  chatSessionId: string | null;
  chatMessageId: string | null;
  sourceExists: boolean;
  edited: boolean;
  answerTruncated?: boolean;
};
type Answer<T> = { Code: number; Msg: string; Data: T };

const { t } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  alice = await createUser(t.app);
  bob = await createUser(t.app);
});

const get = <T>(user: TestUser | null, url: string, lang = 'en'): Promise<Answer<T>> => api(t.app, user ?? undefined).getBody<T>(url, { lang });
const post = <T>(user: TestUser | null, url: string, body: unknown, lang = 'en'): Promise<Answer<T>> =>
  api(t.app, user ?? undefined).postBody<T>(url, body, { lang });
const list = async (user: TestUser, query = '') => (await get<{ list: Item[]; total: number }>(user, `/api/Save/GetList${query}`)).Data;
const add = (user: TestUser, chatMessageId: string) => post<Item>(user, '/api/Save/Add', { chatMessageId });

/** A chat of `user` with one finished exchange per [question, answer], written directly. */
async function seedChat(user: TestUser, pairs: [string, string][], opts: { finished?: boolean } = {}) {
  const sessionId = randomUUID();
  await t.database.db.insert(chatSessions).values({ id: sessionId, userId: user.userId, title: pairs[0]![0] });
  const ids: string[] = [];
  for (const [question, answer] of pairs) {
    const message = storedMessage({ sessionId, userId: user.userId, inputMessage: question, outputMessage: answer, modelName: 'Basic Model' });
    await t.database.db.insert(chatMessages).values(opts.finished === false ? { ...message, finishReason: null, finishedAt: null } : message);
    ids.push(message.id);
  }
  return { sessionId, ids };
}

describe('favourite answers: saving, listing and searching', () => {
  it('saves a copy of an answer with its question, model, time and source; saving it again answers the same favourite', async () => {
    const { sessionId, ids } = await seedChat(alice, [['What do otters eat?', 'Sea urchins, **crabs** and clams.<tandem>hidden data</tandem>']]);
    const first = await add(alice, ids[0]!);
    expect(first.Code).toBe(10000);
    expect(first.Data).toEqual({
      favouriteId: expect.any(String),
      question: 'What do otters eat?',
      // As the chat shows it: the product's custom tags are not kept.
      answer: 'Sea urchins, **crabs** and clams.',
      aiModelId: 'basic-model',
      modelName: 'Basic Model',
      answerTime: expect.any(String),
      createTime: expect.any(String),
      updateTime: expect.any(String),
      chatSessionId: sessionId,
      chatMessageId: ids[0],
      sourceExists: true,
      edited: false,
    });
    const again = await add(alice, ids[0]!);
    expect(again).toEqual({ Code: 10000, Msg: '', Data: first.Data });
    // Two saves at once still make one.
    const racing = await Promise.all([add(alice, ids[0]!), add(alice, ids[0]!)]);
    expect(racing.map((r) => r.Data.favouriteId)).toEqual([first.Data.favouriteId, first.Data.favouriteId]);
    expect((await list(alice, '?q=otters+eat')).total).toBe(1);

    const saved = await post<{ list: { chatMessageId: string; favouriteId: string }[] }>(alice, '/api/Save/IsSaved', { chatMessageIds: [ids[0], 'no-such-message'] });
    expect(saved.Data.list).toEqual([{ chatMessageId: ids[0], favouriteId: first.Data.favouriteId }]);
    // Bob asking about Alice's message learns nothing.
    expect((await post<{ list: unknown[] }>(bob, '/api/Save/IsSaved', { chatMessageIds: [ids[0]] })).Data.list).toEqual([]);
  });

  it('lists newest first, paged, with a preview of each answer', async () => {
    const user = await createUser(t.app);
    const long = `# Long\n\n${'word '.repeat(400)}`;
    const { ids } = await seedChat(user, [
      ['q1', 'a1'],
      ['q2', 'a2'],
      ['q3', long],
      ['q4', 'a4'],
      ['q5', 'a5'],
    ]);
    for (const id of ids) expect((await add(user, id)).Code).toBe(10000);
    const first = await list(user, '?page=1&count=2');
    expect(first.total).toBe(5);
    expect(first.list.map((f) => f.question)).toEqual(['q5', 'q4']);
    const second = await list(user, '?page=2&count=2');
    expect(second.list.map((f) => f.question)).toEqual(['q3', 'q2']);
    expect(second.list[0]!.answer).toBe(long.slice(0, FAVOURITE_PREVIEW_CHARS));
    expect(second.list[0]!.answerTruncated).toBe(true);
    expect(second.list[1]!.answerTruncated).toBe(false);
    expect((await list(user, '?page=3&count=2')).list.map((f) => f.question)).toEqual(['q1']);
    // The whole answer comes with GetById.
    expect((await get<Item>(user, `/api/Save/GetById?favouriteId=${second.list[0]!.favouriteId}`)).Data.answer).toBe(long);
  });

  it('searches the question and the answer text server-side, case-insensitive, in English and Chinese, wildcards literal', async () => {
    const user = await createUser(t.app);
    const { ids } = await seedChat(user, [
      ['Tell me about rafting', 'Sea otters hold hands while they SLEEP.'],
      ['海獭吃什么？', '海獭主要吃海胆、螃蟹和蛤蜊，还会用石头砸开贝壳。'],
      ['Percentages', 'About 100% of the time, 5_000 hairs.'],
      ['Unrelated', 'Nothing to see.'],
    ]);
    for (const id of ids) await add(user, id);
    const questions = async (q: string) => (await list(user, `?q=${encodeURIComponent(q)}`)).list.map((f) => f.question);
    expect(await questions('they sleep')).toEqual(['Tell me about rafting']);
    expect(await questions('RAFTING')).toEqual(['Tell me about rafting']);
    // Inside the answer, in Chinese.
    expect(await questions('石头砸开')).toEqual(['海獭吃什么？']);
    expect(await questions('海獭')).toEqual(['海獭吃什么？']);
    expect(await questions('100%')).toEqual(['Percentages']);
    expect(await questions('%')).toEqual(['Percentages']);
    expect(await questions('5_0')).toEqual(['Percentages']);
    expect(await questions('s_a')).toEqual([]);
    expect(await questions('no such words')).toEqual([]);
    expect((await list(user, '?q=')).total).toBe(4);
    // Another user's text is never found.
    expect((await list(bob, `?q=${encodeURIComponent('海獭')}`)).total).toBe(0);
  });
});

describe("favourite answers: other users' favourites, edits and deleted chats", () => {
  it('never shows, changes or deletes another user\'s favourite, nor saves their message: 10404 as if absent', async () => {
    const { ids } = await seedChat(alice, [['Private question', 'Private answer']]);
    const mine = (await add(alice, ids[0]!)).Data;
    const notFound = { Code: 10404, Msg: 'Not found.', Data: null };
    expect(await add(bob, ids[0]!)).toEqual(notFound);
    expect(await get(bob, `/api/Save/GetById?favouriteId=${mine.favouriteId}`)).toEqual(notFound);
    expect(await post(bob, '/api/Save/Update', { favouriteId: mine.favouriteId, answer: 'Bob was here' })).toEqual(notFound);
    expect(await post(bob, '/api/Save/Delete', { favouriteId: mine.favouriteId })).toEqual(notFound);
    expect((await list(bob)).list.map((f) => f.favouriteId)).not.toContain(mine.favouriteId);
    expect((await get<Item>(alice, `/api/Save/GetById?favouriteId=${mine.favouriteId}`)).Data.answer).toBe('Private answer');
    expect(await get(alice, '/api/Save/GetById?favouriteId=no-such-favourite')).toEqual(notFound);
    expect(await add(alice, 'no-such-message')).toEqual(notFound);
  });

  it('an edit changes the saved copy only: the chat keeps its answer', async () => {
    const { ids } = await seedChat(alice, [['Explain tides', 'The moon pulls the sea.']]);
    const fav = (await add(alice, ids[0]!)).Data;
    const edited = await post<Item>(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: '## Tides\n\nThe **moon** pulls the sea, twice a day.', question: 'Tides?' });
    expect(edited.Code).toBe(10000);
    expect(edited.Data).toMatchObject({ answer: '## Tides\n\nThe **moon** pulls the sea, twice a day.', question: 'Tides?', edited: true, sourceExists: true });
    expect(Date.parse(edited.Data.updateTime)).toBeGreaterThanOrEqual(Date.parse(fav.updateTime));
    const [message] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, ids[0]!));
    expect(message!.outputMessage).toBe('The moon pulls the sea.');
    expect(message!.inputMessage).toBe('Explain tides');
    // Saving the message again answers the edited copy, not a fresh one.
    expect((await add(alice, ids[0]!)).Data).toMatchObject({ favouriteId: fav.favouriteId, answer: '## Tides\n\nThe **moon** pulls the sea, twice a day.' });
  });

  it('survives the deletion of its chat, then says the source is gone', async () => {
    const { sessionId, ids } = await seedChat(alice, [['Keep me', 'A keeper.'], ['And me', 'Another.']]);
    const kept = (await add(alice, ids[0]!)).Data;
    await add(alice, ids[1]!);
    // The message alone is deleted: that favourite's source is gone, the other's is not.
    expect((await post(alice, '/api/Chat/DeleteMessage', { chatMessageId: ids[1] })).Code).toBe(10000);
    const afterMessage = (await list(alice, '?q=Another')).list[0]!;
    expect(afterMessage.sourceExists).toBe(false);
    expect((await get<Item>(alice, `/api/Save/GetById?favouriteId=${kept.favouriteId}`)).Data.sourceExists).toBe(true);

    expect((await post(alice, '/api/Chat/DeleteSessions', { ids: [sessionId] })).Code).toBe(10000);
    const after = await get<Item>(alice, `/api/Save/GetById?favouriteId=${kept.favouriteId}`);
    expect(after.Data).toMatchObject({ question: 'Keep me', answer: 'A keeper.', sourceExists: false, chatSessionId: sessionId, chatMessageId: ids[0] });
    expect((await list(alice, '?q=keeper')).list.map((f) => [f.favouriteId, f.sourceExists])).toEqual([[kept.favouriteId, false]]);
    // Still editable and deletable.
    expect((await post(alice, '/api/Save/Update', { favouriteId: kept.favouriteId, answer: 'Still a keeper.' })).Code).toBe(10000);
    expect(await post(alice, '/api/Save/Delete', { favouriteId: kept.favouriteId })).toEqual({ Code: 10000, Msg: '', Data: null });
    expect((await get(alice, `/api/Save/GetById?favouriteId=${kept.favouriteId}`)).Code).toBe(10404);
    expect((await post(alice, '/api/Save/Delete', { favouriteId: kept.favouriteId })).Code).toBe(10404);
  });
});

describe('favourite answers: bad input and callers not signed in', () => {
  it('refuses bad input with a clear Code in the caller\'s language, never 500', async () => {
    const { ids } = await seedChat(alice, [['Streaming', 'Half an ans']], { finished: false });
    const unfinished = await add(alice, ids[0]!);
    expect(unfinished.Code).toBe(10409);
    expect(unfinished.Msg).toMatch(/still being written/);
    expect((await post(alice, '/api/Save/Add', { chatMessageId: ids[0] }, 'zh')).Msg).toMatch(/生成中/);
    const empty = await seedChat(alice, [['Failed', '']]);
    expect(await add(alice, empty.ids[0]!)).toMatchObject({ Code: 10400, Msg: 'This answer has no text to save.' });

    const fav = (await add(alice, (await seedChat(alice, [['ok', 'fine']])).ids[0]!)).Data;
    const blank = await post(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: '   \n' });
    expect(blank.Code).toBe(10400);
    expect(blank.Msg).toMatch(/Edited message required/);
    expect((await post(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: '  ' }, 'zh')).Msg).toMatch(/消息不能为空/);
    const tooLong = await post(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: 'x'.repeat(MAX_FAVOURITE_ANSWER_CHARS + 1) });
    expect(tooLong.Code).toBe(10400);
    expect(tooLong.Msg).toMatch(/answer/);
    // The longest answer allowed is accepted, in characters beyond one byte too.
    const longest = '海'.repeat(MAX_FAVOURITE_ANSWER_CHARS);
    expect((await post<Item>(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: longest })).Data.answer).toBe(longest);

    expect((await post(alice, '/api/Save/Add', {})).Code).toBe(10400);
    expect((await post(alice, '/api/Save/Add', { chatMessageId: 42 })).Code).toBe(10400);
    expect((await post(alice, '/api/Save/Update', { favouriteId: fav.favouriteId })).Code).toBe(10400);
    expect((await post(alice, '/api/Save/IsSaved', { chatMessageIds: Array.from({ length: 201 }, (_, i) => `m${i}`) })).Code).toBe(10400);
    expect((await get(alice, `/api/Save/GetList?q=${'x'.repeat(101)}`)).Code).toBe(10400);
    expect((await get(alice, '/api/Save/GetList?page=0')).Code).toBe(10400);
    expect((await get(alice, '/api/Save/GetById')).Code).toBe(10400);
    expect((await post(alice, '/api/Save/Delete', { favouriteId: '' })).Code).toBe(10400);
    expect((await post(alice, '/api/Save/Update', { favouriteId: fav.favouriteId, answer: 'nul \u0000 inside' })).Code).toBe(10400);
  });

  it('answers 10402 to a caller who is not signed in, on every route', async () => {
    const signedOut = [
      await post(null, '/api/Save/Add', { chatMessageId: 'x' }),
      await get(null, '/api/Save/GetList'),
      await get(null, '/api/Save/GetById?favouriteId=x'),
      await post(null, '/api/Save/Update', { favouriteId: 'x', answer: 'y' }),
      await post(null, '/api/Save/Delete', { favouriteId: 'x' }),
      await post(null, '/api/Save/IsSaved', { chatMessageIds: ['x'] }),
      await get({ ...alice, token: 'not-a-token' }, '/api/Save/GetList'),
    ];
    for (const answer of signedOut) expect(answer).toMatchObject({ Code: 10402, Data: null });
  });
});
