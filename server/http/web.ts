import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
// For `schema.hide` (keeps these routes out of the API reference).
import type {} from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowedExtensionIds, type Config } from '../config.ts';
import { ShareIdSchema } from '../../shared/contracts/share.ts';
import { serviceWorkerSource } from './service-worker.ts';

/**
 * The hosted web app: the WXT build folder (`.output/chrome-mv3`) served as the web root, so the web
 * page runs the very bundle the extension ships. `/login` is the central login page, every other
 * page route answers app.html (the client router decides what to show: /home, /guide, /helper and
 * /feedback are the stable addresses of the product's website), `/downloads/*` serves the zips
 * `wxt zip` writes next to the build folder (Chrome, Edge, Firefox), and `/sw.js` is the web app's
 * service worker (its manifest, /manifest.webmanifest, is a file of the build). `/admin` is the
 * operator's console, a build of its own beside the web app's (`.output/admin`, not in the zips).
 */

/**
 * What the pages look up, handed in by app.ts (http/ runs no service code of its own): whether a
 * shared chat's link is live, and each browser's newest extension package in a folder.
 */
type WebOptions = {
  webDir: string;
  config: Config;
  shareExists(shareId: string): Promise<boolean>;
  extensionZips: { browsers: readonly string[]; find(dir: string, browser: string): Promise<{ file: string; name: string } | null> };
};


const NOT_BUILT = 'web app not built: run npm start';
const ZIP_NOT_BUILT = 'extension package not built: run npm start';
const NOT_FOUND = 'Not found';

/** Folders whose file names carry a content hash (Vite's output): safe to cache forever. */
const HASHED_DIRS = ['chunks', 'assets'];
/** Folders of build files: a missing file there is a 404, never the app page. */
const FILE_DIRS = [...HASHED_DIRS, 'content-scripts', 'downloads', '_locales'];

// The bundle has no inline scripts (Vite emits <script type="module" src=...>), so scripts are
// 'self' only. Styles: Mantine and KaTeX set style attributes. Images: the server's own (uploads,
// drawn images), data:, and blob: for previews and for images loaded through the server's image
// proxy; never another host directly (docs/security.md). frame-src: the login frame.
// The login frame is PUBLIC_URL/login: also allowed when the page was reached by another name.
const baseCsp = (config: Config) => [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  `frame-src 'self' ${new URL(config.publicUrl).origin}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

const appCsp = (config: Config) => [...baseCsp(config), "frame-ancestors 'self'"].join('; ');

/** The operator's console frames nothing (it signs in through the /login page itself) and is framed by nobody. */
const adminCsp = (config: Config) =>
  [...baseCsp(config).filter((d) => !d.startsWith('frame-src')), "frame-src 'none'", "frame-ancestors 'none'"].join('; ');

/**
 * The login page is framed by the web app (same origin) and by the extension's pages, whose origin
 * is chrome-extension://<id> (Edge too), so those may frame it; nobody else.
 */
function loginCsp(config: Config): string {
  const ids = allowedExtensionIds(config);
  return [...baseCsp(config), `frame-ancestors 'self' ${ids.map((id) => `chrome-extension://${id}`).join(' ')}`].join('; ');
}

/**
 * The request path as safe relative segments, or null when it could reach outside the web root or
 * is not in canonical form: `.`/`..` or empty segments, encoded slashes or backslashes, NUL, bad
 * percent-encoding. A trailing slash is allowed (it yields a last empty segment).
 */
function pathSegments(rawUrl: string): string[] | null {
  const pathname = rawUrl.split('?')[0]!;
  if (!pathname.startsWith('/') || /%(2f|5c|00)/i.test(pathname) || pathname.includes('\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.slice(1).split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === '.' || s === '..') return null;
    if (s === '' && i !== segments.length - 1) return null;
  }
  return segments;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** Accept says HTML is welcome (a browser navigating, or a client that takes anything). */
function acceptsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return !accept || /text\/html|\*\/\*/i.test(accept);
}

function sendText(reply: FastifyReply, status: number, text: string) {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .send(text);
}


export async function registerWebRoutes(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const webDir = path.resolve(opts.webDir);
  // `wxt zip` writes the zips into the output folder that holds the build folder.
  const zipDir = path.dirname(webDir);
  const csp = { app: appCsp(opts.config), login: loginCsp(opts.config) };
  // The console's own build (admin.vite.config.ts) sits beside the web app's in the output folder.
  const adminDir = path.join(zipDir, 'admin');

  const htmlHeaders = (reply: FastifyReply, page: 'app' | 'login') => {
    reply
      .header('content-security-policy', csp[page])
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin');
    // The login page is framed by extension pages: X-Frame-Options cannot name those, and
    // frame-ancestors above is what browsers apply.
    if (page === 'app') reply.header('x-frame-options', 'SAMEORIGIN');
  };

  // Sends webDir/<rel> (rel: safe segments joined with '/'), with headers by kind of file.
  const sendWebFile = (reply: FastifyReply, rel: string) => {
    const top = rel.split('/')[0]!;
    if (rel.endsWith('.html')) htmlHeaders(reply, rel === 'login.html' ? 'login' : 'app');
    else {
      reply
        .header('x-content-type-options', 'nosniff')
        // Hashed names change with their content; other files (icons, manifest, content scripts)
        // keep their names across builds, so they are revalidated (ETag / Last-Modified).
        .header('cache-control', HASHED_DIRS.includes(top) && rel.includes('/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    return reply.sendFile(`/${rel}`, webDir, { cacheControl: false, dotfiles: 'deny' });
  };

  const sendPage = async (reply: FastifyReply, page: 'app' | 'login') => {
    const file = `${page}.html`;
    if (!(await isFile(path.join(webDir, file)))) return sendText(reply, 404, NOT_BUILT);
    return sendWebFile(reply, file);
  };

  // Encapsulated: the sendFile decorator stays in this scope (swagger-ui registers its own).
  await app.register(async (web) => {
    await web.register(fastifyStatic, { root: webDir, serve: false, suppressWarning: true });
    const hide = { schema: { hide: true } };

    web.get('/login', hide, (_req, reply) => sendPage(reply, 'login'));

    registerAdminPages(web, adminDir, adminCsp(opts.config));

    // A shared chat's page: the app renders it; a revoked, deleted or made-up link answers HTTP 404
    // (the same page, which then says it is gone), so crawlers and link previews drop it. Sent as
    // text, not as a file: a conditional request for a file answers 304, which a 404 must not.
    web.get<{ Params: { shareId: string } }>('/share/:shareId', hide, async (req, reply) => {
      const html = await readFile(path.join(webDir, 'app.html'), 'utf8').catch(() => null);
      if (html === null) return sendText(reply, 404, NOT_BUILT);
      const id = ShareIdSchema.safeParse(req.params.shareId);
      const live = id.success && (await opts.shareExists(id.data));
      htmlHeaders(reply, 'app');
      // Nobody's data is in the page, but the link itself should not travel on in Referer headers.
      reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
      return reply.code(live ? 200 : 404).type('text/html; charset=utf-8').send(html);
    });

    for (const browser of opts.extensionZips.browsers) {
      web.get(`/downloads/tandem-${browser}.zip`, hide, async (_req, reply) => {
        const zip = await opts.extensionZips.find(zipDir, browser);
        if (!zip) return sendText(reply, 404, ZIP_NOT_BUILT);
        reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${zip.name}"`)
          .header('cache-control', 'no-cache')
          .header('x-content-type-options', 'nosniff');
        return reply.sendFile(`/${zip.name}`, zipDir, { cacheControl: false });
      });
    }

    // The web app's service worker (installed-app mode, offline shell): at the root, so its scope is
    // the whole app. Its text names the build, so a new build replaces it.
    web.get('/sw.js', hide, async (_req, reply) => {
      const appHtml = await readFile(path.join(webDir, 'app.html'), 'utf8').catch(() => null);
      if (appHtml === null) return sendText(reply, 404, NOT_BUILT);
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(serviceWorkerSource(appHtml));
    });

    web.get('/*', hide, async (req, reply) => {
      const segments = pathSegments(req.url);
      if (segments === null) return sendText(reply, 404, NOT_FOUND);
      // The API keeps its own JSON not-found answer.
      if (segments[0] === 'api') return reply.callNotFound();

      const last = segments[segments.length - 1]!;
      // Dotfiles are never served; a trailing slash names a folder, not a file.
      if (last !== '' && !segments.some((s) => s.startsWith('.'))) {
        const rel = segments.join('/');
        const abs = path.resolve(webDir, rel);
        if (abs.startsWith(webDir + path.sep) && (await isFile(abs))) return sendWebFile(reply, rel);
      }

      // Anything that looks like a file (an extension, or under a build folder) is a plain 404, so a
      // missing script or image never receives the app page.
      const looksLikeFile = last.includes('.') || (segments.length > 1 && FILE_DIRS.includes(segments[0]!));
      if (!(await isFile(path.join(webDir, 'app.html')))) return sendText(reply, 404, NOT_BUILT);
      if (looksLikeFile || !acceptsHtml(req)) return sendText(reply, 404, NOT_FOUND);
      return sendWebFile(reply, 'app.html');
    });
  });
}

const ADMIN_NOT_BUILT = 'admin console not built: run npm start (or npm run build:admin)';

/**
 * The operator's console: /admin and every address under it answer the console's index.html (its
 * router decides the page), /admin/assets/* are its hashed files. The page is unlisted and never
 * framed; the server refuses its API calls to anyone but an administrator, as for any client.
 */
function registerAdminPages(web: FastifyInstance, adminDir: string, csp: string): void {
  const hide = { schema: { hide: true } };
  const sendIndex = async (reply: FastifyReply) => {
    const html = await readFile(path.join(adminDir, 'index.html'), 'utf8').catch(() => null);
    if (html === null) return sendText(reply, 404, ADMIN_NOT_BUILT);
    return reply
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('x-robots-tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  web.get('/admin', hide, (_req, reply) => sendIndex(reply));
  web.get('/admin/*', hide, async (req, reply) => {
    const segments = pathSegments(req.url);
    if (segments === null) return sendText(reply, 404, NOT_FOUND);
    const inside = segments.slice(1);
    const last = inside[inside.length - 1] ?? '';
    // Hashed assets only; nothing else of the build folder is a file to serve.
    if (inside[0] === 'assets' && inside.length === 2 && last !== '' && !last.startsWith('.')) {
      const abs = path.resolve(adminDir, 'assets', last);
      if (abs.startsWith(path.join(adminDir, 'assets') + path.sep) && (await isFile(abs))) {
        reply.header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=31536000, immutable');
        return reply.sendFile(`/assets/${last}`, adminDir, { cacheControl: false, dotfiles: 'deny' });
      }
    }
    // A missing script or image is a plain 404, never the page.
    if (inside[0] === 'assets' || last.includes('.') || !acceptsHtml(req)) return sendText(reply, 404, NOT_FOUND);
    return sendIndex(reply);
  });
}
