import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { compiledStatement } from '../../server/db/compiled.ts';
import { startPglite } from '../../server/db/pglite-engine.ts';
import { createPostgresDatabase, onPostgres } from '../helpers/app.ts';

describe('runPrepared: the hot path statements', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (onPostgres) {
      const created = await createPostgresDatabase();
      drop = created.drop;
      // One connection, so the prepared statements seen are the ones this test made.
      database = await openDatabase({ url: created.url, poolSize: 1 });
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
    }
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const query = (n: number, word: string) => sql`select ${n}::int + 1 as next, upper(${word}) as loud, ${n} > 1 as big`;

  it('answers as execute does, for any values', async () => {
    expect(await database.runPrepared(query(1, 'a'))).toEqual([{ next: 2, loud: 'A', big: false }]);
    expect(await database.runPrepared(query(41, 'b'))).toEqual([{ next: 42, loud: 'B', big: true }]);
    expect((await database.db.execute(query(41, 'b'))).rows).toEqual([{ next: 42, loud: 'B', big: true }]);
    expect(await database.runPrepared(query(7, 'c'), { pooled: true })).toEqual([{ next: 8, loud: 'C', big: true }]);
  });

  (onPostgres ? it : it.skip)('prepares a pooled one on the pool’s connection, not a pipelined one', async () => {
    const where = (n: number) => sql`select current_setting('application_name') as app, ${n}::int as n`;
    for (let n = 0; n < 3; n++) expect(await database.runPrepared(where(n), { pooled: true })).toEqual([{ app: expect.not.stringContaining('tandem-pipeline'), n }]);
    // The pool has one connection: what execute sees there is what the pooled statement left.
    const { rows } = await database.db.execute(sql`select name, statement from pg_prepared_statements where statement like '%application_name%'`);
    expect(rows).toEqual([{ name: expect.stringMatching(/^tandem_/), statement: "select current_setting('application_name') as app, $1::int as n" }]);
  });

  it('prepares each text once per connection, under a name of its own', async () => {
    // One at a time, the statements all go to the first pipelined connection (PGlite: its one); so does the check.
    for (let i = 0; i < 5; i++) await database.runPrepared(query(i, `w${i}`));
    await database.runPrepared(sql`select ${'other'} as text`);
    const prepared = await database.runPrepared<{ name: string; statement: string }>(
      sql`select name, statement from pg_prepared_statements where name like 'tandem_%' and statement not like '%pg_prepared_statements%' order by statement`,
    );
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^tandem_[A-Za-z0-9_-]{20}$/), statement: 'select $1 as text' },
      { name: expect.stringMatching(/^tandem_[A-Za-z0-9_-]{20}$/), statement: 'select $1::int + 1 as next, upper($2) as loud, $3 > 1 as big' },
    ]);
  });
  describe('a statement compiled once per shape', () => {
    let builds = 0;
    const greeting = compiledStatement<{ loud: boolean }, { n: number; word: string }>((shape, v) => {
      builds++;
      return sql`select ${v.n}::int + 1 as next, ${shape.loud ? sql`upper(${v.word})` : v.word} as word, ${v.n}::int > 1 as big`;
    });

    it('builds each shape once and binds each call its own values, by name', async () => {
      expect(await database.runPrepared(greeting({ loud: true }, { n: 1, word: 'a' }))).toEqual([{ next: 2, word: 'A', big: false }]);
      expect(await database.runPrepared(greeting({ loud: true }, { word: 'b', n: 41 }))).toEqual([{ next: 42, word: 'B', big: true }]);
      expect(await database.runPrepared(greeting({ loud: false }, { n: 7, word: 'c' }))).toEqual([{ next: 8, word: 'c', big: true }]);
      expect(await database.runPrepared(greeting({ loud: true }, { n: 0, word: 'd' }), { pooled: true })).toEqual([{ next: 1, word: 'D', big: false }]);
      expect(builds).toBe(2);
      expect(greeting({ loud: true }, { n: 5, word: 'e' })).toEqual({ text: 'select $1::int + 1 as next, upper($2) as word, $3::int > 1 as big', values: [5, 'e', 5] });
    });

    it('refuses a value built into the statement, which later calls would send again', () => {
      const leaky = compiledStatement<{ any: boolean }, { n: number }>((_, v) => sql`select ${v.n} as n, ${'kept'} as word`);
      expect(() => leaky({ any: true }, { n: 1 })).toThrow(/literal value \("kept"\)/);
    });

    it('refuses a call that lacks a value', () => {
      expect(() => greeting({ loud: false }, { n: 1 } as { n: number; word: string })).toThrow(/no value for the placeholder word/);
    });
  });
});

describe.skipIf(onPostgres)('PGlite in a thread of its own, reached through pg', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database?.close());

  it('runs a statement whose first run failed: the connection pg opens after an error finds a clean session', async () => {
    // pg's pool ends a connection whose query failed; PGlite's one session still had the statement prepared.
    const divide = (by: number) => database.runPrepared<{ q: number }>(sql`select 12 / ${by}::int as q`);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect(await divide(4)).toEqual([{ q: 3 }]);
    await expect(database.db.transaction(async (tx) => {
      await tx.execute(sql`create table kept_or_not (n int)`);
      throw new Error('changed my mind');
    })).rejects.toThrow(/changed my mind/);
    expect((await database.db.execute(sql`select to_regclass('kept_or_not') as t`)).rows).toEqual([{ t: null }]);
  });

  it('runs a transaction alone: another connection’s statement waits for its end, and never sees inside it', async () => {
    await database.db.execute(sql`create table if not exists held (n int)`);
    let seen: Promise<{ n: number }[]> | undefined;
    let settled = false;
    await expect(database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into held values (1)`);
      // On the pipelined connection, while the pool's connection is inside the transaction.
      seen = database.runPrepared<{ n: number }>(sql`select count(*)::int as n from held where ${1} = 1`);
      void seen.then(() => (settled = true));
      // Once it has left for the thread (a turn of the event loop), a statement of the transaction
      // after it: run first, and answered while the other still waits.
      await new Promise((r) => setImmediate(r));
      await tx.execute(sql`select 1`);
      expect(settled).toBe(false);
      throw new Error('rolled back');
    })).rejects.toThrow(/rolled back/);
    expect(await seen).toEqual([{ n: 0 }]);
  });

  it('fails at once, not for ever, once its thread has died; closing then ends at once', async () => {
    const engine = await startPglite({});
    const pool = new pg.Pool({ max: 1, user: 'postgres', database: 'postgres', stream: () => engine.connection() });
    pool.on('error', () => {});
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await engine.thread.terminate();
      await expect(pool.query('select 1 as one')).rejects.toThrow(/embedded database stopped/);
      // A new connection too: refused as it starts.
      await expect(pool.query('select 1 as one')).rejects.toThrow(/embedded database stopped/);
      await expect(engine.dump()).rejects.toThrow(/embedded database stopped/);
      expect(errors).toHaveBeenCalledWith('the embedded database stopped', expect.any(Error));
    } finally {
      errors.mockRestore();
    }
    await pool.end();
    await engine.close();
  });

  it('keeps the event loop free while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const [{ n }] = (await database.db.execute(sql`select count(*)::int as n from generate_series(1, 3000000)`)).rows as [{ n: number }];
      expect(n).toBe(3_000_000);
    } finally {
      clearInterval(timer);
    }
    // On the server's own thread the statement would have held every timer until it ended.
    expect(ticks).toBeGreaterThan(0);
  });
});

describe.skipIf(!onPostgres)('runPrepared on PostgreSQL: pipelined connections', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let url: string;
  const other = () => new pg.Client({ connectionString: url });

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase());
    database = await openDatabase({ url, poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const backend = (n: number) => sql`select ${n}::int as n, pg_backend_pid() as pid`;
  const pipelinedBackends = `select pid from pg_stat_activity where datname = current_database() and application_name = 'tandem-pipeline'`;

  it('answers each of many statements sent at once with its own row, spread over the connections', async () => {
    const rows = await Promise.all(Array.from({ length: 200 }, (_, n) => database.runPrepared<{ n: number; pid: number }>(backend(n))));
    expect(rows.map(([r]) => r!.n)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    expect(new Set(rows.map(([r]) => r!.pid)).size).toBe(2);
  });

  it('fails only the statement that fails: each is its own transaction', async () => {
    const divide = (by: number) => database.runPrepared<{ q: number }>(sql`select 12 / ${by}::int as q`);
    const results = await Promise.allSettled([2, 3, 0, 4, 6].map(divide));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value[0]!.q : 'refused'))).toEqual([6, 4, 'refused', 3, 2]);
    expect(await divide(1)).toEqual([{ q: 12 }]);
  });

  it('sends new statements past one that waits for a lock', async () => {
    const holder = other();
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(7317099)');
      let waited = false;
      const waiting = database.runPrepared(sql`select pg_advisory_lock(7317099), pg_advisory_unlock(7317099)`).then(() => (waited = true));
      // Its connection counts as held up once it has answered nothing for the pipelines' HELD_UP_MS (50 ms).
      await vi.waitFor(
        async () =>
          expect(
            (await holder.query(`${pipelinedBackends} and wait_event_type = 'Lock' and clock_timestamp() - query_start > interval '60 milliseconds'`)).rowCount,
          ).toBe(1),
        { timeout: 5000, interval: 10 },
      );
      const passing = await Promise.all(Array.from({ length: 10 }, (_, n) => database.runPrepared<{ n: number }>(backend(n))));
      expect(passing.map(([r]) => r!.n)).toEqual(Array.from({ length: 10 }, (_, n) => n));
      expect(waited).toBe(false);
      await holder.query('select pg_advisory_unlock(7317099)');
      await waiting;
      expect(waited).toBe(true);
    } finally {
      await holder.end();
    }
  });

  it('rejects what a lost connection carried and carries on with new ones', async () => {
    const killer = other();
    await killer.connect();
    try {
      const before = (await killer.query<{ pid: number }>(pipelinedBackends)).rows.map((r) => r.pid);
      expect(before).toHaveLength(2);
      const sleeping = database.runPrepared(sql`select pg_sleep(30)`).then(
        () => 'answered',
        (err: Error) => err.message,
      );
      await vi.waitFor(async () => expect((await killer.query(`${pipelinedBackends} and query like 'select pg_sleep%' and state = 'active'`)).rowCount).toBe(1), {
        timeout: 5000,
        interval: 10,
      });
      // Both pipelined connections end, the one carrying the sleeping statement among them.
      await killer.query(`select pg_terminate_backend(pid) from (${pipelinedBackends}) p`);
      expect(await sleeping).toMatch(/terminat/);
      // The first statements after a loss may still meet an old connection before it has noticed.
      const answered = await vi.waitFor(() => database.runPrepared<{ n: number; pid: number }>(backend(1)), { timeout: 5000, interval: 10 });
      expect(answered[0]?.n).toBe(1);
      const after = await Promise.all(Array.from({ length: 20 }, (_, n) => database.runPrepared<{ n: number; pid: number }>(backend(n))));
      expect(after.map(([r]) => r!.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
      // Answered by new backends only.
      expect([answered[0]!.pid, ...after.map(([r]) => r!.pid)].filter((pid) => before.includes(pid))).toEqual([]);
    } finally {
      await killer.end();
    }
  });
});
