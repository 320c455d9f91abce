/**
 * What the PostgreSQL benches that call routes of a server built in their own process share
 * (bench/history, bench/search): a database of their own, sign-ups, and a route timed over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A numeric command-line option (`--name value`). */
export const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(text);
  await c.end();
}

/** `reused`: the database is one a --keep run left, already seeded. */
export type BenchContext = { base: string; client: pg.Client; reused: boolean };

/**
 * Runs `bench` against a Tandem server listening on loopback, on a new database `<prefix>_<random>`
 * (migrated), with a direct connection to it for seeding; the database is dropped afterwards, or kept
 * with --keep. `--reuse NAME` runs on a database a --keep run printed, and keeps it. Errors are
 * printed and set the exit code.
 */
export async function withBenchServer(prefix: string, bench: (ctx: BenchContext) => Promise<void>): Promise<void> {
  const reuseAt = process.argv.indexOf('--reuse');
  const reused = reuseAt > 0 ? process.argv[reuseAt + 1] : undefined;
  if (reused !== undefined && !new RegExp(`^${prefix}_[0-9a-f]{8}$`).test(reused)) throw new Error('--reuse takes the name a --keep run printed');
  const name = reused ?? `${prefix}_${randomBytes(4).toString('hex')}`;
  if (!reused) await adminQuery(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 10 });
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', OLLAMA_URL: 'http://127.0.0.1:9' }), database, logger: false });
  const client = new pg.Client({ connectionString: url.toString() });
  client.on('error', () => {});
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    await client.connect();
    await bench({ base, client, reused: reused !== undefined });
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    await client.end().catch(() => undefined);
    await app.close();
    await database.close();
    if (process.argv.includes('--keep') || reused) console.log(`kept database ${name}`);
    else await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

/**
 * A new account (or, on a reused database, the one a kept run made), signed in as the web app does
 * (login, then the temp key exchanged for a token).
 */
export async function signUp(base: string, email: string, existing?: pg.Client): Promise<{ userId: string; token: string }> {
  const post = async (path: string, body: object) =>
    ((await (await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { Data: Record<string, string> }).Data;
  const userId = existing
    ? ((await existing.query('select id from users where email = $1', [email])).rows[0] as { id: string }).id
    : (await post('/api/Account/AddUser', { email, password: 'correct horse battery' })).userId;
  const { tempKey } = await post('/api/Account/Login', { email, password: 'correct horse battery' });
  const token = ((await (await fetch(`${base}/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(tempKey!)}`)).json()) as { Data: string }).Data;
  return { userId: userId!, token };
}

export type Timing = { p50: number; p95: number; p99: number; total: number };

/** A paged GET route called `runs` times one after another (after a warm-up), with its answer's total. */
export async function timeRoute(url: string, token: string, runs: number): Promise<Timing> {
  const headers = { authorization: `Bearer ${token}` };
  let total = 0;
  for (let i = 0; i < 20; i++) await fetch(url, { headers }).then((r) => r.text());
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const body = (await (await fetch(url, { headers })).json()) as { Code: number; Data: { total: number } };
    times.push(performance.now() - start);
    if (body.Code !== 10000) throw new Error(`${url}: Code ${body.Code}`);
    total = body.Data.total;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), total };
}
