import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { createAnswerStore } from '../../server/services/chat/answer-store.ts';
import { TRIGRAM_INDEXES } from '../../server/services/chat/search-index-upkeep.ts';
import { countQueries, createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

/**
 * On PostgreSQL each instance merges the chat search's GIN pending lists in the background after it
 * stored finished answers (search-index-upkeep.ts), so no chat write finds a list at its limit and
 * merges it while chat starts wait behind it. Read with pgstattuple, which only looks.
 */
describe.skipIf(!onPostgres)('the chat search indexes, merged in the background', () => {
  let t: TestApp;
  let userId: string;

  beforeAll(async () => {
    // The upkeep's ticks (an interval) run when the test moves the clock on, so "several ticks
    // passed" is a fact of the test rather than a sleep. Timeouts, I/O and setImmediate stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await createTestApp();
    userId = (await createUser(t.app)).userId;
    await t.database.db.execute(sql`create extension if not exists pgstattuple`);
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  /** Entries waiting in the trigram indexes' pending lists. */
  async function pending(): Promise<number> {
    let total = 0;
    for (const name of TRIGRAM_INDEXES) {
      const { rows } = await t.database.db.execute<{ n: string | number }>(sql`select pending_tuples as n from pgstatginindex(${name}::regclass)`);
      total += Number(rows[0].n);
    }
    return total;
  }

  /** A new chat with `n` answers: finished ones written directly (as no chat path does), or unfinished. */
  async function chat(n: number, finished: boolean): Promise<string[]> {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId, title: `a chat about trigrams ${sessionId}` });
    const ids = Array.from({ length: n }, () => randomUUID());
    await t.database.db.insert(chatMessages).values(
      ids.map((id, i) => ({
        id,
        sessionId,
        userId,
        inputMessage: `question ${i} about ${id}`,
        requestedModelId: 'm',
        ...(finished ? { outputMessage: `answer ${id}`, finishReason: 'stop' } : {}),
      })),
    );
    return ids;
  }

  it('leaves the lists alone while no chat stored an answer, and merges them once one did', async () => {
    const watched = countQueries(t, { withBackground: true });
    try {
      await chat(5, true);
      expect(await pending()).toBeGreaterThan(0);
      // Several ticks pass with nothing noted: no merge is sent, the entries wait.
      await vi.advanceTimersByTimeAsync(1000);
      expect(watched.seen.filter((text) => text.includes('gin_clean_pending_list'))).toEqual([]);
      expect(await pending()).toBeGreaterThan(0);

      const ids = await chat(3, false);
      await Promise.all(
        ids.map((id) =>
          createAnswerStore(t.app.ctx, id).finish({
            output: `the answer to ${id}`,
            finishReason: 'stop',
            errorDetail: null,
            aiModelId: 'm',
            modelName: 'M',
            citations: [],
            toolCalls: [],
            pointsCost: 1,
            refund: null,
            settle: null,
          }),
        ),
      );
      await vi.waitFor(async () => expect(await pending()).toBe(0), { timeout: 10_000, interval: 100 });
      expect(watched.seen.some((text) => text.includes('gin_clean_pending_list'))).toBe(true);
    } finally {
      watched.restore();
    }
  });
});
