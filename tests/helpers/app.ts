import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { is, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { createAdmin, type TestUser } from './users.ts';

/**
 * Tests run on PGlite (in memory) by default, and on PostgreSQL when TEST_DATABASE_URL is set
 * (`npm run test:pg`): each test app then gets a database of its own, dropped on close. Either starts
 * as a copy of the run's migrated template (tests/setup/databases.ts) when there is one.
 */
export const onPostgres = !!process.env.TEST_DATABASE_URL;

export type TestApp = {
  app: FastifyInstance;
  config: Config;
  database: Database;
  /** The database's URL when on PostgreSQL, to start a second instance on the same data. */
  databaseUrl?: string;
  close(): Promise<void>;
};

/** A PostgreSQL database of its own for one test app; removed by the returned drop(). */
export async function createPostgresDatabase(
  adminUrl = process.env.TEST_DATABASE_URL!,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tandem_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${templateClause()}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** `template …`: the run's migrated template database, when the global setup made one. */
function templateClause(): string {
  const template = process.env.TEST_DATABASE_TEMPLATE;
  return template && /^tandem_tpl_[0-9a-f]+$/.test(template) ? ` template ${template}` : '';
}

let pgliteSnapshot: Uint8Array<ArrayBuffer> | undefined;

/** The run's migrated PGlite data folder (tests/setup/databases.ts), read once per process; none outside a run. */
function pgliteTemplate(): Blob | undefined {
  const file = process.env.TEST_PGLITE_SNAPSHOT;
  if (!file) return undefined;
  pgliteSnapshot ??= new Uint8Array(readFileSync(file));
  return new Blob([pgliteSnapshot]);
}

/** The settings that make `models` (comma-separated) the models of a fake OpenAI-compatible upstream. */
export function fakeOpenAIEnv(fake: { baseUrl: string }, models: string): Record<string, string> {
  return { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: models };
}

export async function createTestApp(
  env: Record<string, string> = {},
  opts: { databaseUrl?: string; webDir?: string; logger?: object } = {},
): Promise<TestApp> {
  const config = loadConfig({
    OLLAMA_URL: 'http://127.0.0.1:9', // nothing listens there: no Ollama import in tests
    LOG_LEVEL: 'silent',
    ...env,
  });
  let pgDb: { url: string; drop(): Promise<void> } | undefined;
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl && onPostgres) {
    pgDb = await createPostgresDatabase();
    databaseUrl = pgDb.url;
  }
  // Whatever fails on the way up or down, the test's own database is dropped.
  const database = await openDatabase(databaseUrl ? { url: databaseUrl, poolSize: 30 } : { dataDir: 'memory://', loadDataDir: pgliteTemplate() }).catch(async (err: unknown) => {
    await pgDb?.drop();
    throw err;
  });
  const app = await buildApp({ config, database, logger: opts.logger ?? false, webDir: opts.webDir }).catch(async (err: unknown) => {
    await database.close().finally(() => pgDb?.drop());
    throw err;
  });
  return {
    app,
    config,
    database,
    databaseUrl,
    async close() {
      try {
        await app.close();
      } finally {
        await database.close().finally(() => pgDb?.drop());
      }
    },
  };
}

/**
 * Stands for an object a beforeAll hook makes, so a describe block can name it before the hook ran:
 * reading or writing a property forwards to the object, and throws while there is none yet.
 */
export function madeInBeforeAll<T extends object>(what: string, current: () => T | undefined): T {
  const made = () => current() ?? fail(new Error(`${what} is made in beforeAll: use it inside tests and hooks`));
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(made(), key),
    set: (_, key, value) => Reflect.set(made(), key, value),
    has: (_, key) => Reflect.has(made(), key),
  });
}

function fail(error: Error): never {
  throw error;
}

/**
 * A test app and an admin account of it for the tests of the enclosing describe block: made in its
 * beforeAll, closed in its afterAll. `env` is read when the hook runs (so it may name servers an
 * earlier beforeAll started).
 */
export function useTestAppWithAdmin(env: Record<string, string> | (() => Record<string, string>) = {}): { t: TestApp; admin: TestUser } {
  let t: TestApp | undefined;
  let admin: TestUser | undefined;
  beforeAll(async () => {
    t = await createTestApp(typeof env === 'function' ? env() : env);
    admin = await createAdmin(t.app);
  });
  afterAll(() => t?.close());
  return { t: madeInBeforeAll('The test app', () => t), admin: madeInBeforeAll('The admin', () => admin) };
}

/**
 * Counts the statements the app sends to its database until restored: what goes through pg's pool
 * (`query`) and the hot path's statements on their pipelined connections (`runPrepared`; on
 * PostgreSQL a pooled one goes through the pool, counted there; on PGlite all are pipelined). The
 * search indexes' background merges (search-index-upkeep.ts) belong to no request: left out unless
 * `withBackground`.
 */
export function countQueries(t: TestApp, opts: { withBackground?: boolean } = {}): { seen: string[]; restore(): void } {
  const client = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const original = client.query;
  const originalPrepared = t.database.runPrepared;
  const seen: string[] = [];
  const note = (text: string) => {
    if (opts.withBackground || !text.includes('gin_clean_pending_list')) seen.push(text);
  };
  client.query = function (this: unknown, q: unknown, ...rest: unknown[]) {
    note(typeof q === 'string' ? q : String((q as { text?: string }).text));
    return original.call(this, q, ...rest);
  };
  const dialect = new PgDialect();
  t.database.runPrepared = (query, prepared) => {
    if (t.database.kind === 'pglite' || !prepared?.pooled) note(is(query, SQL) ? dialect.sqlToQuery(query).sql : query.text);
    return originalPrepared(query, prepared);
  };
  return {
    seen,
    restore: () => {
      client.query = original;
      t.database.runPrepared = originalPrepared;
    },
  };
}
