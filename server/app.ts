import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { Codes } from '../shared/contracts/envelope.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { AppError } from './http/errors.ts';
import { languageOf, t } from './http/i18n.ts';
import { registerWebRoutes } from './http/web.ts';
import type { RouteTableEntry } from './http/route.ts';
import { createFileStore, type FileStore } from './providers/file-store.ts';
import { localBus, postgresBus, redisBus, type Bus } from './services/bus.ts';
import { runStartupTasks } from './services/startup.ts';
import { BUILT_IN_EXTENSION_ID } from '../shared/contracts/extension.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerUserRoutes } from './routes/user.ts';
import { registerChatRoutes } from './routes/chat.ts';
import { registerModelRoutes } from './routes/ai-model.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerBrowserRoutes } from './routes/browser.ts';
import { registerAdminModelRoutes } from './routes/admin/ai-model.ts';
import { registerAdminSystemRoutes } from './routes/admin/system.ts';
import { registerAdminUserRoutes } from './routes/admin/user.ts';
import { registerPluginRoutes } from './routes/plugin.ts';
import { registerAdminPluginRoutes } from './routes/admin/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    routeTable: RouteTableEntry[];
  }
}

export type BuildOptions = {
  config: Config;
  database: Database;
  /** Pino options; tests pass false. */
  logger?: boolean | object;
  bus?: Bus;
  /** Where uploads are kept; default from the configuration (S3_BUCKET, else DATA_DIR/media). */
  files?: FileStore;
  /** The WXT build served as the web app; default WEB_DIR, else <repo>/.output/chrome-mv3. */
  webDir?: string;
};

const DEFAULT_WEB_DIR = fileURLToPath(new URL('../.output/chrome-mv3', import.meta.url));

/** Origins allowed to call the API with a bearer token: the web app and the configured extensions. */
function allowedOrigins(config: Config): Set<string> {
  return new Set([
    new URL(config.publicUrl).origin,
    ...[BUILT_IN_EXTENSION_ID, ...config.EXTENSION_IDS].map((id) => `chrome-extension://${id}`),
    ...config.CORS_ORIGINS,
  ]);
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            // Tokens, keys and passwords never reach the log.
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers.authorization'],
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    // Fastify's overloads cannot take the union; each member is a valid trustProxy value.
    trustProxy: config.TRUST_PROXY as boolean,
    // Streams and keep-alive sockets must not hold a shutdown (or a test's close) open.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    // Request ids make log lines of one request easy to find.
    requestIdHeader: 'x-request-id',
  });

  const onBusError = (err: Error) => app.log.error({ err }, 'message bus connection error');
  const bus =
    opts.bus ??
    (config.REDIS_URL
      ? await redisBus(config.REDIS_URL, onBusError)
      : database.kind === 'postgres' && database.url
        ? await postgresBus(database.url, onBusError)
        : localBus());
  const files = opts.files ?? createFileStore(config);
  const ctx: AppContext = { config, database, db: database.db, bus, files, log: app.log };
  app.decorate('ctx', ctx);
  app.decorate('routeTable', [] as RouteTableEntry[]);
  app.addHook('onClose', async () => {
    if (!opts.bus) await bus.close();
    if (!opts.files) await files.close();
  });

  // Inputs are validated by the route helper (in the caller's language); Fastify only carries the
  // zod schemas for the API reference.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  // Likewise response schemas only document Data; answers are serialized as they are.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // The spec's client posts JSON as application/json-patch+json; beacons arrive as text/plain.
  app.addContentTypeParser(
    ['application/json-patch+json', 'text/plain'],
    { parseAs: 'string' },
    (app.getDefaultJsonParser('error', 'error') as (req: unknown, body: string, done: (e: Error | null, v?: unknown) => void) => void),
  );

  // Uploads (multipart/form-data): each upload route reads its form as a stream with its own file size
  // limit (server/http/upload-form.ts); these bound the rest of any form.
  await app.register(multipart, { limits: { fields: 10, fieldSize: 8 * 1024, files: 2, parts: 16, headerPairs: 100 } });

  const origins = allowedOrigins(config);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || origins.has(origin)),
    allowedHeaders: ['Authorization', 'Content-Type', 'ReqTarget', 'DriverId', 'Accept-Language', 'X-Request-Id'],
    exposedHeaders: ['Authorization'],
    methods: ['GET', 'POST', 'OPTIONS'],
    maxAge: 600,
  });

  const rateLimitRedis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  rateLimitRedis?.on('error', onBusError);
  if (rateLimitRedis) app.addHook('onClose', async () => rateLimitRedis.disconnect());
  await app.register(rateLimit, {
    global: false,
    ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: 'tandem-rl-' } : {}),
    errorResponseBuilder: (_req, context) =>
      new AppError(Codes.RateLimited, 'rateLimited', { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Tandem API', version: '1', description: 'Every answer is {Code, Msg, Data}; see docs/api.md.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const lang = languageOf(req);
    if (err instanceof AppError) {
      return reply.code(200).send({ Code: err.code, Msg: t(lang, err.key, err.params), Data: null });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.code(200).send({ Code: Codes.PayloadTooLarge, Msg: t(lang, 'payloadTooLarge'), Data: null });
    if (status === 415) return reply.code(200).send({ Code: Codes.BadRequest, Msg: t(lang, 'unsupportedMediaType'), Data: null });
    if (status >= 400 && status < 500) {
      const key = err.code?.startsWith('FST_ERR_CTP') ? 'invalidJson' : 'badRequest';
      return reply.code(200).send({ Code: Codes.BadRequest, Msg: t(lang, key, { detail: err.message }), Data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ Code: Codes.ServerError, Msg: t(lang, 'serverError'), Data: null });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ Code: Codes.NotFound, Msg: t(languageOf(req), 'routeNotFound'), Data: null });
  });

  registerAccountRoutes(app);
  registerUserRoutes(app);
  registerChatRoutes(app);
  registerModelRoutes(app);
  registerSystemRoutes(app);
  registerBrowserRoutes(app);
  registerAdminModelRoutes(app);
  registerAdminSystemRoutes(app);
  registerAdminUserRoutes(app);
  registerPluginRoutes(app);
  registerAdminPluginRoutes(app);
  // The web app's catch-all GET /* only answers what no other route claims.
  await registerWebRoutes(app, { webDir: path.resolve(opts.webDir ?? config.WEB_DIR ?? DEFAULT_WEB_DIR), config });

  await runStartupTasks(ctx);
  await app.ready();
  return app;
}
