import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { FileStore } from './providers/file-store.ts';
import type { Bus } from './services/system/bus.ts';

/** What services need from the running server; built once in app.ts. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  bus: Bus;
  /** Uploaded files and images (a local folder, or S3). */
  files: FileStore;
  log: FastifyBaseLogger;
};
