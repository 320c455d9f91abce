/**
 * Load on one Tandem instance (PostgreSQL, a database of its own per run), against the fake upstream
 * of the benchmarks in its own process:
 *
 * - load (default): logged-in users start chats (POST /api/Chat/AddMessage) at fixed average rates,
 *   step by step, arriving as independent users' would (bench/load/open-loop.ts); every request is
 *   timed to its first text and read to its end. The bare pass-through hop is measured the same way.
 *   For each step: the rate reached, failures, the answer's latency, the first token, the server's
 *   event-loop delay, and (Tandem) what the database holds: every message stored and finished.
 * - soak (--soak): `--streams` answers open at once, the upstream sending one chunk a second for
 *   `--soak-seconds`: the event-loop delay while they run, memory per open stream, and every answer
 *   complete and stored.
 *
 * The server's event-loop delay and memory come from bench/load/reporter.ts, loaded into it with
 * --import (the server itself has no such code).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:load
 *   BENCH_DATABASE_URL=... npm run bench:load -- --rates 200,400,500,600 --duration 60 --target tandem
 *   BENCH_DATABASE_URL=... npm run bench:soak
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../../server/db/client.ts';
import { openLoop } from './open-loop.ts';
import { CHAT_BODY, chatHeaders, cpuMsOf, freePort, loggedInUsers, pct, readSse, startFakeUpstream, startPassThrough, startTandem, UPSTREAM_BODY, type BenchServer } from '../harness.ts';

const { values: args } = parseArgs({
  options: {
    rates: { type: 'string', default: '100,200,300,400,500,600' },
    duration: { type: 'string', default: '60' },
    users: { type: 'string', default: '200' },
    connections: { type: 'string', default: '200' },
    target: { type: 'string', default: 'both' },
    soak: { type: 'boolean', default: false },
    streams: { type: 'string', default: '1000' },
    'soak-seconds': { type: 'string', default: '120' },
  },
});

type Report = { rssMB: number; heapUsedMB: number; externalMB: number; delayMs: { p50: number; p99: number; max: number; mean: number } };
let reportUrl = '';
const report = async (query = ''): Promise<Report> => (await fetch(`${reportUrl}/?${query}`)).json() as Promise<Report>;

type Timed = { ttft: number; ok: boolean };

/** One Tandem answer read to its end: when the first text came (ms from sending), and whether it ended with DONE and no refusal. */
async function timedRequest(url: string, init: RequestInit): Promise<Timed> {
  const start = performance.now();
  let ttft = -1;
  let ok = false;
  try {
    const res = await fetch(url, init);
    let refused = false;
    await readSse(res.body!, (data) => {
      if (data === 'DONE') return void (ok = !refused);
      const event = JSON.parse(data) as { Code: number; Data?: { OutputMessage?: string } };
      if (event.Code !== 10000) refused = true;
      else if (ttft < 0 && event.Data?.OutputMessage) ttft = performance.now() - start;
    });
    return { ttft, ok: ok && ttft >= 0 };
  } catch {
    return { ttft, ok: false };
  }
}

function tandemRequest(server: string, token: string): [string, RequestInit] {
  return [`${server}/api/Chat/AddMessage`, { method: 'POST', headers: chatHeaders(token), body: CHAT_BODY }];
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const p50p99 = (xs: number[]) => `${f1(pct(xs, 50))}/${f1(pct(xs, 99))}`;

async function loadStep(side: 'tandem' | 'bare', target: string, pid: number, tokens: string[], rate: number, seconds: number, db?: pg.Client) {
  let turn = 0;
  if (side === 'tandem') await report('reset');
  const since = new Date();
  const cpuBefore = cpuMsOf(pid);
  const run = await openLoop({
    origin: target,
    path: side === 'tandem' ? '/api/Chat/AddMessage' : '/v1/chat/completions',
    rate,
    seconds,
    connections: Number(args.connections),
    protocol: side === 'tandem' ? 'tandem' : 'openai',
    next: (): { headers: Record<string, string>; body: string } =>
      side === 'tandem'
        ? { headers: chatHeaders(tokens[turn++ % tokens.length]!), body: CHAT_BODY }
        : { headers: {}, body: UPSTREAM_BODY },
  });
  const cpu = cpuMsOf(pid) - cpuBefore;
  const server = side === 'tandem' ? await report() : null;
  const ok = run.outcomes.filter((o) => o.ok);
  const failed = run.outcomes.length - ok.length;
  const timings = (name: string) => ok.flatMap((o) => (o.timing && Number.isFinite(o.timing[name]) ? [o.timing[name]] : []));
  let stored = '';
  if (db) {
    const rows = (await db.query('select finish_reason, count(*)::int as n from chat_messages where created_at >= $1 group by 1 order by 2 desc', [since])).rows;
    stored = rows.map((r: { finish_reason: string | null; n: number }) => `${r.finish_reason ?? 'unfinished'} ${r.n}`).join(', ');
  }
  const why = [...run.failures].map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(
    `${side.padEnd(6)} target ${String(rate).padStart(4)}/s  reached ${f1(ok.length / seconds)}/s  failed ${failed}${why ? ` (${why})` : ''}` +
      `  first token p50/p99 ${p50p99(ok.map((o) => o.ttft))} ms  answer p50/p99 ${p50p99(ok.map((o) => o.total))} ms (${ok.length} answers)` +
      (side === 'tandem'
        ? `  server-timing p50/p99: before the model call ${p50p99(timings('prepare'))}, statement ${p50p99(timings('store'))}, first text waiting for it ${p50p99(timings('wait'))} ms`
        : '') +
      `  cpu ${(cpu / Math.max(1, ok.length)).toFixed(2)} ms/start (${((100 * cpu) / 1000 / seconds).toFixed(0)}% of a core)` +
      (server ? `  loop delay p50/p99/max ${server.delayMs.p50}/${server.delayMs.p99}/${server.delayMs.max} ms  rss ${server.rssMB} MB` : '') +
      (db ? `  stored: ${stored}` : '') +
      `  client: loop delay p99 ${f1(run.clientDelayP99)} ms, latest send ${f1(run.maxLateMs)} ms late`,
  );
}

async function startMeasuredTandem(upstream: string): Promise<BenchServer> {
  const port = freePort();
  reportUrl = `http://127.0.0.1:${port}`;
  return startTandem(upstream, { nodeArgs: ['--expose-gc'], imports: ['./bench/load/reporter.ts'], env: { BENCH_REPORT_PORT: port } });
}

async function load() {
  const upstream = await startFakeUpstream();
  const rates = args.rates!.split(',').map(Number);
  const seconds = Number(args.duration);
  if (args.target !== 'tandem') {
    const bare = await startPassThrough(upstream);
    for (const rate of rates) await loadStep('bare', bare.url, bare.pid, [], rate, seconds);
  }
  if (args.target === 'bare') return;
  const tandem = await startMeasuredTandem(upstream);
  const tokens = await loggedInUsers(tandem.url, Number(args.users));
  const db = tandem.databaseUrl ? new pg.Client({ connectionString: tandem.databaseUrl }) : undefined;
  await db?.connect();
  // Each user's first message fills the login cache, as on any server that has been up a while.
  await Promise.all(tokens.map((t) => timedRequest(...tandemRequest(tandem.url, t))));
  const start = await report('gc&reset');
  console.log(`tandem: ${tokens.length} users; at start rss ${start.rssMB} MB, heap ${start.heapUsedMB} MB`);
  for (const rate of rates) await loadStep('tandem', tandem.url, tandem.child.pid!, tokens, rate, seconds, db);
  await new Promise((r) => setTimeout(r, 2000));
  const end = await report('gc');
  console.log(`tandem: at end rss ${end.rssMB} MB, heap ${end.heapUsedMB} MB (after a collection; at start ${start.rssMB} / ${start.heapUsedMB} MB)`);
  await db?.end();
  await tandem.drop();
}

async function soak() {
  const streams = Number(args.streams);
  const seconds = Number(args['soak-seconds']);
  const upstream = await startFakeUpstream(seconds, 1000);
  const tandem = await startMeasuredTandem(upstream);
  const tokens = await loggedInUsers(tandem.url, Number(args.users));
  const base = await report('gc&reset');
  const since = new Date();
  console.log(`soak: ${streams} streams of ${seconds} chunks, one a second; ${tokens.length} users; before: rss ${base.rssMB} MB, heap ${base.heapUsedMB} MB`);
  const running: Promise<Timed>[] = [];
  // Opened over about five seconds, then all run side by side.
  for (let i = 0; i < streams; i++) {
    running.push(timedRequest(...tandemRequest(tandem.url, tokens[i % tokens.length])));
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 10_000));
  await report('reset');
  // The loop delay while all are open, from after the ramp until shortly before the first ends.
  await new Promise((r) => setTimeout(r, Math.max(10_000, (seconds - 25) * 1000)));
  const during = await report();
  const plateau = await report('gc');
  console.log(
    `soak: while ${streams} streams ran: loop delay p50/p99/max ${during.delayMs.p50}/${during.delayMs.p99}/${during.delayMs.max} ms;` +
      ` rss ${plateau.rssMB} MB, heap ${plateau.heapUsedMB} MB after a collection:` +
      ` ${(((plateau.rssMB - base.rssMB) * 1024) / streams).toFixed(1)} KB rss, ${(((plateau.heapUsedMB - base.heapUsedMB) * 1024) / streams).toFixed(1)} KB heap per open stream`,
  );
  const results = await Promise.all(running);
  const ok = results.filter((r) => r.ok);
  const end = await report('gc');
  const stored = await storedAnswers(tandem, `%tok${seconds - 1} %`, since);
  console.log(
    `soak: ${ok.length}/${streams} answers complete at the client (first token p50/p99 ${f1(pct(ok.map((r) => r.ttft), 50))}/${f1(pct(ok.map((r) => r.ttft), 99))} ms);` +
      ` stored complete ${stored.complete} of ${stored.total}; after: rss ${end.rssMB} MB, heap ${end.heapUsedMB} MB`,
  );
  await tandem.drop();
}

/**
 * The answers stored since `since`, and those stored whole (`whole`: a pattern of the last chunk).
 * On PGlite only one process may open the folder: the server is stopped first (it closes it cleanly).
 */
async function storedAnswers(tandem: BenchServer, whole: string, since: Date): Promise<{ complete: number; total: number }> {
  const text = `select count(*) filter (where finish_reason = 'stop' and output_message like $1)::int as complete, count(*)::int as total
     from chat_messages where created_at >= $2`;
  if (tandem.databaseUrl) {
    const db = new pg.Client({ connectionString: tandem.databaseUrl });
    await db.connect();
    try {
      return (await db.query(text, [whole, since])).rows[0];
    } finally {
      await db.end();
    }
  }
  await tandem.drop();
  const database = await openDatabase({ dataDir: tandem.dataDir });
  try {
    return (await database.runPrepared<{ complete: number; total: number }>({ text, values: [whole, since] }))[0]!;
  } finally {
    await database.close();
  }
}

(args.soak ? soak() : load()).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
