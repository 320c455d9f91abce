import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { onPostgres } from '../helpers/app.ts';
import { readStream, textOf } from '../helpers/chat.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The server as `npm start` runs it (server/main.ts, PGlite in a data folder), killed with SIGKILL in
 * the middle of 20 streaming answers and started again on the same folder: every user message is
 * there, every answer holds what had been stored of it (a prefix of what its client read) and ends
 * as interrupted, each message was charged once, and the server serves again.
 *
 * PGlite only: it runs inside the server process, so a restart knows that nothing else streams. On
 * PostgreSQL other instances may be streaming, so an unfinished answer is marked interrupted only
 * once it has been untouched for two minutes (server/services/chat-running.ts).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const ANSWERS = 20;

type Running = { child: ChildProcess; origin: string; exited: Promise<unknown> };

async function startServer(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await vi.waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before serving`);
      return fetch(`${origin}/api/health`).then((r) => r.ok, () => false);
    },
    { timeout: 60_000, interval: 100 },
  );
  return { child, origin, exited };
}

const json = { 'content-type': 'application/json-patch+json' };

async function call(origin: string, method: 'GET' | 'POST', url: string, body?: unknown, token?: string) {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: { ...json, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (answer.Code !== 10000) throw new Error(`${url} answered ${answer.Code}: ${answer.Msg}`);
  return answer.Data;
}

async function signUp(origin: string, email: string): Promise<string> {
  await call(origin, 'POST', '/api/Account/AddUser', { email, password: 'correct horse battery' });
  const { tempKey } = await call(origin, 'POST', '/api/Account/Login', { email, password: 'correct horse battery' });
  return call(origin, 'GET', `/api/User/GetTokenForTempKey?tempKey=${tempKey}`);
}

(onPostgres ? describe.skip : describe)('a crash in the middle of 20 answers', () => {
  let fake: FakeOpenAI;
  let dataDir: string;
  let env: Record<string, string>;
  let server: Running | undefined;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tandem-crash-'));
    env = {
      DATA_DIR: dataDir,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODELS: 'slow-model',
      OLLAMA_URL: 'http://127.0.0.1:9',
      FREE_DAILY_POINTS: '5',
      AUTH_RATE_LIMIT: '1000',
    };
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every message and what was stored of every answer, charged once, and serves again', { timeout: 180_000 }, async () => {
    server = await startServer(env);
    const adminToken = await signUp(server.origin, 'admin@example.test');
    const token = await signUp(server.origin, 'user@example.test');
    const { userId } = await call(server.origin, 'GET', '/api/User/GetUserByLogin', undefined, token);
    await call(server.origin, 'POST', '/api/admin/Vip/AddIntegral', { userId, amount: 100, note: 'crash test', requestId: 'crash-test-grant' }, adminToken);

    // 20 answers of 400 pieces, 25 ms apart: ten seconds each, far longer than the test lets them run.
    const pieces = Array.from({ length: 400 }, (_, i) => `w${i} `);
    const whole = pieces.join('');
    fake.script('slow-model', { chunks: pieces, delayMs: 25 });
    const received = new Map<number, string>();
    const origin = server.origin;
    const streams = Array.from({ length: ANSWERS }, async (_, i) => {
      const res = await fetch(`${origin}/api/Chat/AddMessage`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify({ aiModelId: 'slow-model', inputMessage: `question ${i}` }),
      });
      // The connection dies with the server: what was read until then is what the client saw.
      return readStream(res, (e) => void received.set(i, (received.get(i) ?? '') + (e.Data.OutputMessage ?? ''))).catch(() => null);
    });
    // Every answer has streamed for a while (several stored batches) before the kill.
    await vi.waitUntil(() => received.size === ANSWERS && [...received.values()].every((t) => t.split(' ').length > 20), { timeout: 60_000, interval: 50 });
    server.child.kill('SIGKILL');
    await server.exited;
    await Promise.all(streams);

    server = await startServer(env);
    const sessions = (await call(server.origin, 'GET', '/api/Chat/GetChatSessionListBySelf?page=1&count=100', undefined, token)).list as { chatSessionId: string }[];
    expect(sessions).toHaveLength(ANSWERS);
    const messages = [];
    for (const s of sessions) {
      const list = (await call(server.origin, 'GET', `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${s.chatSessionId}`, undefined, token)).list;
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
    const history = (await call(server.origin, 'GET', '/api/User/GetUserIntegralLogList?page=1&count=100', undefined, token)).list as { kind: string; delta: number; allowance: number }[];
    const charges = history.filter((e) => e.kind === 'message');
    expect(charges).toHaveLength(ANSWERS);
    expect(charges.reduce((n, e) => n + e.allowance - e.delta, 0)).toBe(ANSWERS);
    expect(history.filter((e) => e.kind === 'refund')).toEqual([]);
    const [points] = await call(server.origin, 'GET', '/api/User/GetUserIntegralByLogin', undefined, token);
    expect(points.integralValue).toBe(100 - (ANSWERS - 5));
    expect(history.reduce((n, e) => n + e.delta, 0)).toBe(100 - (ANSWERS - 5));

    // And it serves again: a new answer streams to its end.
    fake.script('slow-model', { chunks: ['back ', 'again'] });
    const res = await fetch(`${server.origin}/api/Chat/AddMessage`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ aiModelId: 'slow-model', inputMessage: 'still there?' }),
    });
    const after = await readStream(res, () => undefined);
    expect(textOf(after.events)).toBe('back again');
    expect(after.events.at(-1)!.Data.FinishReason).toBe('stop');
  });
});
