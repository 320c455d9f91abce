import { BUILT_IN_EXTENSION_ID } from '../shared/contracts/extension.ts';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));
const csv = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v ?? []),
  z.array(z.string()),
);

/**
 * Every environment variable the server reads. README.md "Configuration" documents each one; keep
 * the two in step.
 */
export const EnvSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  /** The WXT build folder served as the web app (default: <repo>/.output/chrome-mv3, see server/app.ts). */
  WEB_DIR: optionalString,
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  ),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional()),
  /**
   * Whom to believe about the client's address (X-Forwarded-For): 'false' (default: nobody, the
   * socket's address counts), 'true' (any proxy), a hop count, or comma-separated proxy addresses/CIDRs.
   * Rate limits key on that address, so only trust the proxies in front of the server.
   */
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('false')
      .transform((v): boolean | number | string[] =>
        v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((s) => s.trim()).filter(Boolean),
      ),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),

  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
  TOKEN_TTL_DAYS: int(30, 1, 3650),
  TOKEN_RENEW_AFTER_SECONDS: int(86_400, 1),
  AUTH_RATE_LIMIT: int(10, 1, 100_000),
  RATE_LIMIT_ADDRESS_FACTOR: int(50, 1, 100_000),
  /** A deployment that sends no text for this long is given up (the next one is tried; the user hears "took too long"). */
  MODEL_FIRST_TEXT_TIMEOUT_SECONDS: int(30, 1, 600),
  /** On SIGTERM, how long answers already running may take to finish before they are stored as interrupted. */
  SHUTDOWN_GRACE_SECONDS: int(25, 0, 600),
  /** Client request times and browser records (page views) older than this are deleted, hourly; 0 keeps them for ever. */
  TRACKING_RETENTION_DAYS: int(90, 0, 36_500),
  AUTH_RATE_WINDOW_SECONDS: int(60, 1, 86_400),

  EXTENSION_IDS: csv,
  CORS_ORIGINS: csv,

  FREE_DAILY_POINTS: int(100, 0),

  /** `host:port` pairs the page reader may fetch although private (an intranet wiki); nothing else private is ever fetched. */
  READER_ALLOWLIST: csv,

  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODELS: csv,
  OLLAMA_URL: z.preprocess(emptyToUndefined, z.url().default('http://127.0.0.1:11434')),
  OLLAMA_MODELS: csv,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  ANTHROPIC_MODELS: csv,
  GOOGLE_GENERATIVE_AI_API_KEY: optionalString,
  GOOGLE_BASE_URL: optionalUrl,
  GOOGLE_MODELS: csv,

  /**
   * Uploaded files and images: a folder under DATA_DIR (media/) by default; S3-compatible storage
   * (AWS S3, MinIO, R2, ...) when S3_BUCKET is set, with its keys. See docs/deployment.md.
   */
  S3_BUCKET: optionalString,
  /** The service's address, e.g. http://127.0.0.1:9000 for MinIO; default AWS (https://s3.<region>.amazonaws.com). */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Address the bucket as <endpoint>/<bucket>/key (MinIO and most self-hosted services) instead of <bucket>.<endpoint>/key. */
  S3_FORCE_PATH_STYLE: z.preprocess(
    emptyToUndefined,
    z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  ),

  /** Web search (AddMessage webSearch, the web_search plugin): a self-hosted SearXNG, Tavily or Brave. */
  SEARXNG_URL: optionalUrl,
  TAVILY_API_KEY: optionalString,
  TAVILY_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.tavily.com')),
  BRAVE_SEARCH_API_KEY: optionalString,
  BRAVE_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.search.brave.com/res/v1')),
  /** Which configured provider to use when several are; default the first of searxng, tavily, brave. */
  WEB_SEARCH_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['searxng', 'tavily', 'brave']).optional()),
  /** Results a search asks for (and pages read for a webSearch message). */
  WEB_SEARCH_RESULTS: int(5, 1, 20),

  /** Image generation (AddDraw, the generate_image plugin): an OpenAI-compatible images API, e.g. https://api.openai.com/v1. */
  IMAGES_BASE_URL: optionalUrl,
  IMAGES_API_KEY: optionalString,
  /** Sent as `model`; unset lets the service choose its default. */
  IMAGES_MODEL: optionalString,

  /**
   * Payments (docs/economy.md#payments-stripe): the secret API key (sk_live_..., sk_test_...) and the
   * webhook endpoint's signing secret (whsec_...). Without the key, plans are granted by operators
   * (redeem codes, ExtendEndTime) and checkout answers 10461.
   */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the Stripe API is (default https://api.stripe.com): tests point it at a fake on loopback. */
  STRIPE_API_BASE: optionalUrl,

  /**
   * Outgoing e-mail (password-reset links an operator sends): smtp://user:pass@host:587 (STARTTLS
   * when offered) or smtps://...:465. Unset: the console shows the link for the operator to pass on.
   */
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional()),
  /** The From of those e-mails, e.g. "Tandem <no-reply@example.com>"; default no-reply@ the PUBLIC_URL host. */
  SMTP_FROM: optionalString,

  /**
   * Analytics (docs/api.md#analytics): off unless both the GA4 measurement id (G-...) and a Measurement
   * Protocol API secret are set; then events of users who agreed (Settings) are forwarded to GA4.
   */
  GA_MEASUREMENT_ID: z.preprocess(emptyToUndefined, z.string().regex(/^G-[A-Z0-9]{4,20}$/, 'must look like G-XXXXXXXXXX').optional()),
  GA_API_SECRET: optionalString,
  /** Where the Measurement Protocol is (default https://www.google-analytics.com/mp/collect): tests point it at a fake on loopback. */
  GA_ENDPOINT: z.preprocess(emptyToUndefined, z.url().default('https://www.google-analytics.com/mp/collect')),

  /**
   * Sign in with another account (docs/api.md#sign-in-with-another-account). Each pair
   * (client id and secret) turns a provider on; OIDC_PROVIDERS adds any OpenID Connect issuers as a
   * JSON array of {key, name, issuer, clientId, clientSecret}. More can be added in the console.
   */
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  /** A tenant id, or consumers (personal accounts, the default). */
  MICROSOFT_TENANT: optionalString,
  OIDC_PROVIDERS: z.preprocess(
    (v) => {
      if (typeof v !== 'string' || v.trim() === '') return [];
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return 'not JSON';
      }
    },
    z.array(
      z.object({
        key: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'key: lower-case letters, digits, - and _ (at most 40)'),
        name: z.string().min(1).max(60),
        issuer: z.url().refine((u) => {
          const url = new URL(u);
          return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname));
        }, 'issuer must be https:// (http:// only on 127.0.0.1, ::1 or localhost)'),
        clientId: z.string().min(1),
        clientSecret: z.string().min(1),
      }),
      { error: 'must be a JSON array of {key, name, issuer, clientId, clientSecret}' },
    ),
  ),

  /**
   * Test runs only: serves GET /api/User/GetTokenForTest (a token for an account by its e-mail, to
   * callers on loopback), which the end-to-end tests sign in with. Refused with NODE_ENV=production.
   */
  TEST_TOKEN_ROUTE: z.preprocess(
    emptyToUndefined,
    z.enum(['true', 'false', '1', '0']).default('false').transform((v) => v === 'true' || v === '1'),
  ),
});
export type Env = z.infer<typeof EnvSchema>;

export type Config = Env & { publicUrl: string };

export class ConfigError extends Error {}

/** Chromium extension ids are 32 letters a-p; anything else must not reach a header or a check. */
const EXTENSION_ID = /^[a-p]{32}$/;

/**
 * The extensions this server trusts: the unpacked build's fixed id and EXTENSION_IDS. One list for
 * CORS, the login page's framing (CSP) and where the login page may hand a sign-in.
 */
export function allowedExtensionIds(config: Pick<Config, 'EXTENSION_IDS'>): string[] {
  return [...new Set([BUILT_IN_EXTENSION_ID, ...config.EXTENSION_IDS])].filter((id) => EXTENSION_ID.test(id));
}

/** Validates the environment; a wrong value names its variable, so an operator can fix it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) || (!e.ADMIN_EMAIL && e.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid environment:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (e.S3_BUCKET && (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid environment:\n  S3_BUCKET is set but S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    // Checkout would take money that no webhook ever turns into a plan.
    throw new ConfigError('Invalid environment:\n  STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not (see docs/economy.md#payments-stripe)');
  }
  const searchKeys = { searxng: e.SEARXNG_URL, tavily: e.TAVILY_API_KEY, brave: e.BRAVE_SEARCH_API_KEY } as const;
  if (e.WEB_SEARCH_PROVIDER && !searchKeys[e.WEB_SEARCH_PROVIDER]) {
    const needs = { searxng: 'SEARXNG_URL', tavily: 'TAVILY_API_KEY', brave: 'BRAVE_SEARCH_API_KEY' }[e.WEB_SEARCH_PROVIDER];
    throw new ConfigError(`Invalid environment:\n  WEB_SEARCH_PROVIDER is ${e.WEB_SEARCH_PROVIDER} but ${needs} is not set`);
  }
  if (e.TEST_TOKEN_ROUTE && env.NODE_ENV === 'production') {
    // Anyone on the machine could sign in as anyone: never in a deployment.
    throw new ConfigError('Invalid environment:\n  TEST_TOKEN_ROUTE is for test runs and cannot be set with NODE_ENV=production');
  }
  if (!!e.GA_MEASUREMENT_ID !== !!e.GA_API_SECRET) {
    throw new ConfigError('Invalid environment:\n  GA_MEASUREMENT_ID and GA_API_SECRET must be set together (docs/api.md#analytics)');
  }
  for (const name of ['GOOGLE', 'GITHUB', 'MICROSOFT'] as const) {
    if (!e[`${name}_CLIENT_ID`] !== !e[`${name}_CLIENT_SECRET`]) {
      throw new ConfigError(`Invalid environment:\n  ${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`);
    }
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return { ...e, publicUrl };
}
