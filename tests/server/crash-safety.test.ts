import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { http } from '../helpers/api.ts';
import { createPostgresDatabase, onPostgres } from '../helpers/app.ts';
import { readStream, textOf } from '../helpers/chat.ts';
import { callApi, signUpThrough, startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/server-process.ts';

/**
 * The server as `npm start` runs it (server/main.ts), killed with SIGKILL in the middle of 20
 * streaming answers and started again on the same data: every user message is there, every answer
 * holds what had been stored of it (a prefix of what its client read) and ends as interrupted, each
 * message was charged once, and the server serves again.
 *
 * On PGlite the data is a folder that only one process opens. On PostgreSQL a second instance
 * streams an answer of its own all along: the restart must end the dead instance's answers at once
 * (their writer's lock is free) and leave the live instance's answer alone (server/services/system/instances.ts).
 */

const ANSWERS = 20;

const sendMessage = (origin: string, token: string, inputMessage: string) =>
  http(origin, token).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage });

type Crash = {
  /** Starts the instance that is killed (again, on the same data). */
  start(): Promise<ServerProcess>;
  /** Called while the 20 answers stream, just before the kill. */
  beforeKill?(): Promise<void>;
  /** Called once the killed instance is back, before anything else is asked of it. */
  afterRestart?(server: ServerProcess): Promise<void>;
};

/**
 * The scenario on both databases: 20 answers streaming in `server`, SIGKILL, restart, and the
 * checks.
 */
async function crashInTheMiddle(fake: FakeOpenAI, crash: Crash, running: { server?: ServerProcess }): Promise<void> {
  let server = (running.server = await crash.start());
  const adminToken = await signUpThrough(server.origin, 'admin@example.test');
  const token = await signUpThrough(server.origin, 'user@example.test');
  const { userId } = await callApi(server.origin, 'GET', '/api/User/GetUserByLogin', undefined, token);
  await callApi(server.origin, 'POST', '/api/admin/Vip/AddIntegral', { userId, amount: 100, note: 'crash test', requestId: 'crash-test-grant' }, adminToken);

  // 20 answers of 800 pieces, 25 ms apart: 20 seconds each, far longer than the test lets them run.
  const pieces = Array.from({ length: 800 }, (_, i) => `w${i} `);
  const whole = pieces.join('');
  fake.script('slow-model', { chunks: pieces, delayMs: 25 });
  const received = new Map<number, string>();
  const streams = Array.from({ length: ANSWERS }, async (_, i) => {
    const res = await sendMessage(server.origin, token, `question ${i}`);
    // The connection dies with the server: what was read until then is what the client saw.
    return readStream(res, (e) => void received.set(i, (received.get(i) ?? '') + (e.Data.OutputMessage ?? ''))).catch(() => null);
  });
  // Every answer has streamed for a while (several stored batches) before the kill.
  await vi.waitUntil(() => received.size === ANSWERS && [...received.values()].every((t) => t.split(' ').length > 20), { timeout: 60_000, interval: 50 });
  await crash.beforeKill?.();
  expect([...received.values()].every((t) => t.length < whole.length)).toBe(true);
  await stopServerProcess(server, 'SIGKILL');
  await Promise.all(streams);

  server = running.server = await crash.start();
  await crash.afterRestart?.(server);
  const sessions = (await callApi(server.origin, 'GET', '/api/Chat/GetChatSessionListBySelf?page=1&count=100', undefined, token)).list as { chatSessionId: string }[];
  expect(sessions).toHaveLength(ANSWERS);
  const messages = [];
  for (const s of sessions) {
    const list = (await callApi(server.origin, 'GET', `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${s.chatSessionId}`, undefined, token)).list;
    expect(list).toHaveLength(1);
    messages.push(list[0]);
  }
  for (const m of messages) {
    const i = Number(/question (\d+)/.exec(m.inputMessage)![1]);
    expect(m.finishReason).toBe('interrupted');
    // What was stored is the start of what was sent, up to the last batch written before the kill
    // (the client may not have read the very last piece when the process died, so it is compared
    // with what was sent).
    expect(m.outputMessage.length).toBeGreaterThan(0);
    expect(whole.startsWith(m.outputMessage)).toBe(true);
    expect(whole.startsWith(received.get(i)!)).toBe(true);
  }

  // Charged once each: 20 points, the first 5 from the free allowance; the ledger sums to the balance.
  const history = (await callApi(server.origin, 'GET', '/api/User/GetUserIntegralLogList?page=1&count=100', undefined, token)).list as { kind: string; delta: number; allowance: number }[];
  const charges = history.filter((e) => e.kind === 'message');
  expect(charges).toHaveLength(ANSWERS);
  expect(charges.reduce((n, e) => n + e.allowance - e.delta, 0)).toBe(ANSWERS);
  expect(history.filter((e) => e.kind === 'refund')).toEqual([]);
  const [points] = await callApi(server.origin, 'GET', '/api/User/GetUserIntegralByLogin', undefined, token);
  expect(points.integralValue).toBe(100 - (ANSWERS - 5));
  expect(history.reduce((n, e) => n + e.delta, 0)).toBe(100 - (ANSWERS - 5));

  // And it serves again: a new answer streams to its end.
  fake.script('slow-model', { chunks: ['back ', 'again'] });
  const after = await readStream(await sendMessage(server.origin, token, 'still there?'), () => undefined);
  expect(textOf(after.events)).toBe('back again');
  expect(after.events.at(-1)!.Data.FinishReason).toBe('stop');
}

const baseEnv = (fake: FakeOpenAI) => ({
  OPENAI_API_KEY: 'k',
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_MODELS: 'slow-model',
  OLLAMA_URL: 'http://127.0.0.1:9',
  FREE_DAILY_POINTS: '5',
  AUTH_RATE_LIMIT: '1000',
});

(onPostgres ? describe.skip : describe)('a crash in the middle of 20 answers (PGlite)', () => {
  let fake: FakeOpenAI;
  let dataDir: string;
  const running: { server?: ServerProcess } = {};

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tandem-crash-'));
  });
  afterAll(async () => {
    await stopServerProcess(running.server);
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every message and what was stored of every answer, charged once, and serves again', { timeout: 180_000 }, async () => {
    await crashInTheMiddle(fake, { start: () => startServerProcess({ ...baseEnv(fake), DATA_DIR: dataDir }) }, running);
  });
});

(onPostgres ? describe : describe.skip)('a crash of one instance in the middle of 20 answers, another instance streaming (PostgreSQL)', () => {
  let fake: FakeOpenAI;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let env: Record<string, string>;
  let other: ServerProcess | undefined;
  let db: pg.Client;
  const running: { server?: ServerProcess } = {};

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    database = await createPostgresDatabase();
    env = { ...baseEnv(fake), DATABASE_URL: database.url, SECRET_KEY: 'crash-safety-test-secret-key-0123456789' };
    // The other instance runs from before the crash until after the restart.
    other = await startServerProcess(env);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await stopServerProcess(running.server);
    await stopServerProcess(other);
    await fake?.close();
    await database?.drop();
  });

  it('ends the dead instance’s answers at its restart, and leaves the live instance’s answer streaming', { timeout: 180_000 }, async () => {
    const survivor: { token?: string; id?: string; text: string; stream?: ReturnType<typeof readStream> } = { text: '' };
    const finishReasonOf = async (id: string) => (await db.query('select finish_reason from chat_messages where id = $1', [id])).rows[0].finish_reason;
    await crashInTheMiddle(
      fake,
      {
        start: () => startServerProcess(env),
        beforeKill: async () => {
          // A long answer (a minute) streaming in the other instance when the first one dies.
          survivor.token = await signUpThrough(other!.origin, 'survivor@example.test');
          fake.script('slow-model', { chunks: Array.from({ length: 2400 }, (_, i) => `s${i} `), delayMs: 25 });
          const res = await sendMessage(other!.origin, survivor.token, 'a long answer');
          survivor.stream = readStream(res, (e) => {
            survivor.id = e.Data.ChatMessageId;
            survivor.text += e.Data.OutputMessage ?? '';
          });
          // Stored under its writer's id (a batch is stored within half a second).
          await vi.waitUntil(
            async () => !!survivor.id && (await db.query('select writer_instance_id from chat_messages where id = $1', [survivor.id])).rows[0]?.writer_instance_id !== null,
            { timeout: 10_000, interval: 50 },
          );
        },
        // The restart ended the dead instance's answers (the scenario checks them), not this one.
        afterRestart: async () => expect(await finishReasonOf(survivor.id!)).toBeNull(),
      },
      running,
    );
    // It still streams, then ends as its own instance decides: stopped by its user, through the restarted instance.
    const before = survivor.text.length;
    await vi.waitUntil(() => survivor.text.length > before, { timeout: 5000, interval: 20 });
    expect(await finishReasonOf(survivor.id!)).toBeNull();
    await callApi(running.server!.origin, 'POST', '/api/Chat/StopMessage', { chatMessageId: survivor.id }, survivor.token);
    const { done, events } = await survivor.stream!;
    expect(done).toBe(true);
    expect((events.at(-1) as { Data: { FinishReason: string } }).Data.FinishReason).toBe('user-stopped');
    await vi.waitUntil(async () => (await finishReasonOf(survivor.id!)) === 'user-stopped', { timeout: 5000, interval: 20 });
  });
});
