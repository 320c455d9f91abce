/**
 * bench/follow-up: what a message in a long chat costs before the model is asked, beside a new chat's
 * in the same run. A follow-up reads the session's history (as far back as the model can read) before
 * the upstream call; a new chat reads nothing. Tandem runs as `npm start` runs it, against the fake
 * upstream, on PostgreSQL (BENCH_DATABASE_URL: a database of its own is created and dropped); the
 * long sessions are written straight into the database, one exchange of `--answer-chars` a millisecond.
 *
 * Run: npm run bench:follow-up  [-- --exchanges 40,1000,3000 --messages 60 --answer-chars 2000]
 * Figures: Server-Timing `prepare` (from the request's arrival to the model call) and the time to
 * the first token at the client, p50 / p95, and their ratio to a new chat's.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chatHeaders, loggedInUsers, pct, readSse, serverTimingOf, startFakeUpstream, startTandem } from '../harness.ts';

const { values: args } = parseArgs({
  options: {
    exchanges: { type: 'string', default: '40,1000,3000' },
    messages: { type: 'string', default: '60' },
    'answer-chars': { type: 'string', default: '2000' },
  },
});
const EXCHANGES = args.exchanges!.split(',').map(Number);
const MESSAGES = Number(args.messages);
const ANSWER_CHARS = Number(args['answer-chars']);

type Timing = { prepare: number[]; firstToken: number[] };

async function main() {
  const upstream = await startFakeUpstream();
  const tandem = await startTandem(upstream);
  if (!tandem.databaseUrl) throw new Error('bench:follow-up needs PostgreSQL (BENCH_DATABASE_URL) to write the long sessions');
  const [token] = await loggedInUsers(tandem.url, 1);

  /** One message (a follow-up in `sessionId`, or a new chat), read to its end. */
  const send = async (sessionId?: string) => {
    const started = performance.now();
    const res = await fetch(`${tandem.url}/api/Chat/AddMessage`, {
      method: 'POST',
      headers: chatHeaders(token),
      body: JSON.stringify({ aiModelId: 'bench-model', inputMessage: 'and then?', ...(sessionId ? { chatSessionId: sessionId } : {}) }),
    });
    let firstToken = 0;
    let session = '';
    await readSse(res.body!, (data) => {
      if (data === 'DONE') return;
      const event = JSON.parse(data) as { Code: number; Data: { ChatSessionId?: string; OutputMessage?: string } | null };
      if (event.Code !== 10000) throw new Error(`message refused: ${data}`);
      session ||= event.Data?.ChatSessionId ?? '';
      if (!firstToken && event.Data?.OutputMessage) firstToken = performance.now() - started;
    });
    return { session, firstToken, prepare: serverTimingOf(res.headers.get('server-timing')).prepare ?? NaN };
  };
  const measure = async (sessionId?: string): Promise<Timing> => {
    const t: Timing = { prepare: [], firstToken: [] };
    for (let i = 0; i < MESSAGES; i++) {
      const one = await send(sessionId);
      t.prepare.push(one.prepare);
      t.firstToken.push(one.firstToken);
    }
    return t;
  };

  // Warm-up, then the baseline: new chats, no history to read.
  for (let i = 0; i < 20; i++) await send();
  const { session } = await send();
  const baseline = await measure();

  const db = new pg.Client(tandem.databaseUrl);
  await db.connect();
  const f = (x: number) => x.toFixed(2);
  const line = (label: string, t: Timing) =>
    `  ${label.padEnd(28)} prepare ${f(pct(t.prepare, 50))} / ${f(pct(t.prepare, 95))} ms (x${f(pct(t.prepare, 50) / pct(baseline.prepare, 50))})   first token ${f(pct(t.firstToken, 50))} / ${f(pct(t.firstToken, 95))} ms (x${f(pct(t.firstToken, 50) / pct(baseline.firstToken, 50))})`;
  console.log(`follow-up: ${MESSAGES} messages a level, answers of ${ANSWER_CHARS} characters in the long sessions; p50 / p95, (ratio of p50 to a new chat's)`);
  console.log(line('new chat (baseline)', baseline));
  let have = 1;
  for (const exchanges of EXCHANGES) {
    if (exchanges > have) {
      // A straight line of exchanges after the chat's last one (answer versions: each follows the one before it).
      const id = (g: string) => `$1 || '-${have}-' || ${g}`;
      await db.query(
        `insert into chat_messages (id, session_id, parent_id, user_id, input_message, output_message, requested_model_id, ai_model_id, model_name, finish_reason, created_at, updated_at, finished_at)
        select ${id('g')}, $1, case when g = 1 then s.current_leaf_id else ${id('(g - 1)')} end, s.user_id, 'question ' || g, left(repeat('answer text ', $3 / 12 + 1), $3),
          'bench-model', 'bench-model', 'bench-model', 'stop', t, t, t
        from chat_sessions s, generate_series(1, $2::int) g, lateral (select now() - interval '1 day' + g * interval '1 ms' as t) w
        where s.id = $1`,
        [session, exchanges - have, ANSWER_CHARS],
      );
      await db.query(`update chat_sessions set current_leaf_id = ${id('$2::int')} where id = $1`, [session, exchanges - have]);
      await db.query('analyze chat_messages');
      have = exchanges;
    }
    console.log(line(`follow-up, ${have} exchanges`, await measure(session)));
    have += MESSAGES;
  }
  await db.end();
  await tandem.drop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
