import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { drainRunningStreams } from './services/chat/running.ts';

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
  // Graceful: new messages are refused and the health check answers 503 at once, answers already
  // running get SHUTDOWN_GRACE_SECONDS to finish, then the close stores the rest as interrupted.
  const shutdown = async (signal: string) => {
    app.log.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down');
    const unfinished = await drainRunningStreams(app.ctx, config.SHUTDOWN_GRACE_SECONDS * 1000);
    if (unfinished > 0) app.log.warn({ unfinished }, 'answers still running at the end of the grace period are stored as interrupted');
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
