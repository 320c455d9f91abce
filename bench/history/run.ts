/**
 * bench/history: the chat history of a heavy user on PostgreSQL: 100k sessions and 1M messages
 * (among other users' data), listed and searched by title through the real routes
 * (GetChatSessionListBySelf, GetChatMessageListBySelfSessionId) over HTTP on loopback, to a server
 * built in this process. Target: p95 ≤ 10 ms for the list and the title search.
 *
 * Run: npm run bench:history  [-- --sessions 100000 --per-session 10 --others 2 --runs 300 --keep | --reuse NAME]
 * (BENCH_DATABASE_URL, default the local `test`; a database of its own is created and dropped.)
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { arg, percentile, signUp, timeRoute, withBenchServer } from '../in-process.ts';

const SESSIONS = arg('sessions', 100_000);
const PER_SESSION = arg('per-session', 10);
const OTHERS = arg('others', 2);
/** Sessions of each other user (their messages: PER_SESSION each too). */
const OTHER_SESSIONS = arg('other-sessions', 10_000);
const RUNS = arg('runs', 300);
const TARGET_P95_MS = 10;

const TOPICS = 'python kubernetes recipe travel invoice poem resume garden physics history budget lecture contract music football translation marketing chemistry novel email'.split(' ');

/**
 * `sessions` sessions of `perSession` messages for `userId`, each active a minute apart. Titles are
 * like "Python question 4711": each topic word is in 1 title of 20, each number in one title.
 */
async function seedUser(client: pg.Client, userId: string, sessions: number, perSession: number): Promise<void> {
  const topics = `(array[${TOPICS.map((w) => `'${w}'`).join(',')}])`;
  // Each chat a straight line (answer versions): message i follows the older i + 1; a chat shows its newest.
  await client.query(`insert into chat_sessions (id, user_id, title, describe, created_at, last_active_at, current_leaf_id)
    select '${userId}-s' || s, '${userId}',
      initcap(${topics}[1 + s % ${TOPICS.length}]) || ' question ' || s,
      'What about ' || ${topics}[1 + (s * 7) % ${TOPICS.length}] || ' and the rest of it?',
      now() - (s || ' minutes')::interval, now() - (s || ' minutes')::interval,
      case when ${perSession} > 0 then '${userId}-m' || ((s - 1) * ${perSession} + 1) end
    from generate_series(1, ${sessions}) s`);
  await client.query(`insert into chat_messages (id, session_id, parent_id, user_id, input_message, output_message, requested_model_id, ai_model_id, model_name, finish_reason, created_at, updated_at, finished_at)
    select '${userId}-m' || i, '${userId}-s' || (1 + (i - 1) / ${perSession}), case when i % ${perSession} = 0 then null else '${userId}-m' || (i + 1) end, '${userId}',
      'Tell me about ' || ${topics}[1 + i % ${TOPICS.length}] || ', part ' || i,
      'Here is what I know about ' || ${topics}[1 + i % ${TOPICS.length}] || '. ' || repeat('It depends on the details. ', 1 + i % 8),
      'basic', 'basic', 'basic', 'stop', t, t, t
    from generate_series(1, ${sessions * perSession}) i, lateral (select now() - (i * 6 || ' seconds')::interval as t) x`);
}

/**
 * The list's two statements timed alone, beside a capped count (what a total "1000+" would cost),
 * to tell the database's share from HTTP, JSON and the machine's noise.
 */
async function timeStatements(client: pg.Client, userId: string): Promise<string[]> {
  const order = 'order by last_active_at desc, id desc limit 20';
  // What a title search reads of the chats that are not pinned: one row past the page of 20, by LIKE on lower() (listSessions).
  const search = 'select id from chat_sessions where user_id = $1 and lower(title) like lower($2) and pinned_at is null order by last_active_at desc, id desc limit 21';
  const statements: [string, string, unknown[]][] = [
    // A page is two reads (sessionsInOrder): the pinned chats, then the others.
    ['the pinned chats (3) up to the end of page 1', 'select id, title, describe, created_at from chat_sessions where user_id = $1 and pinned_at is not null order by pinned_at desc, id desc limit 20', [userId]],
    ['page 1 of the others', `select id, title, describe, created_at from chat_sessions where user_id = $1 and pinned_at is null ${order}`, [userId]],
    ['exact count of the list (100k)', 'select count(*) from chat_sessions where user_id = $1', [userId]],
    ['count capped at 1001', 'select count(*) from (select 1 from chat_sessions where user_id = $1 limit 1001) c', [userId]],
    ['title search page 1 (kubernetes), one row past it', search, [userId, '%kubernetes%']],
    ['title search page 10 (kubernetes), one row past it', `${search} offset 180`, [userId, '%kubernetes%']],
    ['title search, one match (question 54321)', search, [userId, '%question 54321%']],
    ['title search page 10 by ILIKE (before)', `select id from chat_sessions where user_id = $1 and lower(title) ilike $2 ${order} offset 180`, [userId, '%kubernetes%']],
    ['title search count capped at 1001 (before)', 'select count(*) from (select 1 from chat_sessions where user_id = $1 and lower(title) ilike $2 limit 1001) c', [userId, '%kubernetes%']],
  ];
  const rows: string[] = [];
  for (const [label, text, values] of statements) {
    for (let i = 0; i < 10; i++) await client.query(text, values);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await client.query(text, values);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    rows.push(`| ${label} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 95).toFixed(2)} | ${percentile(times, 99).toFixed(2)} |`);
  }
  return rows;
}

await withBenchServer('tandem_bench_history', async ({ base, client, reused }) => {
  const users = [];
  for (let i = 0; i <= OTHERS; i++) users.push(await signUp(base, `bench-${i}@example.test`, reused ? client : undefined));
  const seeding = performance.now();
  if (!reused) {
    for (const [i, user] of users.entries()) await seedUser(client, user.userId, i === 0 ? SESSIONS : OTHER_SESSIONS, PER_SESSION);
    await client.query('vacuum analyze');
  }
  // A few pinned chats, as a user keeps them (PinSession): they head every list and title search.
  await client.query(`update chat_sessions set pinned_at = now() - (s || ' minutes')::interval from (values (500), (20000), (77777)) v(s) where id = '${users[0]!.userId}-s' || s and pinned_at is null`);
  const [{ sessions, messages }] = (await client.query('select (select count(*) from chat_sessions)::int as sessions, (select count(*) from chat_messages)::int as messages')).rows;
  console.log(`seeded ${sessions} sessions and ${messages} messages (${users.length} users) in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
  const sqlRows = await timeStatements(client, users[0]!.userId);

  const me = users[0]!;
  const list = '/api/Chat/GetChatSessionListBySelf';
  const cases: [string, string][] = [
    ['session list, page 1 (20)', `${list}?page=1&count=20`],
    ['session list, page 50 (20)', `${list}?page=50&count=20`],
    ['title search, one match (question 54321)', `${list}?page=1&count=20&sessionTitle=question%2054321`],
    ['title search, 1 title in 20 (kubernetes)', `${list}?page=1&count=20&sessionTitle=kubernetes`],
    ['title search, 1 title in 20, page 10', `${list}?page=10&count=20&sessionTitle=kubernetes`],
    ['title search, every title (question)', `${list}?page=1&count=20&sessionTitle=question`],
    ['title search, no match (zebra)', `${list}?page=1&count=20&sessionTitle=zebra`],
    ['messages of a session (10)', `/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${me.userId}-s777`],
  ];
  const rows: string[] = [];
  for (const [label, path] of cases) {
    const r = await timeRoute(`${base}${path}`, me.token, RUNS);
    rows.push(`| ${label} | ${r.total} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.p95 <= TARGET_P95_MS ? 'yes' : 'no'} |`);
  }
  console.log(`\n${RUNS} requests each, one at a time, milliseconds over HTTP on loopback (target: p95 ≤ ${TARGET_P95_MS} ms)\n`);
  console.log('| request | total | p50 | p95 | p99 | p95 met |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\nThe statements alone (${RUNS} runs each over one connection, milliseconds): where the list's time goes\n`);
  console.log('| statement | p50 | p95 | p99 |');
  console.log('|---|---|---|---|');
  for (const row of sqlRows) console.log(row);
});
