import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client.ts';
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
  });

  (onPostgres ? it : it.skip)('prepares each text once per connection, under a name of its own', async () => {
    for (let i = 0; i < 5; i++) await database.runPrepared(query(i, `w${i}`));
    await database.runPrepared(sql`select ${'other'} as text`);
    const prepared = (await database.db.execute(sql`select name, statement from pg_prepared_statements where name like 'tandem_%' order by statement`)).rows;
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^tandem_[A-Za-z0-9_-]{20}$/), statement: 'select $1 as text' },
      { name: expect.stringMatching(/^tandem_[A-Za-z0-9_-]{20}$/), statement: 'select $1::int + 1 as next, upper($2) as loud, $3 > 1 as big' },
    ]);
  });
});
