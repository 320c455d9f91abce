import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVersion, shellFiles } from '../../server/http/service-worker.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Installed-app mode and the newcomers' addresses, as the server serves them: the service worker at
 * the root (naming the build and its shell, never the API), the web app manifest, the stable pages
 * (/home, /guide, /helper, /feedback) and the Firefox package beside Chrome's and Edge's.
 */
const APP_HTML = `<!doctype html><html lang="en"><head><link rel="manifest" href="/manifest.webmanifest" />
<script type="module" crossorigin src="/chunks/app-AbC123.js"></script><link rel="modulepreload" crossorigin href="/chunks/react-XyZ.js">
<link rel="stylesheet" crossorigin href="/assets/app-Def.css"></head><body><div id="root"></div></body></html>`;

describe('the installable web app', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tandem-install-'));
    const web = path.join(root, 'output', 'chrome-mv3');
    await mkdir(web, { recursive: true });
    await writeFile(path.join(web, 'app.html'), APP_HTML);
    await writeFile(path.join(web, 'manifest.webmanifest'), JSON.stringify({ name: 'Tandem', start_url: '/', display: 'standalone' }));
    await writeFile(path.join(root, 'output', 'tandem-0.2.0-firefox.zip'), 'firefox zip');
    t = await createTestApp({}, { webDir: web });
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  it('names the shell of the build: its scripts, preloads and styles', () => {
    expect(shellFiles(APP_HTML)).toEqual(['/assets/app-Def.css', '/chunks/app-AbC123.js', '/chunks/react-XyZ.js']);
    expect(buildVersion(APP_HTML)).toMatch(/^[0-9a-f]{16}$/);
    expect(buildVersion(APP_HTML.replace('AbC123', 'AbC124'))).not.toBe(buildVersion(APP_HTML));
  });

  it('serves the service worker at the root, revalidated, naming this build and never caching the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(`tandem-shell-${buildVersion(APP_HTML)}`);
    expect(res.body).toContain('"/chunks/app-AbC123.js"');
    expect(res.body).toContain('"/app.html"');
    expect(res.body).toContain("const NEVER = /^\\/(api|login|downloads|sw\\.js)(\\/|$)/;");
    expect(res.body).toContain('data-offline="true"');
    // The worker's text is valid JavaScript.
    expect(() => new Function(res.body)).not.toThrow();
  });

  it('serves the web app manifest with its content type, and the stable pages as the app', async () => {
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    for (const url of ['/home', '/guide', '/helper', '/helper/points', '/feedback?v=0.1.0&browser=firefox']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('manifest.webmanifest');
    }
  });

  it('serves the Firefox package beside the others', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/downloads/tandem-firefox.zip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="tandem-0.2.0-firefox.zip"');
    expect(res.body).toBe('firefox zip');
  });
});

describe('the service worker before a build', () => {
  it('says how to build it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tandem-install-empty-'));
    const t = await createTestApp({}, { webDir: path.join(root, 'chrome-mv3') });
    const res = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('web app not built: run npm start');
    await t.close();
    await rm(root, { recursive: true, force: true });
  });
});
