import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { createAnswerStore, type AnswerOutcome } from '../../server/services/chat/answer-store.ts';
import { newMetering } from '../../server/services/chat/token-metering.ts';
import { countQueries, createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Answers' ends are stored per instance in batches (chat-answer-store.ts storeEnd): those ending
 * together take one statement, each row gets its own values, and a row the database refuses does
 * not cost the others theirs.
 */
describe('the ends of answers, stored together', () => {
  let t: TestApp;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app)).userId;
  });
  afterAll(() => t.close());

  /** Unfinished answers of a new session, as a chat start leaves them. */
  async function unfinishedAnswers(n: number): Promise<string[]> {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId, title: 'ends' });
    const ids = Array.from({ length: n }, () => randomUUID());
    await t.database.db
      .insert(chatMessages)
      .values(ids.map((id, i) => ({ id, sessionId, userId, inputMessage: `question ${i}`, requestedModelId: 'm', deploymentId: 'kept' })));
    return ids;
  }

  const outcome = (i: number, more: Partial<AnswerOutcome> = {}): AnswerOutcome => ({
    output: `answer ${i} «${'é'.repeat(i)}» "quoted" \\ {braces}, 😀`,
    finishReason: i % 2 ? 'stop' : 'length',
    errorDetail: i === 3 ? 'upstream said: "no"' : null,
    aiModelId: `model-${i}`,
    modelName: `Model ${i}`,
    citations: [],
    toolCalls: [],
    pointsCost: 1,
    refund: null,
    settle: null,
    // Every other answer was metered by a deployment; the others leave the token columns as they were.
    metering: i % 2 ? { ...newMetering(), deploymentId: `dep-${i}`, inputTokens: 10 + i, outputTokens: 20 + i, estimated: i === 1, firstTokenMs: 100 + i } : newMetering(),
    ...more,
  });

  /** Counts the statements that store ends (the batch's or one answer's) while `run` runs. */
  async function countingEnds(run: () => Promise<void>): Promise<{ batches: number; single: number }> {
    const counted = countQueries(t);
    try {
      await run();
    } finally {
      counted.restore();
    }
    const ends = counted.seen.filter((text) => /update "chat_messages"/i.test(text) && /finish_reason/.test(text));
    const batches = ends.filter((text) => /unnest/.test(text)).length;
    return { batches, single: ends.length - batches };
  }

  const rowsOf = async (ids: string[]) =>
    new Map((await t.database.db.select().from(chatMessages).where(inArray(chatMessages.id, ids))).map((r) => [r.id, r]));

  it('stores ten answers ending together with one statement, each with its own values', async () => {
    const ids = await unfinishedAnswers(10);
    const stores = ids.map((id) => createAnswerStore(t.app.ctx, id));
    const counted = await countingEnds(async () => {
      await Promise.all(stores.map((s, i) => s.finish(outcome(i))));
    });
    expect(counted).toEqual({ batches: 1, single: 0 });
    const rows = await rowsOf(ids);
    ids.forEach((id, i) => {
      const o = outcome(i);
      const m = o.metering!;
      expect(rows.get(id)).toMatchObject({
        outputMessage: o.output,
        finishReason: o.finishReason,
        errorMessage: o.errorDetail,
        aiModelId: o.aiModelId,
        modelName: o.modelName,
        deploymentId: m.deploymentId ?? 'kept',
        inputTokens: m.deploymentId ? m.inputTokens : null,
        outputTokens: m.deploymentId ? m.outputTokens : null,
        tokensEstimated: m.deploymentId ? m.estimated : false,
        firstTokenMs: m.deploymentId ? m.firstTokenMs : null,
      });
      expect(rows.get(id)!.finishedAt).toBeInstanceOf(Date);
    });
  });

  it('stores an answer with sources on its own, beside a batch of plain ones', async () => {
    const ids = await unfinishedAnswers(3);
    const citations = [{ index: 1, title: 'A source', url: 'https://example.com/' }];
    const counted = await countingEnds(async () => {
      await Promise.all(ids.map((id, i) => createAnswerStore(t.app.ctx, id).finish(outcome(i, i === 0 ? { citations } : {}))));
    });
    expect(counted).toEqual({ batches: 1, single: 1 });
    const rows = await rowsOf(ids);
    expect(rows.get(ids[0])).toMatchObject({ outputMessage: outcome(0).output, citations });
    expect(rows.get(ids[2])).toMatchObject({ outputMessage: outcome(2).output, finishReason: 'length' });
  });

  it('keeps the other answers of a batch when the database refuses one row', async () => {
    const ids = await unfinishedAnswers(4);
    // PostgreSQL takes no NUL in text: this row fails, in the batch and again on its own.
    const counted = await countingEnds(async () => {
      await Promise.all(ids.map((id, i) => createAnswerStore(t.app.ctx, id).finish(outcome(i, i === 1 ? { output: 'bad \u0000 text' } : {}))));
    });
    expect(counted).toEqual({ batches: 1, single: 4 });
    const rows = await rowsOf(ids);
    expect(rows.get(ids[1])).toMatchObject({ outputMessage: '', finishReason: null });
    for (const i of [0, 2, 3]) expect(rows.get(ids[i])).toMatchObject({ outputMessage: outcome(i).output, finishReason: outcome(i).finishReason });
  });
});
