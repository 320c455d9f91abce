import { createHash } from 'node:crypto';

/**
 * The web app's service worker, served at /sw.js (root scope) by web.ts. Its text carries the
 * build's version (a hash of app.html), so a new build is a new worker, which drops the old cache.
 *
 * - install: caches app.html and the scripts and styles it names (the app shell);
 * - navigations: the network first; when the server cannot be reached, the cached shell, marked
 *   `<html data-offline="true">` so the app shows its offline notice instead of the browser's error;
 * - hashed build files (/chunks, /assets): the cache first (their names change with their content),
 *   kept as the app fetches them, so the screens opened once open offline too;
 * - everything else, the API above all, and any address with a token or temp key, is left to the
 *   network: never cached.
 */

/** The shell's own files, as app.html names them (scripts, module preloads, styles). */
export function shellFiles(appHtml: string): string[] {
  const found = new Set<string>();
  for (const match of appHtml.matchAll(/(?:src|href)="(\/(?:chunks|assets)\/[^"?#]+)"/g)) found.add(match[1]!);
  return [...found].sort();
}

export function buildVersion(appHtml: string): string {
  return createHash('sha256').update(appHtml).digest('hex').slice(0, 16);
}

export function serviceWorkerSource(appHtml: string): string {
  const precache = ['/app.html', '/manifest.webmanifest', '/icon/32.png', '/icon/128.png', '/icon/192.png', ...shellFiles(appHtml)];
  return `// Tandem's app shell worker (server/http/service-worker.ts). Build ${buildVersion(appHtml)}.
'use strict';
const CACHE = 'tandem-shell-${buildVersion(appHtml)}';
const PRECACHE = ${JSON.stringify(precache)};
const HASHED = /^\\/(chunks|assets)\\//;
const NEVER = /^\\/(api|login|downloads|sw\\.js)(\\/|$)/;
const CREDENTIAL = /[?&](token|tempkey|state)=/i;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('tandem-shell-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function offlineShell() {
  const cached = await caches.match('/app.html', { cacheName: CACHE });
  if (!cached) return Response.error();
  const html = (await cached.text()).replace('<html', '<html data-offline="true"');
  // The page keeps the headers the server gave it (its Content-Security-Policy above all).
  const headers = new Headers(cached.headers);
  headers.delete('content-length');
  headers.set('cache-control', 'no-store');
  return new Response(html, { headers });
}

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

async function fromNetworkFirst(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const hit = await caches.match(request, { cacheName: CACHE });
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => offlineShell()));
    return;
  }
  if (CREDENTIAL.test(url.search)) return;
  if (HASHED.test(url.pathname)) event.respondWith(fromCacheFirst(request));
  else if (PRECACHE.includes(url.pathname)) event.respondWith(fromNetworkFirst(request));
});
`;
}
