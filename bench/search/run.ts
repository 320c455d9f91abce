/**
 * bench/search: full-text search in a user's messages (GET /api/Chat/SearchMessages) on PostgreSQL,
 * for a user with 100k messages among 300k, over real HTTP to a server built in this process.
 * Baseline, side by side: the history's first page (GetChatSessionListBySelf), the cheapest call a
 * signed-in page makes. Run: npm run bench:search  (BENCH_DATABASE_URL, default the local `test`).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const MESSAGES = arg('messages', 100_000);
const OTHERS = arg('others', 2);
const RUNS = arg('runs', 200);
const PER_SESSION = 20;

const ENGLISH = 'the model answer question please explain code python function error value list data page reason simple example because would could about there their which other after first people water light'.split(' ');
const CHINESE = ['我们', '今天', '问题', '模型', '回答', '解释', '代码', '函数', '错误', '数据', '页面', '例子', '因为', '可以', '关于', '天气', '学习', '工作', '时间', '朋友'];

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(text);
  await c.end();
}

/**
 * `count` messages for `userId` in sessions of 20, with made-up English or Chinese text; the rare
 * words the bench looks for are planted in a known number of them.
 */
async function seedUser(client: pg.Client, userId: string, count: number, plant: boolean): Promise<void> {
  const words = `(array[${ENGLISH.map((w) => `'${w}'`).join(',')}])`;
  const han = `(array[${CHINESE.map((w) => `'${w}'`).join(',')}])`;
  await client.query(`insert into chat_sessions (id, user_id, title, created_at, last_active_at)
    select '${userId}-s' || s, '${userId}', 'Session ' || s, now() - (s || ' minutes')::interval, now() - (s || ' minutes')::interval
    from generate_series(1, ${Math.ceil(count / PER_SESSION)}) s`);
  await client.query(`insert into chat_messages (id, session_id, user_id, input_message, output_message, requested_model_id, finish_reason, created_at)
    select '${userId}-m' || i, '${userId}-s' || (1 + (i - 1) / ${PER_SESSION}),  '${userId}',
      case when i % 3 = 0 then (select string_agg(${han}[1 + floor(random() * ${CHINESE.length})::int], '') from generate_series(1, 12 + i % 5))
           else (select string_agg(${words}[1 + floor(random() * ${ENGLISH.length})::int], ' ') from generate_series(1, 10 + i % 7)) end
        ${plant ? `|| case when i % 1000 = 7 then ' zephyrine' when i % 997 = 3 then '量子纠缠' else '' end` : ''},
      case when i % 3 = 0 then (select string_agg(${han}[1 + floor(random() * ${CHINESE.length})::int], '') from generate_series(1, 150 + i % 50))
           else (select string_agg(${words}[1 + floor(random() * ${ENGLISH.length})::int], ' ') from generate_series(1, 90 + i % 40)) end,
      'basic', 'stop', now() - (i || ' seconds')::interval
    from generate_series(1, ${count}) i`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(url: string, token: string): Promise<{ p50: number; p95: number; p99: number; hits: number }> {
  const headers = { authorization: `Bearer ${token}` };
  let hits = 0;
  for (let i = 0; i < 10; i++) await fetch(url, { headers }).then((r) => r.text());
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const body = (await (await fetch(url, { headers })).json()) as { Code: number; Data: { total: number } };
    times.push(performance.now() - start);
    if (body.Code !== 10000) throw new Error(`${url}: Code ${body.Code}`);
    hits = body.Data.total;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), hits };
}

async function main(): Promise<void> {
  const name = `tandem_bench_search_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 10 });
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', OLLAMA_URL: 'http://127.0.0.1:9' }), database, logger: false });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = async (path: string, body: object, token?: string) =>
      ((await (await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) })).json()) as { Data: Record<string, string> }).Data;
    const users: { userId: string; token: string }[] = [];
    for (let i = 0; i <= OTHERS; i++) {
      const email = `bench-${i}@example.test`;
      const { userId } = await post('/api/Account/AddUser', { email, password: 'correct horse battery' });
      const { tempKey } = await post('/api/Account/Login', { email, password: 'correct horse battery' });
      const exchanged = (await (await fetch(`${base}/api/User/GetTokenForTempKey?tempKey=${encodeURIComponent(tempKey!)}`)).json()) as { Data: string };
      const token = exchanged.Data;
      users.push({ userId: userId!, token: token! });
    }
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => {});
    await client.connect();
    const seeding = performance.now();
    for (const [i, user] of users.entries()) await seedUser(client, user.userId, MESSAGES, i === 0);
    await client.query('analyze');
    console.log(`seeded ${users.length} users × ${MESSAGES} messages in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);

    const me = users[0]!;
    const cases: [string, string][] = [
      ['baseline: history page 1 (GetChatSessionListBySelf)', '/api/Chat/GetChatSessionListBySelf?page=1&count=10'],
      ['rare English word (zephyrine)', `/api/Chat/SearchMessages?q=zephyrine`],
      ['rare Chinese phrase (量子纠缠)', `/api/Chat/SearchMessages?q=${encodeURIComponent('量子纠缠')}`],
      ['common English word (python)', `/api/Chat/SearchMessages?q=python`],
      ['common Chinese word (天气)', `/api/Chat/SearchMessages?q=${encodeURIComponent('天气')}`],
      ['English phrase that never occurs', `/api/Chat/SearchMessages?q=${encodeURIComponent('purple elephant')}`],
      ['page 5 of a common word', `/api/Chat/SearchMessages?q=python&page=5`],
    ];
    const rows: string[] = [];
    let baseline = 0;
    for (const [label, path] of cases) {
      const r = await time(`${base}${path}`, me.token);
      if (!baseline) baseline = r.p50;
      rows.push(`| ${label} | ${r.hits} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / baseline).toFixed(1)}× |`);
    }
    await client.end();
    console.log(`\n${RUNS} requests each, one at a time, milliseconds over HTTP on loopback (target: search p95 ≤ 50 ms)\n`);
    console.log('| query | matches (total, capped at 1000) | p50 | p95 | p99 | p50 vs baseline |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await app.close();
    await database.close();
    if (process.argv.includes('--keep')) console.log(`kept database ${name}`);
    else await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

await main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
