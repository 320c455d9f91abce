import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { drainRunningStreams } from '../../server/services/chat/running.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api, http } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, onPostgres, type TestApp } from '../helpers/app.ts';
import { listening, readStream, textOf } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * The health check a load balancer reads, and the graceful shutdown it serves: while an instance
 * drains, the check answers 503 and new messages are refused, answers already running may finish
 * within the grace period, and what is still running after it is stored as interrupted.
 */

const health = async (t: TestApp, lang = 'en') => {
  const res = await api(t.app).get('/api/health', { lang });
  return { status: res.statusCode, body: res.json(), cache: res.headers['cache-control'] };
};

describe('the health check and a graceful shutdown', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake?.close());

  /** A streaming answer of `chunks` pieces 40 ms apart, started over real HTTP; resolves with its events once it ends. */
  async function startAnswer(t: TestApp, user: TestUser, chunks: number, onText?: () => void) {
    fake.script('slow-model', { chunks: Array.from({ length: chunks }, (_, i) => `p${i} `), delayMs: 40 });
    const res = await http(await listening(t.app), user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'take your time' });
    let signalled = false;
    return readStream(res, (e) => {
      if (e.Data.OutputMessage && !signalled) {
        signalled = true;
        onText?.();
      }
    });
  }
  const storedRow = async (t: TestApp, id: string) => (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, id)))[0];

  it('answers 200 with what it checked while the instance can serve', async () => {
    const t = await createTestApp(fakeOpenAIEnv(fake, 'slow-model'));
    try {
      const { status, body, cache } = await health(t);
      expect(status).toBe(200);
      expect(cache).toBe('no-store');
      expect(body).toEqual({ Code: 10000, Msg: '', Data: { status: 'ok', database: 'ok', bus: 'ok', busKind: onPostgres ? 'postgres' : 'local', draining: false } });
    } finally {
      await t.close();
    }
  });

  it('answers 503 naming the database when it does not answer', async () => {
    const t = await createTestApp(fakeOpenAIEnv(fake, 'slow-model'));
    try {
      await t.database.close();
      const en = await health(t);
      expect(en.status).toBe(503);
      expect(en.body).toEqual({ Code: 10500, Msg: 'This server cannot serve right now (database). Try again in a moment.', Data: null });
      expect((await health(t, 'zh-CN')).body.Msg).toContain('数据库');
    } finally {
      // Closes the app, and drops the test's own database on PostgreSQL (the database is closed already).
      await t.close();
    }
  });

  it('lets a running answer finish within the grace period, while refusing new messages and failing the check', async () => {
    const t = await createTestApp(fakeOpenAIEnv(fake, 'slow-model'));
    try {
      const user = await createUser(t.app);
      let drained: Promise<number> | undefined;
      const answer = await startAnswer(t, user, 8, () => (drained = drainRunningStreams(t.app.ctx, 10_000)));
      expect(await drained).toBe(0);
      expect(answer.done).toBe(true);
      expect(answer.events.at(-1)!.Data.FinishReason).toBe('stop');
      expect(textOf(answer.events)).toBe(Array.from({ length: 8 }, (_, i) => `p${i} `).join(''));
      expect(await storedRow(t, answer.events[0].Data.ChatMessageId)).toMatchObject({ finishReason: 'stop', outputMessage: textOf(answer.events) });

      expect((await health(t)).status).toBe(503);
      expect((await health(t)).body.Msg).toMatch(/shutting down/);
      const refused = await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'one more' });
      expect(refused.json()).toEqual({ Code: 10500, Msg: 'The server is restarting. Send your message again in a few seconds.', Data: null });
    } finally {
      await t.close();
    }
  });

  it('stores an answer longer than the grace period as interrupted, with the text sent so far', async () => {
    const t = await createTestApp(fakeOpenAIEnv(fake, 'slow-model'));
    try {
      const user = await createUser(t.app);
      let closed: Promise<void> | undefined;
      const answer = await startAnswer(t, user, 100, () => {
        closed = drainRunningStreams(t.app.ctx, 100).then((unfinished) => {
          expect(unfinished).toBe(1);
          return t.app.close();
        });
      });
      await closed;
      expect(answer.events.at(-1)!.Data.FinishReason).toBe('interrupted');
      const row = await storedRow(t, answer.events[0].Data.ChatMessageId);
      expect(row).toMatchObject({ finishReason: 'interrupted', outputMessage: textOf(answer.events) });
      expect(textOf(answer.events).length).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
