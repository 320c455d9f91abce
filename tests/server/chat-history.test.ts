import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { loadSession } from '../../server/services/chat/prepare.ts';
import { historyBudgetChars } from '../../server/services/chat/model-stream.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { inLine, parseChatStream } from '../helpers/chat.ts';
import { createUser } from '../helpers/users.ts';

type Exchange = { input: string; output: string; promptText?: string; finished?: boolean };

/**
 * A follow-up message reads the session's latest exchanges only as far back as a model can read:
 * a long chat must not cost its whole length before every message (bench/history).
 */
describe('the history a follow-up message reads', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let user: { userId: string; token: string };

  /** A session of `exchanges`, oldest first, one millisecond apart. */
  async function sessionOf(userId: string, exchanges: Exchange[]): Promise<string> {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId, title: 'long chat' });
    const start = Date.now() - 60_000;
    await t.database.db.insert(chatMessages).values(
      inLine(exchanges.map((e, i) => ({
        id: randomUUID(),
        sessionId,
        userId,
        inputMessage: e.input,
        outputMessage: e.output,
        promptText: e.promptText ?? null,
        requestedModelId: 'basic-model',
        finishReason: e.finished === false ? null : 'stop',
        createdAt: new Date(start + i),
      }))),
    );
    return sessionId;
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp(fakeOpenAIEnv(fake, 'basic-model,gpt-4o-mini'));
    user = await createUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('reads as far back as the model asked for can read, or auto’s largest', async () => {
    // basic-model reads 8,192 tokens; gpt-4o-mini, as the catalogue seeds it, 128,000.
    expect(await historyBudgetChars(t.app.ctx, 'basic-model', 3)).toBe(24_576);
    expect(await historyBudgetChars(t.app.ctx, 'gpt-4o-mini', 3)).toBe(384_000);
    expect(await historyBudgetChars(t.app.ctx, 'auto', 3)).toBe(384_000);
    // Never under what auto needs to tell a long chat from a short one.
    expect(await historyBudgetChars(t.app.ctx, 'basic-model', 0.5)).toBe(8_000);
    expect(await historyBudgetChars(t.app.ctx, 'no-such-model', 3)).toBe(8_000);
  });

  it('walks back from the newest exchange to the first one that reaches the budget', async () => {
    const exchanges = Array.from({ length: 30 }, (_, i) => ({ input: `q${String(i).padStart(2, '0')}`, output: 'a'.repeat(997) }));
    const sessionId = await sessionOf(user.userId, exchanges);
    // 1,000 characters an exchange: 9 of them end before 9,500 characters, the 10th crosses it.
    const history = await loadSession(t.app.ctx, user.userId, sessionId, 9_500);
    expect(history!.map((h) => h.input)).toEqual(['q29', 'q28', 'q27', 'q26', 'q25', 'q24', 'q23', 'q22', 'q21', 'q20']);
    expect((await loadSession(t.app.ctx, user.userId, sessionId, 1_000_000))!.map((h) => h.input)).toEqual(exchanges.map((e) => e.input).reverse());
  });

  it('counts characters, not bytes: text of 4-byte and 3-byte characters is read as far as ASCII is', async () => {
    // 1,000 characters an exchange, of up to 4,000 bytes each: the walk is bounded in bytes first,
    // which must not cut what fits in characters.
    const wide = (i: number) => ({ input: `${i}`.padStart(4, '0'), output: (i % 2 ? '😀' : '中').repeat(996) });
    const sessionId = await sessionOf(user.userId, Array.from({ length: 30 }, (_, i) => wide(i)));
    const history = await loadSession(t.app.ctx, user.userId, sessionId, 9_500);
    expect(history!.map((h) => h.input)).toEqual(['0029', '0028', '0027', '0026', '0025', '0024', '0023', '0022', '0021', '0020']);
    expect(history![0].output).toBe('😀'.repeat(996));
  });

  it('counts what the model was sent (a quick function’s text), and skips unfinished and empty answers', async () => {
    const sessionId = await sessionOf(user.userId, [
      { input: 'oldest', output: 'kept' },
      { input: 'short', promptText: 'p'.repeat(5_000), output: 'x' },
      { input: 'empty answer', output: '' },
      { input: 'still answering', output: 'partial', finished: false },
      { input: 'newest', output: 'y'.repeat(994) },
    ]);
    expect((await loadSession(t.app.ctx, user.userId, sessionId, 5_000))!.map((h) => h.input)).toEqual(['newest', 'short']);
    expect((await loadSession(t.app.ctx, user.userId, sessionId, 7_000))!.map((h) => h.input)).toEqual(['newest', 'short', 'oldest']);
  });

  it('is null for another user’s session', async () => {
    const other = await createUser(t.app);
    const sessionId = await sessionOf(other.userId, [{ input: 'mine', output: 'secret' }]);
    expect(await loadSession(t.app.ctx, user.userId, sessionId, 10_000)).toBeNull();
    expect(await loadSession(t.app.ctx, other.userId, sessionId, 10_000)).toHaveLength(1);
  });

  it('sends the model the newest exchanges that fit its window from a chat longer than it', async () => {
    // basic-model reads 8,192 tokens, about 24,576 characters: 8 exchanges of 3,000 fit beside the
    // new message, the 9th does not.
    const exchanges = Array.from({ length: 40 }, (_, i) => ({ input: `question ${i} ${'q'.repeat(985)}`, output: 'a'.repeat(2_000) }));
    const sessionId = await sessionOf(user.userId, exchanges);
    const res = await api(t.app, user).post('/api/Chat/AddMessage', { chatSessionId: sessionId, aiModelId: 'basic-model', inputMessage: 'and now?' });
    expect(parseChatStream(res.body).at(-1)!.Data.FinishReason).toBe('stop');
    const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'and now?' });
    const asked = sent.filter((m) => m.role === 'user').slice(0, -1).map((m) => m.content.split(' ').slice(0, 2).join(' '));
    expect(asked).toEqual(exchanges.slice(-8).map((e) => e.input.split(' ').slice(0, 2).join(' ')));
  });
});
