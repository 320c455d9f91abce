// What the server benchmarks share: child processes (the fake upstream, the bare pass-through proxy,
// the Tandem server as `npm start` runs it), a database of its own per run, logged-in users.
import { createParser } from 'eventsource-parser';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPostgresDatabase } from '../tests/helpers/app.ts';

const children: ChildProcess[] = [];
const cleanup: (() => void)[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
  for (const f of cleanup) f();
});

export function startChild(cmd: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, cmd, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}

export async function firstLine(child: ChildProcess): Promise<string> {
  const rl = createInterface({ input: child.stdout! });
  for await (const line of rl) return line;
  throw new Error('child exited before it was ready');
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** What every chat bench sends: one short message, to Tandem and (as the OpenAI protocol) to the upstream or the bare hop. */
export const CHAT_BODY = JSON.stringify({ aiModelId: 'bench-model', inputMessage: 'hi' });
export const UPSTREAM_BODY = JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
/** The headers of a logged-in user's AddMessage, as the client sends them. */
export const chatHeaders = (token: string) => ({ 'content-type': 'application/json-patch+json', authorization: `Bearer ${token}` });

/** Tandem's Server-Timing header (`prepare;dur=0.50, store;dur=2.10, wait;dur=0.00`) as milliseconds by name. */
export function serverTimingOf(header: string | null | undefined): Record<string, number> {
  return Object.fromEntries(
    (header ?? '').split(',').flatMap((entry) => {
      const m = /^\s*([\w-]+).*;dur=([\d.]+)/.exec(entry);
      return m ? [[m[1], Number(m[2])]] : [];
    }),
  );
}

/** Reads an SSE body, calling onData with each event's data as it arrives (eventsource-parser, as the server reads upstreams). */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void) {
  const parser = createParser({ onEvent: (event) => onData(event.data.trim()) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(decoder.decode(read.value, { stream: true }));
}

export const freePort = () => String(20000 + Math.floor(Math.random() * 20000));

/** The fake OpenAI-compatible upstream in a process of its own: `chunks` pieces, `delayMs` apart. */
export async function startFakeUpstream(chunks = 20, delayMs = 2): Promise<string> {
  const child = startChild(['--import', 'tsx', 'bench/fake-upstream.ts'], { BENCH_CHUNKS: String(chunks), BENCH_CHUNK_DELAY_MS: String(delayMs) });
  return (JSON.parse(await firstLine(child)) as { url: string }).url;
}

export async function startPassThrough(upstream: string): Promise<{ url: string; pid: number }> {
  const child = startChild(['--import', 'tsx', 'bench/pass-through-proxy.ts'], { UPSTREAM_URL: upstream });
  return { url: (JSON.parse(await firstLine(child)) as { url: string }).url, pid: child.pid! };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `dataDir`: PGlite's folder (when not on PostgreSQL), which another process may open once `drop` stopped the server. */
export type BenchServer = { url: string; databaseUrl?: string; dataDir: string; child: ChildProcess; drop(): Promise<void> };

/** The PostgreSQL server a benchmark on PostgreSQL creates its database in. */
export const benchPostgresUrl = () => process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The Tandem server as `npm start` runs it, against `upstream`, on a PostgreSQL database of its own
 * (BENCH_DATABASE_URL names the server to create it in; `database` chooses against it) or else
 * PGlite in a temporary folder. `nodeArgs` go to node (e.g. `--expose-gc`), `imports` are loaded
 * before the server (after tsx).
 */
export async function startTandem(
  upstream: string,
  opts: { nodeArgs?: string[]; imports?: string[]; env?: Record<string, string>; database?: 'pglite' | 'postgres' } = {},
): Promise<BenchServer> {
  const database = opts.database ?? (process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');
  const pgDb = database === 'postgres' ? await createPostgresDatabase(benchPostgresUrl()) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server during the run.
  const serverArgs = [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(opts.nodeArgs ?? [])];
  const imports = (opts.imports ?? []).flatMap((i) => ['--import', i]);
  const child = startChild([...serverArgs, '--import', 'tsx', ...imports, 'server/main.ts'], {
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: pgDb?.url ?? '',
    LOG_LEVEL: 'warn',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: `${upstream}/v1`,
    OPENAI_MODELS: 'bench-model',
    OLLAMA_URL: 'http://127.0.0.1:9',
    FREE_DAILY_POINTS: '1000000000',
    AUTH_RATE_LIMIT: '100000',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    ...opts.env,
  });
  const drop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await pgDb?.drop();
  };
  try {
    await waitFor(`${url}/api/System/GetSettingListAll`);
  } catch (err) {
    // A server that never came up (a bad BENCH_SERVER_NODE_ARGS, say) leaves no database behind.
    await drop();
    throw err;
  }
  return { url, databaseUrl: pgDb?.url, dataDir, child, drop };
}

/** Signs up and logs in `count` users through the API, a few at a time; their bearer tokens. */
export async function loggedInUsers(server: string, count: number, parallel = 8): Promise<string[]> {
  const post = async (path: string, body: unknown) =>
    (await fetch(server + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{
      Code: number;
      Data: any;
    }>;
  const tokens: string[] = [];
  const stamp = Date.now();
  let next = 0;
  const one = async () => {
    while (next < count) {
      const email = `bench-${stamp}-${next++}@example.com`;
      await post('/api/Account/AddUser', { email, password: 'bench-password' });
      const { Data: login } = await post('/api/Account/Login', { email, password: 'bench-password' });
      const { Data: token } = (await (await fetch(`${server}/api/User/GetTokenForTempKey?tempKey=${login.tempKey}`)).json()) as { Data: string };
      tokens.push(token);
    }
  };
  await Promise.all(Array.from({ length: parallel }, one));
  return tokens;
}

export const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
