/**
 * bench/search: full-text search in a user's messages (GET /api/Chat/SearchMessages) on PostgreSQL,
 * for a user with 100k messages among 300k, over real HTTP to a server built in this process.
 * Baseline, side by side: the history's first page (GetChatSessionListBySelf), the cheapest call a
 * signed-in page makes. Run: npm run bench:search  (BENCH_DATABASE_URL, default the local `test`).
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { arg, signUp, timeRoute, withBenchServer } from '../in-process.ts';

const MESSAGES = arg('messages', 100_000);
const OTHERS = arg('others', 2);
const RUNS = arg('runs', 200);
const PER_SESSION = 20;

const ENGLISH = 'the model answer question please explain code python function error value list data page reason simple example because would could about there their which other after first people water light'.split(' ');
const CHINESE = ['我们', '今天', '问题', '模型', '回答', '解释', '代码', '函数', '错误', '数据', '页面', '例子', '因为', '可以', '关于', '天气', '学习', '工作', '时间', '朋友'];

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

await withBenchServer('tandem_bench_search', async ({ base, client }) => {
  const users: { userId: string; token: string }[] = [];
  for (let i = 0; i <= OTHERS; i++) users.push(await signUp(base, `bench-${i}@example.test`));
  const seeding = performance.now();
  for (const [i, user] of users.entries()) await seedUser(client, user.userId, MESSAGES, i === 0);
  await client.query('vacuum analyze');
  console.log(`seeded ${users.length} users × ${MESSAGES} messages in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);

  const me = users[0]!;
  const cases: [string, string][] = [
    ['baseline: history page 1 (GetChatSessionListBySelf)', '/api/Chat/GetChatSessionListBySelf?page=1&count=10'],
    ['rare English word (zephyrine)', '/api/Chat/SearchMessages?q=zephyrine'],
    ['rare Chinese phrase (量子纠缠)', `/api/Chat/SearchMessages?q=${encodeURIComponent('量子纠缠')}`],
    ['common English word (python)', '/api/Chat/SearchMessages?q=python'],
    ['common Chinese word (天气)', `/api/Chat/SearchMessages?q=${encodeURIComponent('天气')}`],
    ['English phrase that never occurs', `/api/Chat/SearchMessages?q=${encodeURIComponent('purple elephant')}`],
    ['page 5 of a common word', '/api/Chat/SearchMessages?q=python&page=5'],
  ];
  const rows: string[] = [];
  let baseline = 0;
  for (const [label, path] of cases) {
    const r = await timeRoute(`${base}${path}`, me.token, RUNS);
    if (!baseline) baseline = r.p50;
    rows.push(`| ${label} | ${r.total} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / baseline).toFixed(1)}× |`);
  }
  console.log(`\n${RUNS} requests each, one at a time, milliseconds over HTTP on loopback (target: search p95 ≤ 50 ms)\n`);
  console.log('| query | matches (total, capped at 100) | p50 | p95 | p99 | p50 vs baseline |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
});
