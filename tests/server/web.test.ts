import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_EXTENSION_ID } from '../../shared/contracts/extension.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectServedPage, rawGet } from '../helpers/web-serving.ts';

const SECRET = 'SECRET-OUTSIDE-THE-WEB-ROOT';
const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';

/**
 * A fake build laid out as WXT writes it: <out>/chrome-mv3 (the web root) with the zips beside it
 * in <out>, and files outside the web root that must never be served.
 */
async function fakeBuild(root: string) {
  const out = path.join(root, 'output');
  const web = path.join(out, 'chrome-mv3');
  await mkdir(path.join(web, 'chunks'), { recursive: true });
  await mkdir(path.join(web, 'assets'), { recursive: true });
  await mkdir(path.join(web, 'icons'), { recursive: true });
  await writeFile(path.join(root, 'package.json'), `{"name":"${SECRET}"}`);
  await writeFile(path.join(out, 'package.json'), `{"name":"${SECRET}"}`);
  await writeFile(path.join(web, '.env'), SECRET);
  await writeFile(path.join(web, 'app.html'), '<!doctype html><title>app</title><script type="module" src="/chunks/app-1a2b3c4d.js"></script>');
  await writeFile(path.join(web, 'login.html'), '<!doctype html><title>login</title>');
  await writeFile(path.join(web, 'chunks', 'app-1a2b3c4d.js'), 'console.log("app")');
  await writeFile(path.join(web, 'assets', 'app-1a2b3c4d.css'), 'body{}');
  await writeFile(path.join(web, 'icons', '16.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(path.join(web, 'manifest.json'), '{"manifest_version":3}');
  await writeFile(path.join(out, 'tandem-0.1.0-chrome.zip'), 'old chrome zip');
  await writeFile(path.join(out, 'tandem-0.10.0-chrome.zip'), 'new chrome zip');
  await writeFile(path.join(out, 'tandem-0.9.0-chrome.zip'), 'middle chrome zip');
  // Newer on disk but an older version: the version decides.
  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(out, 'tandem-0.9.0-chrome.zip'), later, later);
  return web;
}

describe('the hosted web app', () => {
  let t: TestApp;
  let root: string;

  const get = (url: string, headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }) =>
    t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-web-'));
    const webDir = await fakeBuild(root);
    t = await createTestApp({ EXTENSION_IDS: STORE_ID }, { webDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers app routes with app.html, framable only by itself and running only its own scripts', async () => {
    for (const url of ['/', '/abc123', '/setting', '/some/deep/route?x=1']) {
      const res = await get(url);
      expectServedPage(res, url, 'app', 'self');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers HEAD for app routes too', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/abc123', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('serves /login as login.html, framable by the web app and the extensions, without X-Frame-Options', async () => {
    const res = await get('/login?redirect=%2F');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>login</title>');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = String(res.headers['content-security-policy']);
    const ancestors = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('frame-ancestors'));
    expect(ancestors).toBe(`frame-ancestors 'self' chrome-extension://${BUILT_IN_EXTENSION_ID} chrome-extension://${STORE_ID}`);
    expect(csp).toContain("script-src 'self';");
  });

  it('serves static files with their content type, nosniff, and long caching for hashed names', async () => {
    const js = await get('/chunks/app-1a2b3c4d.js', { accept: '*/*' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log("app")');

    const css = await get('/assets/app-1a2b3c4d.css', { accept: 'text/css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toContain('immutable');

    const png = await get('/icons/16.png', { accept: 'image/*' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['cache-control']).toBe('no-cache');
    expect(png.headers['x-content-type-options']).toBe('nosniff');

    const manifest = await get('/manifest.json', { accept: '*/*' });
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);

    // Revalidation works on the files that are not cached forever.
    const again = await get('/icons/16.png', { 'if-none-match': String(png.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('answers a missing file with a plain 404, never with the app page', async () => {
    for (const url of ['/chunks/missing.js', '/assets/missing.css', '/favicon.ico', '/chunks/deep/']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).not.toContain('<title>app</title>');
    }
    // Not a page request (an API-style fetch asking for JSON): no app page either.
    expect((await get('/abc123', { accept: 'application/json' })).statusCode).toBe(404);
  });

  it('never serves files outside the web root, nor dotfiles', async () => {
    const attempts = [
      '/../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/%2E%2E/package.json',
      '/chunks/..%2f..%2fpackage.json',
      '/chunks/%2e%2e%2f%2e%2e%2fpackage.json',
      '/chunks/..%5c..%5cpackage.json',
      '/chunks/../../package.json',
      '/chunks/%2e%2e/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/chunks/app-1a2b3c4d.js%00.png',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      '/.env',
      '/%2eenv',
      '/chunks//app-1a2b3c4d.js',
      '/%E0%A4%A',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.body, url).not.toContain(SECRET);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }

    // The same over a real socket, where nothing normalizes the path before the server.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    for (const url of [...attempts, '/chunks/./app-1a2b3c4d.js', '/chunks/../chunks/app-1a2b3c4d.js']) {
      const res = await rawGet(port, url);
      expect(res.body, url).not.toContain(SECRET);
      expect(res.body, url).not.toContain('console.log');
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(res.status, url).toBeLessThan(500);
    }
    expect((await rawGet(port, '/chunks/app-1a2b3c4d.js')).body).toContain('console.log');
  });

  it('keeps the JSON not-found envelope for unknown API routes', async () => {
    for (const [method, url] of [['GET', '/api/Unknown'], ['GET', '/api/Nope/Nothing.js'], ['POST', '/api/Unknown'], ['GET', '/api']] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ Code: 10404, Msg: 'request not found', Data: null });
    }
    // Real API routes are untouched.
    const settings = await t.app.inject({ method: 'GET', url: '/api/System/GetSettingListAll' });
    expect(settings.json().Code).toBe(10000);
  });

  it('serves the newest Chrome zip as a download, and says when the Edge zip is not built', async () => {
    const res = await get('/downloads/tandem-chrome.zip', { accept: '*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tandem-0.10.0-chrome.zip"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('new chrome zip');

    const edge = await get('/downloads/tandem-edge.zip', { accept: '*/*' });
    expect(edge.statusCode).toBe(404);
    expect(edge.body).toBe('extension package not built: run npm start');

    // The download links the server advertises are these routes.
    const list = (await t.app.inject({ method: 'GET', url: '/api/System/GetSettingListAll' })).json();
    const urls = Object.fromEntries((list.Data as { settingKey: string; settingValue: string }[]).map((s) => [s.settingKey, s.settingValue]));
    expect(new URL(urls.chrome_download_url).pathname).toBe('/downloads/tandem-chrome.zip');
    expect(new URL(urls.edge_download_url).pathname).toBe('/downloads/tandem-edge.zip');
  });

  it('finds the Edge zip once it is written', async () => {
    await writeFile(path.join(root, 'output', 'tandem-0.1.0-edge.zip'), 'edge zip');
    const res = await get('/downloads/tandem-edge.zip', { accept: '*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="tandem-0.1.0-edge.zip"');
    expect(res.body).toBe('edge zip');
  });
});

describe('the hosted web app before a build', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-web-empty-'));
    t = await createTestApp({}, { webDir: path.join(root, 'chrome-mv3') });
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('says how to build it, with a plain 404 and never a 500', async () => {
    for (const url of ['/', '/abc123', '/login', '/chunks/app.js', '/favicon.ico']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/plain; charset=utf-8');
      expect(res.body, url).toBe('web app not built: run npm start');
    }
    const zip = await t.app.inject({ method: 'GET', url: '/downloads/tandem-chrome.zip' });
    expect(zip.statusCode).toBe(404);
    expect(zip.body).toBe('extension package not built: run npm start');
    const api = await t.app.inject({ method: 'GET', url: '/api/Unknown' });
    expect(api.json()).toMatchObject({ Code: 10404 });
  });
});
