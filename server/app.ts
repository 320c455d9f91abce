import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { Codes } from '../shared/contracts/envelope.ts';
import { allowedExtensionIds, type Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { apiDocHeader, withAnswerComponents } from './http/api-doc.ts';
import { answerClientError } from './http/client-errors.ts';
import { AppError } from './core/errors.ts';
import { failureOf } from './core/failures.ts';
import { decodeUtf8, parseQueryString } from './http/input-guard.ts';
import { languageOf, t } from './core/i18n.ts';
import { scrubLogCall, serializeError, serializeRequest } from './core/log-safety.ts';
import { registerSecurityHooks } from './http/security-hooks.ts';
import { registerWebRoutes } from './http/web.ts';
import type { AuditInput, RouteServices, RouteTableEntry } from './http/route.ts';
import { loginOf, userIdOf } from './services/accounts/login.ts';
import { writeAudit } from './services/admin/audit.ts';
import { shareExists } from './services/chat/shares.ts';
import { EXTENSION_BROWSERS, findExtensionZip } from './services/system/extension-zip.ts';
import { createFileStore, type FileStore } from './providers/file-store.ts';
import { localBus, postgresBus, redisBus, type Bus } from './services/system/bus.ts';
import { runStartupTasks, startPeriodicTasks } from './services/system/startup.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerUserRoutes } from './routes/user.ts';
import { registerChatRoutes } from './routes/chat.ts';
import { registerChatSearchRoutes } from './routes/chat-search.ts';
import { registerShareRoutes } from './routes/share.ts';
import { registerCatalogueRoutes } from './routes/catalogue.ts';
import { registerSystemRoutes } from './routes/system.ts';
import { registerBrowserRoutes } from './routes/browser.ts';
import { registerAdminCatalogueRoutes } from './routes/admin/catalogue.ts';
import { registerAdminSystemRoutes } from './routes/admin/system.ts';
import { registerAdminUserRoutes } from './routes/admin/user.ts';
import { registerAdminAuditRoutes } from './routes/admin/audit.ts';
import { registerAdminRecordRoutes } from './routes/admin/records.ts';
import { registerPasswordResetRoutes } from './routes/password-reset.ts';
import { registerEmailVerificationRoutes } from './routes/email-verification.ts';
import { registerPluginRoutes } from './routes/plugins.ts';
import { registerAdminPluginRoutes } from './routes/admin/plugins.ts';
import { registerAdminPlanRoutes } from './routes/admin/plans.ts';
import { registerAdminInviteRoutes } from './routes/admin/invite.ts';
import { registerAdminPosterRoutes } from './routes/admin/poster.ts';
import { registerAdminStatsRoutes } from './routes/admin/stats.ts';
import { registerPlanRoutes } from './routes/plans.ts';
import { registerPointsRoutes } from './routes/points.ts';
import { registerAdminRedeemCodeRoutes } from './routes/admin/redeem-codes.ts';
import { registerCouponRoutes } from './routes/coupons.ts';
import { registerAdminCouponRoutes } from './routes/admin/coupons.ts';
import { registerInviteRoutes } from './routes/invite.ts';
import { registerPosterRoutes } from './routes/poster.ts';
import { registerNotificationRoutes } from './routes/notifications.ts';
import { registerAdminNotificationRoutes } from './routes/admin/notifications.ts';
import { registerImageProxyRoutes } from './routes/image-proxy.ts';
import { registerExportRoutes } from './routes/export.ts';
import { registerPersonalizationRoutes } from './routes/personalization.ts';
import { watchPersonalizationChanges } from './services/personalization/personalization.ts';
import { registerQuickFunctionRoutes } from './routes/quick-functions.ts';
import { registerAdminQuickFunctionRoutes } from './routes/admin/quick-functions.ts';
import { registerPromptLibraryRoutes } from './routes/prompt-library.ts';
import { registerAdminPromptLibraryRoutes } from './routes/admin/prompt-library.ts';
import { registerCampaignRoutes } from './routes/campaigns.ts';
import { registerAdminCampaignRoutes } from './routes/admin/campaigns.ts';
import { registerPromptTagRoutes } from './routes/prompt-tags.ts';
import { registerAdminPromptTagRoutes } from './routes/admin/prompt-tags.ts';
import { registerParamToolsRoutes } from './routes/param-tools.ts';
import { registerAdminParamToolsRoutes } from './routes/admin/param-tools.ts';
import { registerFavouriteRoutes } from './routes/favourites.ts';
import { registerFeedbackRoutes } from './routes/feedback.ts';
import { registerLanguageRoutes } from './routes/language.ts';
import { registerAdminLanguageRoutes } from './routes/admin/language.ts';
import { registerLogRoutes } from './routes/log.ts';
import { registerAdminLogRoutes } from './routes/admin/log.ts';
import { registerSignInProviderRoutes } from './routes/sign-in-providers.ts';
import { registerAdminSignInProviderRoutes } from './routes/admin/sign-in-providers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    routeTable: RouteTableEntry[];
    routeServices: RouteServices;
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
    ...allowedExtensionIds(config).map((id) => `chrome-extension://${id}`),
    ...config.CORS_ORIGINS,
  ]);
}

/** Answers a failure in the envelope (docs/api.md#the-envelope); our own faults are logged with their stack. */
function sendFailure(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const failure = failureOf(err, req.id);
  if (failure.serverFault) req.log.error({ err }, 'unhandled error');
  return reply.code(failure.status).send({ Code: failure.code, Msg: t(languageOf(req), failure.key, failure.params), Data: null });
}

/** A request the router cannot read: the envelope under /api, a plain 400 for a page address. */
function answerUnroutable(err: Error, req: FastifyRequest, reply: FastifyReply) {
  if (req.url.startsWith('/api/')) return sendFailure(err, req, reply);
  return reply.code(400).type('text/plain; charset=utf-8').send('Bad request: the address is not valid.');
}

function loggerOptions(opts: BuildOptions): FastifyServerOptions['logger'] {
  if (opts.logger === false) return false;
  return {
    level: opts.config.LOG_LEVEL,
    // Credentials and user data never reach the log (server/core/log-safety.ts).
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers.authorization'],
    // Pino calls these with whatever is logged under the key; Fastify's types expect its own shapes.
    serializers: { req: serializeRequest, err: serializeError, error: serializeError },
    hooks: { logMethod: scrubLogCall },
    ...(typeof opts.logger === 'object' ? opts.logger : {}),
  } as unknown as FastifyServerOptions['logger'];
}

function createServer(opts: BuildOptions): FastifyInstance {
  const { config } = opts;
  return Fastify({
    logger: loggerOptions(opts),
    // Fastify's overloads cannot take the union; each member is a valid trustProxy value.
    trustProxy: config.TRUST_PROXY as boolean,
    // Streams and keep-alive sockets must not hold a shutdown (or a test's close) open.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    // Request ids make log lines of one request easy to find.
    requestIdHeader: 'x-request-id',
    // Strict: a query that is not UTF-8 once decoded is refused rather than kept as literal text.
    routerOptions: { querystringParser: parseQueryString },
    // A URL the router cannot read (broken percent-encoding) is bad input: in the envelope for the
    // API, a plain 400 for a page address.
    frameworkErrors: (err, req, reply) => void answerUnroutable(err, req, reply as FastifyReply),
    // What Node's HTTP parser refuses (an over-long address: 431) is answered in the envelope too.
    clientErrorHandler: answerClientError,
  });
}

async function createBus(opts: BuildOptions, onBusError: (err: Error) => void): Promise<Bus> {
  const { config, database } = opts;
  if (opts.bus) return opts.bus;
  if (config.REDIS_URL) return redisBus(config.REDIS_URL, onBusError);
  if (database.kind === 'postgres' && database.url) return postgresBus(database.url, onBusError);
  return localBus();
}

/** The client posts JSON as application/json-patch+json; beacons arrive as text/plain. Uploads are multipart. */
async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  // Inputs are validated by the route helper (in the caller's language); Fastify only carries the
  // zod schemas for the API reference.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  // Likewise response schemas only document the answers (server/http/api-doc.ts); they are serialized
  // as they are, so a schema can neither strip a field nor fail an answer.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Bodies are read as bytes and must be UTF-8 (server/http/input-guard.ts): the default parser would
  // turn invalid bytes into U+FFFD and store something the client never sent.
  const parseJson = app.getDefaultJsonParser('error', 'error') as (req: unknown, body: string, done: (e: Error | null, v?: unknown) => void) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(['application/json', 'application/json-patch+json', 'text/plain'], { parseAs: 'buffer' }, (req, body, done) => {
    let text: string;
    try {
      text = decodeUtf8(body as Buffer);
    } catch (err) {
      return done(err as Error);
    }
    parseJson(req, text, done);
  });
  // Each upload route reads its form as a stream with its own file size limit
  // (server/http/upload-form.ts); these bound the rest of any form. Text fields arrive as latin1, one
  // character per byte, so the form reader can check they are UTF-8 before decoding them.
  await app.register(multipart, { defCharset: 'latin1', limits: { fields: 10, fieldSize: 8 * 1024, files: 2, parts: 16, headerPairs: 100 } });
}

async function registerCorsAndRateLimits(app: FastifyInstance, config: Config, onBusError: (err: Error) => void): Promise<void> {
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
}

/** The browsable reference: its own CSP (Swagger UI's, which may not be framed) and no remote calls. */
async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      ...apiDocHeader(),
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: withAnswerComponents,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(' validator.swagger.io', '')
        .replace(/\s*upgrade-insecure-requests;?/, ''),
  });
}

function registerApiRoutes(app: FastifyInstance): void {
  registerAccountRoutes(app);
  registerUserRoutes(app);
  registerChatRoutes(app);
  registerChatSearchRoutes(app);
  registerShareRoutes(app);
  registerCatalogueRoutes(app);
  registerSystemRoutes(app);
  registerBrowserRoutes(app);
  registerLanguageRoutes(app);
  registerAdminLanguageRoutes(app);
  registerLogRoutes(app);
  registerAdminLogRoutes(app);
  registerAdminCatalogueRoutes(app);
  registerAdminSystemRoutes(app);
  registerAdminUserRoutes(app);
  registerAdminAuditRoutes(app);
  registerAdminRecordRoutes(app);
  registerPasswordResetRoutes(app);
  registerEmailVerificationRoutes(app);
  registerPluginRoutes(app);
  registerAdminPluginRoutes(app);
  registerAdminPlanRoutes(app);
  registerAdminInviteRoutes(app);
  registerAdminPosterRoutes(app);
  registerAdminStatsRoutes(app);
  registerCampaignRoutes(app);
  registerAdminCampaignRoutes(app);
  registerPromptLibraryRoutes(app);
  registerAdminPromptLibraryRoutes(app);
  registerPlanRoutes(app);
  registerPointsRoutes(app);
  registerAdminRedeemCodeRoutes(app);
  registerCouponRoutes(app);
  registerAdminCouponRoutes(app);
  registerInviteRoutes(app);
  registerPosterRoutes(app);
  registerNotificationRoutes(app);
  registerAdminNotificationRoutes(app);
  registerImageProxyRoutes(app);
  registerExportRoutes(app);
  registerPersonalizationRoutes(app);
  registerQuickFunctionRoutes(app);
  registerAdminQuickFunctionRoutes(app);
  registerPromptTagRoutes(app);
  registerAdminPromptTagRoutes(app);
  registerParamToolsRoutes(app);
  registerAdminParamToolsRoutes(app);
  registerFavouriteRoutes(app);
  registerFeedbackRoutes(app);
  registerSignInProviderRoutes(app);
  registerAdminSignInProviderRoutes(app);
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = createServer(opts);
  const onBusError = (err: Error) => app.log.error({ err }, 'message bus connection error');
  const bus = await createBus(opts, onBusError);
  const files = opts.files ?? createFileStore(config);
  const ctx: AppContext = { config, database, db: database.db, bus, files, log: app.log };
  app.decorate('ctx', ctx);
  // Personalization is cached per instance: joined to changes made elsewhere before the first message.
  watchPersonalizationChanges(ctx);
  app.decorate('routeTable', [] as RouteTableEntry[]);
  app.decorate('routeServices', { login: loginOf, userIdOf, audit: (c: AppContext, entry: AuditInput) => writeAudit(c.db, entry) } satisfies RouteServices);
  app.addHook('onClose', async () => {
    if (!opts.bus) await bus.close();
    if (!opts.files) await files.close();
  });

  registerSecurityHooks(app, config);
  await registerBodyParsers(app);
  await registerCorsAndRateLimits(app, config, onBusError);
  await registerApiDocs(app);
  app.setErrorHandler((err, req, reply) => sendFailure(err, req, reply));
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ Code: Codes.NotFound, Msg: t(languageOf(req), 'routeNotFound'), Data: null });
  });
  registerApiRoutes(app);
  // The web app's catch-all GET /* only answers what no other route claims.
  await registerWebRoutes(app, {
    webDir: path.resolve(opts.webDir ?? config.WEB_DIR ?? DEFAULT_WEB_DIR),
    config,
    shareExists: (shareId) => shareExists(ctx.db, shareId),
    extensionZips: { browsers: EXTENSION_BROWSERS, find: findExtensionZip },
  });

  await runStartupTasks(ctx);
  const stopPeriodicTasks = startPeriodicTasks(ctx);
  app.addHook('onClose', async () => stopPeriodicTasks());
  await app.ready();
  return app;
}
