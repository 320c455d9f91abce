import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { BoundStatement } from './compiled.ts';
import { startPglite } from './pglite-engine.ts';
import { openPipelines } from './pipelined.ts';
import { schema } from './schema.ts';

export type Db = PgDatabase<any, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Set for PostgreSQL: the connection string, for LISTEN/NOTIFY on a dedicated connection. */
  url?: string;
  /**
   * Runs a statement of the hot path (one per chat message) and returns its rows, as a prepared
   * statement named after its text, so a connection parses and plans it once
   * (bench/README.md#proxy-overhead). On PostgreSQL it is written on a pipelined connection without
   * waiting for one of the pool's (pipelined.ts); `pooled`: on one of the pool's connections
   * instead, for a read that may answer much (a follow-up's history), which would hold up the writes
   * behind it on a pipelined one. On PGlite all go to its one pipelined connection (a name is
   * prepared once per session there). A statement compiled once (compiled.ts) skips building its text.
   */
  runPrepared<T extends Record<string, unknown>>(query: SQL | BoundStatement, opts?: { pooled?: boolean }): Promise<T[]>;
  /** PGlite: its data as a tarball (dumpDataDir), e.g. the tests' migrated template. */
  dump?(): Promise<Uint8Array>;
  /** Ends its connections; a second call resolves with the first. */
  close(): Promise<void>;
};

/** An arbitrary constant naming Tandem's migration lock among the database's advisory locks. */
const MIGRATION_LOCK = 7_317_001;

/** Connections to the embedded database besides the pipelined one (all share its one session). */
const EMBEDDED_POOL_SIZE = 4;

/** More texts than the hot path has; beyond it a text is hashed each time rather than kept. */
const MAX_NAMED_TEXTS = 100;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL when `url` is given, else PGlite in `dataDir` (or in memory when dataDir is
 * 'memory://') in a thread of its own (pglite-engine.ts), and applies the migrations. Both are
 * reached through pg. `loadDataDir`: an in-memory PGlite starts from this
 * snapshot (PGlite's dumpDataDir) instead of an empty folder: the tests' migrated template, which
 * skips PGlite's first-open setup and the migrations (seconds per test app).
 */
export async function openDatabase(opts: { url?: string; dataDir?: string; poolSize?: number; loadDataDir?: Blob }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 20 });
    // An idle connection that drops must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema });
    // Instances started together migrate one after the other: the lock is held on its own connection.
    const lock = new pg.Client({ connectionString: opts.url });
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await db.execute(sql`create extension if not exists pg_trgm`);
      await migratePg(db, { migrationsFolder });
    } finally {
      await lock.end();
    }
    const pipelines = openPipelines({ url: opts.url });
    const runPrepared = async <T extends Record<string, unknown>>(query: SQL | BoundStatement, opts: { pooled?: boolean } = {}) => {
      const named = namedStatement(query);
      return opts.pooled ? (await pool.query<T>(named)).rows : pipelines.query<T>(named);
    };
    return { db: db as unknown as Db, kind: 'postgres', url: opts.url, runPrepared, close: once(() => Promise.all([pipelines.close(), pool.end()]).then(() => {})) };
  }
  const dataDir = opts.dataDir ?? './data';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const engine = await startPglite({ dataDir: inMemory ? undefined : `${dataDir}/pglite`, loadDataDir: inMemory ? opts.loadDataDir : undefined });
  // PGlite has one session, shared by the connections (pglite-worker.ts): a transaction's statements
  // run alone, and the named statements are all the pipelined connection's. Several connections keep
  // statements waiting in the thread instead of behind a round trip through this busy event loop.
  const stream = () => engine.connection();
  const pool = new pg.Pool({ max: EMBEDDED_POOL_SIZE, idleTimeoutMillis: 0, user: 'postgres', database: 'postgres', stream });
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema });
  try {
    await db.execute(sql`create extension if not exists pg_trgm`);
    await migratePg(db, { migrationsFolder });
  } catch (err) {
    await pool.end().finally(() => engine.close());
    throw err;
  }
  const pipelines = openPipelines({ stream });
  const runPrepared = <T extends Record<string, unknown>>(query: SQL | BoundStatement) => pipelines.query<T>(namedStatement(query));
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    runPrepared,
    dump: () => engine.dump(),
    close: once(async () => {
      try {
        await Promise.all([pipelines.close(), pool.end()]);
      } finally {
        await engine.close();
      }
    }),
  };
}

const dialect = new PgDialect();

// Named by the text: a statement whose text differs (another branch of the same query) is another
// name. The hot path has a handful of texts, so each is hashed once, not once per message.
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `tandem_${createHash('sha256').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size < MAX_NAMED_TEXTS) names.set(text, name);
  }
  return name;
}

/** A prepared statement named after its text, so each connection parses and plans it once. */
function namedStatement(query: SQL | BoundStatement): { name: string; text: string; values: unknown[] } {
  const { text, values } = isBound(query) ? query : toBound(query);
  return { name: nameOf(text), text, values };
}

/** Told apart by shape: Drizzle's `is` walks the prototype chain of a plain object, once per message here. */
const isBound = (query: SQL | BoundStatement): query is BoundStatement => 'text' in query;

function toBound(query: SQL): BoundStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { text, values: params };
}

/** Closing twice (a shutdown racing a test's own close) waits for the first close instead of failing. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () => (closed ??= close());
}
