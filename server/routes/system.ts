import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Codes } from '../../shared/contracts/envelope.ts';
import { CountryListSchema, HealthSchema, SettingKeyQuerySchema, SettingListSchema, SettingSchema, VisitorCountrySchema } from '../../shared/contracts/system.ts';
import { AddRequestTimeBodySchema, SavedCountSchema } from '../../shared/contracts/tracking.ts';
import { MEDIA_LIMITS } from '../../shared/contracts/media.ts';
import { DocumentTextSchema, SERVER_DOCUMENT_EXTENSIONS, TransTextBodySchema, TransTextResultSchema } from '../../shared/contracts/translate.ts';
import { t } from '../core/i18n.ts';
import { clientGoneSignal } from '../http/client-gone.ts';
import { addRoute, RAW } from '../http/route.ts';
import { readUploadForm } from '../http/upload-form.ts';
import { readDocumentText } from '../services/media/upload.ts';
import { countryList, visitorCountry } from '../services/system/countries.ts';
import { checkHealth } from '../services/system/health.ts';
import { getPublicSetting, listPublicSettings } from '../services/system/settings.ts';
import { saveRequestTimes, type TrackingSource } from '../services/system/tracking.ts';
import { translate } from '../services/translate/translate.ts';

/** The client caches the settings for 5 minutes; shared caches may too, they are the same for everyone. */
const SETTINGS_CACHE = 'public, max-age=300';

/** Tracking calls are anonymous writes: bounded per address so one client cannot flood the tables. */
export const TRACKING_RATE_LIMIT = { max: 300, timeWindow: 60_000 };

/** The sender of a tracking call; DriverId is the client's own device id, kept as sent (bounded). */
export function trackingSource(req: FastifyRequest, userId: string | null): TrackingSource {
  const header = req.headers['driverid'];
  const driverId = (Array.isArray(header) ? header[0] : header)?.slice(0, 128) || null;
  return { userId, driverId, ip: req.ip ?? null };
}

/** Each translation costs the operator a model call: per account, room for a page translated in batches. */
export const TRANSLATE_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

export function registerSystemRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/health',
    auth: 'public',
    summary:
      'Whether this instance can serve: its database and message bus answer and it is not shutting down. HTTP 503 with the failure envelope when not (for load balancers).',
    data: HealthSchema,
    unavailableStatus: true,
    handler: async ({ ctx, reply, lang }) => {
      const health = await checkHealth(ctx);
      reply.header('Cache-Control', 'no-store');
      if (health.status === 'ok') return health;
      const parts = lang === 'zh' ? { draining: '正在关闭', database: '数据库', bus: '消息总线' } : { draining: 'shutting down', database: 'database', bus: 'message bus' };
      const down = health.draining ? parts.draining : [health.database === 'down' && parts.database, health.bus === 'down' && parts.bus].filter(Boolean).join(', ');
      reply.code(503).send({ Code: Codes.ServerError, Msg: t(lang, 'unavailable', { what: down }), Data: null });
      return RAW;
    },
  });

  const base = '/api/System';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetSettingListAll`,
    auth: 'public',
    summary: 'The public settings (login_page_url, vip_url, product_name, extension downloads). Cacheable for 5 minutes.',
    data: SettingListSchema,
    handler: async ({ ctx, reply }) => {
      reply.header('Cache-Control', SETTINGS_CACHE);
      return listPublicSettings(ctx);
    },
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetSettingByKey`,
    auth: 'public',
    summary: 'One public setting; other keys are answered as not found.',
    query: SettingKeyQuerySchema,
    data: SettingSchema,
    handler: async ({ ctx, query, reply }) => {
      const setting = await getPublicSetting(ctx, query.settingKey);
      reply.header('Cache-Control', SETTINGS_CACHE);
      return setting;
    },
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetSettingValueByKey`,
    auth: 'public',
    summary: "One public setting's value, as a string.",
    query: SettingKeyQuerySchema,
    data: z.string(),
    handler: async ({ ctx, query, reply }) => {
      const setting = await getPublicSetting(ctx, query.settingKey);
      reply.header('Cache-Control', SETTINGS_CACHE);
      return setting.settingValue;
    },
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/IsChina`,
    auth: 'public',
    summary:
      "Where the caller's address is, from a local GeoLite2 copy (no outside call): country (ISO 3166-1 alpha-2, null when unknown: loopback, private ranges) and isChina (mainland China). Behind a proxy, set TRUST_PROXY so the client's address counts.",
    data: VisitorCountrySchema,
    handler: ({ req }) => visitorCountry(req.ip),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetCountrieList`,
    auth: 'public',
    summary: "Every country (ISO 3166-1), named in the caller's language and in its alphabetical order (Chinese by pinyin). Cacheable for a day.",
    data: CountryListSchema,
    handler: async ({ lang, reply }) => {
      reply.header('Cache-Control', 'public, max-age=86400').header('Vary', 'Accept-Language');
      return countryList(lang);
    },
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/AddRequestTime`,
    auth: 'optional',
    summary:
      'Stores request-time tracking entries (1 to 50). Accepts application/json-patch+json, application/json and text/plain (navigator.sendBeacon).',
    body: AddRequestTimeBodySchema,
    data: SavedCountSchema,
    bodyLimit: 64 * 1024,
    rateLimit: TRACKING_RATE_LIMIT,
    handler: ({ ctx, body, req, user }) => saveRequestTimes(ctx, body, trackingSource(req, user?.id ?? null)),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/TransText`,
    auth: 'user',
    summary:
      'Translates `text`, or `segments` in order, into `targetLanguage` through the translation model (setting translation_model), keeping `<tN>…</tN>` placeholder tags (a translation that loses one is answered stripped, tagsKept false). Charged before the model is asked, by length (translation_points_per_1k_chars), refunded when it fails or the client goes away first (the model call is cut); 10470 when the points do not cover it. `estimate: true` answers only the price. `requestId` (a UUID, the same on a retry): a repeat within 10 minutes is answered the first translation without a second charge or model call (waiting while it runs); the same key with another body is refused (10409). See docs/api.md#translation.',
    body: TransTextBodySchema,
    data: TransTextResultSchema,
    rateLimit: TRANSLATE_RATE_LIMIT,
    handler: ({ ctx, user, body, reply }) => translate(ctx, user.id, body, clientGoneSignal(reply)),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/DocumentText`,
    auth: 'user',
    summary: `The text of a document the Translate page cannot read itself (${SERVER_DOCUMENT_EXTENSIONS.join(', ')}), read as chat attachments are (same checks and limits) and answered, not kept or charged: paragraphs separated by a blank line, a PDF's pages by a form-feed line. multipart/form-data: the file (any field name); at most ${MEDIA_LIMITS.chat.maxBytes / 1024 / 1024} MB. See docs/api.md#translation.`,
    data: DocumentTextSchema,
    // Each call reads up to a few megabytes in the extraction worker: bounded as the uploads are.
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: async ({ user, req, reply }) => readDocumentText(user.id, (await readUploadForm(req, reply, MEDIA_LIMITS.chat.maxBytes)).file),
  });
}
