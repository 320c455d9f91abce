/**
 * What the Tandem server adds to a model's latency: time to first token (TTFT) and per-chunk delay
 * through POST /api/Chat/AddMessage, against the same fake upstream called directly and through a
 * bare pass-through proxy (the cost of one more hop on this machine), interleaved request by
 * request, at concurrency 1 and 100. The server runs as `npm start` would run it (its own
 * process, PGlite in a temporary folder); the fake upstream runs in a third process and stamps each
 * chunk with its send time, so the per-chunk delay is measured from upstream send to client receipt.
 *
 *   npm run bench:proxy                       # defaults: PGlite
 *   npm run bench:proxy -- --requests 400 --concurrency 1,100
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:proxy   # on PostgreSQL
 *   npm run bench:proxy -- --databases pglite,postgres   # both servers side by side, interleaved
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CHAT_BODY, chatHeaders, pct, readSse, serverTimingOf, startFakeUpstream, startPassThrough, startTandem, UPSTREAM_BODY, type BenchServer } from './harness.ts';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '1,100' },
    warmup: { type: 'string', default: '60' },
    /** Tandem servers to run side by side, one per database; default as BENCH_DATABASE_URL says. */
    databases: { type: 'string' },
  },
});
const REQUESTS = Number(args.requests);
const LEVELS = args.concurrency!.split(',').map(Number);
const WARMUP = Number(args.warmup);

const now = () => performance.timeOrigin + performance.now();

const STAMP = /⟨(\d+\.\d+)⟩/g;

/** `timing`: Tandem's Server-Timing figures (ms), e.g. prepare (before the model call) and store. */
type Sample = {
  ttft: number;
  /** The first text's two halves: until the upstream stamped it (it left the upstream), and from there to the client. */
  ttftUp: number;
  ttftDown: number;
  chunkDelays: number[];
  timing?: Record<string, number>;
};

const newSample = (): Sample => ({ ttft: -1, ttftUp: -1, ttftDown: -1, chunkDelays: [] });

function collect(text: string, received: number, sample: Sample, start: number) {
  for (const m of text.matchAll(STAMP)) {
    const stamp = Number(m[1]);
    if (sample.ttft < 0) [sample.ttft, sample.ttftUp, sample.ttftDown] = [received - start, stamp - start, received - stamp];
    sample.chunkDelays.push(received - stamp);
  }
}

/** The OpenAI protocol straight from `base`: the upstream itself, or the pass-through proxy in front of it. */
async function direct(upstream: string): Promise<Sample> {
  const sample = newSample();
  const start = now();
  const res = await fetch(`${upstream}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: UPSTREAM_BODY,
  });
  await readSse(res.body!, (data) => {
    if (data === '[DONE]') return;
    const content = JSON.parse(data).choices?.[0]?.delta?.content;
    if (content) collect(content, now(), sample, start);
  });
  return sample;
}

async function proxied(server: string, token: string): Promise<Sample> {
  const sample = newSample();
  const start = now();
  const res = await fetch(`${server}/api/Chat/AddMessage`, {
    method: 'POST',
    headers: chatHeaders(token),
    body: CHAT_BODY,
  });
  if (!res.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`not a stream: ${await res.text()}`);
  sample.timing = serverTimingOf(res.headers.get('server-timing'));
  await readSse(res.body!, (data) => {
    if (data === 'DONE') return;
    const event = JSON.parse(data);
    if (event.Code !== 10000) throw new Error(`stream error: ${event.Msg}`);
    if (event.Data?.OutputMessage) collect(event.Data.OutputMessage, now(), sample, start);
  });
  if (sample.ttft < 0) throw new Error('no text in the answer');
  return sample;
}

const f = (x: number) => x.toFixed(3);

/** The samples of each side: the upstream directly, through the bare hop, and through each Tandem server. */
type Sides = Map<string, Sample[]>;
type Side = { name: string; call: () => Promise<Sample> };

async function run(concurrency: number, total: number, sides: Side[]): Promise<Sides> {
  const out: Sides = new Map(sides.map((s) => [s.name, []]));
  let issued = 0;
  const worker = async (w: number) => {
    // Each round runs every side in a rotating order, so drift in machine load hits all alike.
    for (let i = 0; issued < total; i++) {
      issued += 1;
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(i + w + k) % sides.length]!;
        out.get(side.name)!.push(await side.call());
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  return out;
}

const p50p99 = (xs: number[]) => [pct(xs, 50), pct(xs, 99)] as const;

function report(concurrency: number, s: Sides, tandems: string[]) {
  const metric = (name: string, pick: (x: Sample[]) => number[]) => {
    const [d50, d99] = p50p99(pick(s.get('direct')!));
    const [b50, b99] = p50p99(pick(s.get('bare pass-through')!));
    console.log(`  ${name}: p50 / p99 ms`);
    console.log(`    direct to upstream     ${f(d50)} / ${f(d99)}`);
    console.log(`    bare pass-through      ${f(b50)} / ${f(b99)}   added ${f(b50 - d50)} / ${f(b99 - d99)}   ratio ${(b50 / d50).toFixed(2)}x / ${(b99 / d99).toFixed(2)}x`);
    for (const t of tandems) {
      const [t50, t99] = p50p99(pick(s.get(t)!));
      console.log(`    ${t.padEnd(22)} ${f(t50)} / ${f(t99)}   added ${f(t50 - d50)} / ${f(t99 - d99)}   ratio ${(t50 / d50).toFixed(2)}x / ${(t99 / d99).toFixed(2)}x`);
      console.log(`      beyond the bare hop: ${f(t50 - b50)} / ${f(t99 - b99)}`);
    }
    if (tandems.length === 2) {
      const [[a50, a99], [c50, c99]] = tandems.map((t) => p50p99(pick(s.get(t)!)));
      console.log(`    ${tandems[0]} / ${tandems[1]}: ${(a50! / c50!).toFixed(2)}x / ${(a99! / c99!).toFixed(2)}x`);
    }
  };
  const first = s.get(tandems[0]!)!;
  console.log(`concurrency ${concurrency}: ${first.length} requests per side, ${first.flatMap((x) => x.chunkDelays).length} chunks`);
  metric('time to first token', (x) => x.map((v) => v.ttft));
  metric('  of which until the upstream sent it', (x) => x.map((v) => v.ttftUp));
  metric('  of which from the upstream to the client', (x) => x.map((v) => v.ttftDown));
  for (const t of tandems) {
    const timing = (name: string) => s.get(t)!.flatMap((v) => v.timing?.[name] ?? []);
    const [prepare, store, wait] = [timing('prepare'), timing('store'), timing('wait')];
    if (!prepare.length || !store.length) continue;
    console.log(`    ${t}'s Server-Timing: before the model call ${f(pct(prepare, 50))} / ${f(pct(prepare, 99))}`);
    console.log(`      the statement that charges and stores the message (beside the model call): ${f(pct(store, 50))} / ${f(pct(store, 99))}`);
    if (wait.length) console.log(`      the first answer text waiting for that statement: ${f(pct(wait, 50))} / ${f(pct(wait, 99))}`);
  }
  metric('per-chunk delay', (x) => x.flatMap((v) => v.chunkDelays));
}

/**
 * The floor under the statement that stores a message: one round trip to the same PostgreSQL,
 * nothing written, after the idle gap a streamed answer leaves between two messages at concurrency 1.
 */
async function databaseFloor(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const times: number[] = [];
  for (let i = 0; i < 150; i++) {
    await new Promise((r) => setTimeout(r, 40));
    const started = performance.now();
    await client.query('select 1');
    times.push(performance.now() - started);
  }
  await client.end();
  console.log(`database round trip alone (select 1 after 40 ms idle): p50 / p99 ${f(pct(times, 50))} / ${f(pct(times, 99))} ms`);
}

/** A Tandem server on `database`, with a user signed in: its side of the run. */
async function tandemSide(upstream: string, database: 'pglite' | 'postgres'): Promise<{ server: BenchServer; side: Side }> {
  const server = await startTandem(upstream, { database });
  const post = async (path: string, body: unknown) =>
    (await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const email = `bench-${Date.now()}@example.com`;
  await post('/api/Account/AddUser', { email, password: 'bench-password' });
  const { Data: login } = await post('/api/Account/Login', { email, password: 'bench-password' });
  const { Data: token } = await (await fetch(`${server.url}/api/User/GetTokenForTempKey?tempKey=${login.tempKey}`)).json();
  const name = args.databases ? `Tandem on ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'}` : 'through Tandem';
  return { server, side: { name, call: () => proxied(server.url, token) } };
}

async function main() {
  const upstream = await startFakeUpstream();
  const { url: passThrough } = await startPassThrough(upstream);
  // On PostgreSQL the run gets a database of its own, dropped at the end.
  const databases = (args.databases ?? (process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite')).split(',') as ('pglite' | 'postgres')[];
  const tandems = [];
  for (const database of databases) tandems.push(await tandemSide(upstream, database));
  const sides: Side[] = [
    { name: 'direct', call: () => direct(upstream) },
    { name: 'bare pass-through', call: () => direct(passThrough) },
    ...tandems.map((t) => t.side),
  ];
  console.log(`proxy overhead: ${REQUESTS} requests per side and level, ${WARMUP} warm-up; database ${databases.join(' and ')}; node ${process.version}`);
  await run(4, WARMUP, sides);
  for (const c of LEVELS) report(c, await run(c, Math.max(REQUESTS, c * 2), sides), tandems.map((t) => t.side.name));
  for (const t of tandems) if (t.server.databaseUrl) await databaseFloor(t.server.databaseUrl);
  for (const t of tandems) await t.server.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
