import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db/client.ts';

/**
 * Vitest globalSetup: a migrated database made once per run, which each test app copies instead of
 * migrating one of its own (tests/helpers/app.ts). On PostgreSQL (TEST_DATABASE_URL) a template
 * database with a name of this run's own, cloned with CREATE DATABASE … TEMPLATE; on PGlite a snapshot
 * of a migrated data folder (dumpDataDir), loaded by each in-memory PGlite (PGlite's first open of
 * an empty folder and the migrations take seconds per app). Both are named to the test files and to
 * the processes they start through the environment, and removed when the run ends. Making them
 * migrates an empty database on the engine, every run.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  // The server and client projects both name this setup; one run makes them once.
  if (process.env.TEST_PGLITE_SNAPSHOT) return;
  const run = randomBytes(6).toString('hex');
  const snapshot = path.join(tmpdir(), `tandem-pglite-template-${run}.tar`);
  const dropTemplate = process.env.TEST_DATABASE_URL ? await makePostgresTemplate(process.env.TEST_DATABASE_URL, `tandem_tpl_${run}`) : undefined;
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    writeFileSync(snapshot, await database.dump!());
  } finally {
    await database.close();
  }
  process.env.TEST_PGLITE_SNAPSHOT = snapshot;
  return async () => {
    delete process.env.TEST_PGLITE_SNAPSHOT;
    delete process.env.TEST_DATABASE_TEMPLATE;
    rmSync(snapshot, { force: true });
    await dropTemplate?.();
  };
}

async function makePostgresTemplate(adminUrl: string, name: string): Promise<() => Promise<void>> {
  const admin = async <T>(run: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  await database.close();
  // A template is copied only while nobody is connected to it: wait for the closed connections to be gone.
  await admin(async (c) => {
    for (let i = 0; i < 100; i++) {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`connections to the template database ${name} stayed open`);
  });
  process.env.TEST_DATABASE_TEMPLATE = name;
  return () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {});
}
