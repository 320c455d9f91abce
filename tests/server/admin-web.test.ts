import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectServedPage, rawGet } from '../helpers/web-serving.ts';

const SECRET = 'SECRET-OUTSIDE-THE-ADMIN-ASSETS';

/** The output folder as the builds write it: the web app in chrome-mv3, the console in admin beside it. */
async function fakeBuilds(root: string, withAdmin: boolean) {
  const out = path.join(root, 'output');
  const web = path.join(out, 'chrome-mv3');
  await mkdir(path.join(web, 'chunks'), { recursive: true });
  await writeFile(path.join(web, 'app.html'), '<!doctype html><title>app</title>');
  await writeFile(path.join(web, 'login.html'), '<!doctype html><title>login</title>');
  if (withAdmin) {
    const admin = path.join(out, 'admin');
    await mkdir(path.join(admin, 'assets'), { recursive: true });
    await writeFile(path.join(admin, 'index.html'), '<!doctype html><title>admin</title><script type="module" src="/admin/assets/index-1a2b3c4d.js"></script>');
    await writeFile(path.join(admin, 'assets', 'index-1a2b3c4d.js'), 'console.log("admin")');
    await writeFile(path.join(admin, 'assets', 'index-1a2b3c4d.css'), 'body{}');
    await writeFile(path.join(admin, 'assets', '.hidden'), SECRET);
    await writeFile(path.join(admin, 'secret.txt'), SECRET);
    await writeFile(path.join(out, 'secret.txt'), SECRET);
  }
  return web;
}

describe('the admin console page (/admin)', () => {
  let t: TestApp;
  let root: string;
  let port: number;
  const get = (url: string, headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }) =>
    t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-admin-web-'));
    t = await createTestApp({}, { webDir: await fakeBuilds(root, true) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers /admin and every console route with its own page, never framed and not indexed', async () => {
    for (const url of ['/admin', '/admin/', '/admin/users', '/admin/users/abc123', '/admin/money/orders?x=1', '/admin/audit']) {
      const res = await get(url);
      expectServedPage(res, url, 'admin', 'none');
      expect(res.headers['x-robots-tag']).toContain('noindex');
    }
  });

  it('serves its hashed assets, cached for good', async () => {
    const js = await get('/admin/assets/index-1a2b3c4d.js', { accept: '*/*' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('console.log("admin")');
    const css = await get('/admin/assets/index-1a2b3c4d.css', { accept: 'text/css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers a missing or hidden file with a plain 404, never with the page or a file outside the assets', async () => {
    for (const url of ['/admin/assets/missing.js', '/admin/assets/.hidden', '/admin/secret.txt', '/admin/index.html', '/admin/assets/', '/admin/assets/a/b.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<title>admin</title>');
      expect(res.body).not.toContain(SECRET);
    }
    // Only a browser asking for a page gets the page.
    expect((await get('/admin/users', { accept: 'application/json' })).statusCode).toBe(404);
  });

  it('never leaves the console folder, however the path is spelled', async () => {
    for (const target of ['/admin/../secret.txt', '/admin/assets/../secret.txt', '/admin/assets/..%2fsecret.txt', '/admin/%2e%2e/%2e%2e/secret.txt', '/admin/assets/%00.js']) {
      const res = await rawGet(port, target);
      expect(res.body, target).not.toContain(SECRET);
      expect([200, 400, 404], target).toContain(res.status);
    }
  });

  it('keeps the API and the web app as they were', async () => {
    expect((await get('/')).body).toContain('<title>app</title>');
    expect((await get('/administrator')).body).toContain('<title>app</title>');
    const api = await t.app.inject({ method: 'GET', url: '/api/admin/User/GetList' });
    // Not signed in: the API's own answer, not a page.
    expect(api.headers['content-type']).toMatch(/application\/json/);
    expect(api.json().Code).toBe(10402);
  });
});

describe('the admin console page before its build', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-admin-web-'));
    t = await createTestApp({}, { webDir: await fakeBuilds(root, false) });
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('says how to build it, with a plain 404 and never a 500', async () => {
    for (const url of ['/admin', '/admin/users']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toMatch(/admin console not built/);
    }
  });
});
