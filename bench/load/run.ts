/**
 * Load on one Tandem instance (PostgreSQL, a database of its own per run), against the fake upstream
 * of the benchmarks in its own process:
 *
 * - load (default): logged-in users start chats (POST /api/Chat/AddMessage, each answer read to its
 *   end by autocannon) at fixed rates, step by step; beside it a probe sends a few more per second
 *   and times each one's first token. The bare pass-through hop is measured the same way. For each
 *   step: the rate reached, failures, the answer's latency, the probe's first token, the server's
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
import { createRequire } from 'node:module';
import pg from 'pg';
import { cpuMsOf, freePort, loggedInUsers, pct, startFakeUpstream, startPassThrough, startTandem, type BenchServer } from '../harness.ts';

const { values: args } = parseArgs({
  options: {
    rates: { type: 'string', default: '100,200,300,400,500,600' },
    duration: { type: 'string', default: '60' },
    users: { type: 'string', default: '200' },
    connections: { type: 'string', default: '200' },
    probe: { type: 'string', default: '10' },
    target: { type: 'string', default: 'both' },
    soak: { type: 'boolean', default: false },
    streams: { type: 'string', default: '1000' },
    'soak-seconds': { type: 'string', default: '120' },
  },
});

// autocannon ships no types; this is the part of its API used here.
type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
};
type AutocannonOptions = Record<string, unknown>;
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

type Report = { rssMB: number; heapUsedMB: number; externalMB: number; delayMs: { p50: number; p99: number; max: number; mean: number } };
let reportUrl = '';
const report = async (query = ''): Promise<Report> => (await fetch(`${reportUrl}/?${query}`)).json() as Promise<Report>;

const MESSAGE = JSON.stringify({ aiModelId: 'bench-model', inputMessage: 'hi' });
const UPSTREAM_BODY = JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });

type Timed = { ttft: number; ok: boolean; timing?: Record<string, number> };

/** Tandem's Server-Timing header (`prepare;dur=0.50, store;dur=2.10, wait;dur=0.00`) as numbers by name. */
const serverTiming = (header: string | null): Record<string, number> | undefined =>
  header ? Object.fromEntries(header.split(',').map((part) => [part.split(';')[0].trim(), Number(part.split('dur=')[1])])) : undefined;

/** One request's SSE read to its end: when the first text came (ms from sending), and whether all went well. */
async function timedRequest(url: string, init: RequestInit, bare: boolean): Promise<Timed> {
  const start = performance.now();
  let ttft = -1;
  let ok = bare;
  let timing: Record<string, number> | undefined;
  try {
    const res = await fetch(url, init);
    timing = serverTiming(res.headers.get('server-timing'));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(buffer.indexOf('data:') + 5, cut).trim();
        buffer = buffer.slice(cut + 2);
        if (data === 'DONE' || data === '[DONE]') ok = ok || !bare;
        else if (ttft < 0 && (bare ? JSON.parse(data).choices?.[0]?.delta?.content : JSON.parse(data).Data?.OutputMessage)) ttft = performance.now() - start;
        if (!bare && data !== 'DONE' && JSON.parse(data).Code !== 10000) ok = false;
      }
    }
    return { ttft, ok: ok && ttft >= 0, timing };
  } catch {
    return { ttft, ok: false };
  }
}

function tandemRequest(server: string, token: string): [string, RequestInit] {
  return [`${server}/api/Chat/AddMessage`, { method: 'POST', headers: { 'content-type': 'application/json-patch+json', authorization: `Bearer ${token}` }, body: MESSAGE }];
}

/** A few requests a second beside the load, each timed to its first token. */
function startProbe(rate: number, next: () => [string, RequestInit], bare: boolean) {
  const results: Promise<Timed>[] = [];
  const timer = setInterval(() => results.push(timedRequest(...next(), bare)), 1000 / rate);
  return async () => {
    clearInterval(timer);
    const done = (await Promise.all(results)).filter((r) => r.ok);
    const timings = (name: string) => done.flatMap((r) => (r.timing && Number.isFinite(r.timing[name]) ? [r.timing[name]] : []));
    return { sent: results.length, ok: done.length, ttfts: done.map((r) => r.ttft), prepare: timings('prepare'), store: timings('store'), wait: timings('wait') };
  };
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

async function loadStep(side: 'tandem' | 'bare', target: string, pid: number, tokens: string[], rate: number, seconds: number, db?: pg.Client) {
  let turn = 0;
  const token = () => tokens[turn++ % tokens.length];
  const probeRate = Number(args.probe);
  if (side === 'tandem') await report('reset');
  const since = new Date();
  const cpuBefore = cpuMsOf(pid);
  const stopProbe = startProbe(
    probeRate,
    side === 'tandem' ? () => tandemRequest(target, token()) : () => [`${target}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: UPSTREAM_BODY }],
    side === 'bare',
  );
  const result = await autocannon({
    url: target,
    connections: Number(args.connections),
    overallRate: Math.max(1, rate - probeRate),
    duration: seconds,
    timeout: 10,
    requests: [
      side === 'tandem'
        ? {
            method: 'POST',
            path: '/api/Chat/AddMessage',
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              headers: { 'content-type': 'application/json-patch+json', authorization: `Bearer ${token()}` },
              body: MESSAGE,
            }),
          }
        : { method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: UPSTREAM_BODY },
    ],
  });
  const probe = await stopProbe();
  const cpu = cpuMsOf(pid) - cpuBefore;
  const server = side === 'tandem' ? await report() : null;
  // Answers cut by autocannon's stop run on to their end (a disconnect is no stop): most are stored a moment later.
  await new Promise((r) => setTimeout(r, 1000));
  const reached = (result['2xx'] + probe.ok) / seconds;
  const failed = result.non2xx + result.errors + result.timeouts + (probe.sent - probe.ok);
  let stored = '';
  if (db) {
    const rows = (await db.query('select finish_reason, count(*)::int as n from chat_messages where created_at >= $1 group by 1 order by 2 desc', [since])).rows;
    stored = rows.map((r: { finish_reason: string | null; n: number }) => `${r.finish_reason ?? 'unfinished'} ${r.n}`).join(', ');
  }
  console.log(
    `${side.padEnd(6)} target ${String(rate).padStart(4)}/s  reached ${f1(reached)}/s  failed ${failed}` +
      `  answer p50/p99 ${result.latency.p50}/${result.latency.p99} ms  first token p50/p99 ${f1(pct(probe.ttfts, 50))}/${f1(pct(probe.ttfts, 99))} ms (probe ${probe.ok}/${probe.sent})` +
      (probe.store.length
        ? `  server-timing p50/p99: before the model call ${f1(pct(probe.prepare, 50))}/${f1(pct(probe.prepare, 99))}, statement ${f1(pct(probe.store, 50))}/${f1(pct(probe.store, 99))}, first text waiting for it ${f1(pct(probe.wait, 50))}/${f1(pct(probe.wait, 99))} ms`
        : '') +
      `  cpu ${(cpu / (result['2xx'] + probe.ok)).toFixed(2)} ms/start (${((100 * cpu) / 1000 / seconds).toFixed(0)}% of a core)` +
      (server ? `  loop delay p50/p99/max ${server.delayMs.p50}/${server.delayMs.p99}/${server.delayMs.max} ms  rss ${server.rssMB} MB` : '') +
      (db ? `  stored: ${stored}` : ''),
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
  await Promise.all(tokens.map((t) => timedRequest(...tandemRequest(tandem.url, t), false)));
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
    running.push(timedRequest(...tandemRequest(tandem.url, tokens[i % tokens.length]), false));
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
  const db = new pg.Client({ connectionString: tandem.databaseUrl });
  await db.connect();
  const { rows } = await db.query(
    `select count(*) filter (where finish_reason = 'stop' and output_message like $1)::int as complete, count(*)::int as total
     from chat_messages where created_at >= $2`,
    [`%tok${seconds - 1} %`, since],
  );
  await db.end();
  const end = await report('gc');
  console.log(
    `soak: ${ok.length}/${streams} answers complete at the client (first token p50/p99 ${f1(pct(ok.map((r) => r.ttft), 50))}/${f1(pct(ok.map((r) => r.ttft), 99))} ms);` +
      ` stored complete ${rows[0].complete} of ${rows[0].total}; after: rss ${end.rssMB} MB, heap ${end.heapUsedMB} MB`,
  );
  await tandem.drop();
}

(args.soak ? soak() : load()).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
