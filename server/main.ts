import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const app = await buildApp({ config, database });
  app.log.info(
    { database: database.kind === 'postgres' ? 'postgres' : `pglite (${config.DATA_DIR})` },
    'database ready',
  );
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Tandem is running at ${config.publicUrl} (API reference: ${config.publicUrl}/api/docs)`);
}

void main();
