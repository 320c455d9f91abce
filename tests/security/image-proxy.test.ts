import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../fixtures/fake-images.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { allowOnlyLoopbackConnections } from '../helpers/loopback-only.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * GET /api/Chat/ProxyImage, the server half of click-to-load answer images (docs/security.md):
 * signed-in users only, every address through the page reader's guard (loopback is reachable only
 * where READER_ALLOWLIST names it), raster images only judged by their bytes, bounded in size, and
 * answered with headers that keep the bytes inert and briefly cached.
 */

// Nothing here may leave loopback, even if the guard under test were broken: a connection to a
// non-loopback address is refused before Node connects, and each test checks none was tried.
const { refused: outside } = allowOnlyLoopbackConnections();

// The contract of shared/contracts/image-proxy.ts, spelled out here.
const PROXY_IMAGE_PATH = '/api/Chat/ProxyImage';
const PROXIED_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

describe('the image proxy', () => {
  let foreign: TestServer;
  /** A loopback server READER_ALLOWLIST does not name: the guard must keep the proxy off it. */
  let internal: TestServer;
  let t: TestApp;
  let user: TestUser;
  let jpeg: Buffer;

  const proxy = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${PROXY_IMAGE_PATH}?url=${encodeURIComponent(url)}`, headers: { ...auth(user.token), ...headers } });
  const serve = (body: Buffer | string, headers: Record<string, string>) =>
    foreign.handle((_req, res) => void res.writeHead(200, headers).end(body));

  beforeAll(async () => {
    foreign = await startTestServer();
    internal = await startTestServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG));
    t = await createTestApp({ READER_ALLOWLIST: new URL(foreign.url).host });
    user = await createUser(t.app);
    jpeg = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
  });
  afterAll(async () => {
    await t.close();
    await foreign.close();
    await internal.close();
  });
  beforeEach(() => {
    foreign.requests.length = 0;
    internal.requests.length = 0;
    serve(TINY_PNG, { 'content-type': 'image/png' });
  });
  afterEach(() => expect(outside).toEqual([]));

  describe('who may use it', () => {
    it('refuses callers without a valid token (10402), and then fetches nothing', async () => {
      const url = `${foreign.url}/p.png?secret=1`;
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
        const res = await t.app.inject({ method: 'GET', url: `${PROXY_IMAGE_PATH}?url=${encodeURIComponent(url)}`, headers });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ Code: 10402, Data: null });
      }
      expect(foreign.requests).toEqual([]);
    });

    it('answers a signed-in user the image, fetched by the server: none of the browser\'s headers travel', async () => {
      const res = await proxy(`${foreign.url}/p.png?secret=42`, { cookie: 'session=abc', referer: 'http://localhost:3000/chat' });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
      expect(foreign.requests).toHaveLength(1);
      const seen = foreign.requests[0];
      expect(seen.url).toBe('/p.png?secret=42');
      expect(seen.headers['user-agent']).toMatch(/TandemReader/);
      for (const header of ['authorization', 'cookie', 'referer']) expect(seen.headers[header]).toBeUndefined();
    });
  });

  describe('what it answers with', () => {
    it('sends the sniffed type with nosniff, an inert CSP and a short private cache', async () => {
      const res = await proxy(`${foreign.url}/p.png`);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      const cache = String(res.headers['cache-control']);
      expect(cache).toMatch(/\bprivate\b/);
      const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(3600);
    });

    it('serves what the bytes are, whatever the host declared (a JPEG sent as octet-stream or as image/png)', async () => {
      for (const declared of ['application/octet-stream', 'image/png']) {
        serve(jpeg, { 'content-type': declared });
        const res = await proxy(`${foreign.url}/photo`);
        expect(res.headers['content-type']).toBe('image/jpeg');
        expect(res.rawPayload.equals(jpeg)).toBe(true);
      }
      const gif = await sharp(TINY_PNG).gif().toBuffer();
      serve(gif, { 'content-type': 'image/gif' });
      expect((await proxy(`${foreign.url}/a.gif`)).headers['content-type']).toBe('image/gif');
      const webp = await sharp(TINY_PNG).webp().toBuffer();
      serve(webp, { 'content-type': 'image/webp' });
      expect((await proxy(`${foreign.url}/a.webp`)).headers['content-type']).toBe('image/webp');
    });
  });

  describe('types', () => {
    const refusedAsNotAnImage = async (body: Buffer | string, contentType: string) => {
      serve(body, { 'content-type': contentType });
      const res = await proxy(`${foreign.url}/thing`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ Code: 10422, Data: null });
      return res.json().Msg as string;
    };

    it('refuses SVG, declared or disguised', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      expect(await refusedAsNotAnImage(svg, 'image/svg+xml')).toMatch(/not an image that can be shown/);
      await refusedAsNotAnImage(svg, 'image/png');
      await refusedAsNotAnImage(svg, 'application/octet-stream');
    });

    it('refuses HTML and script, even when the host calls them images', async () => {
      await refusedAsNotAnImage('<!doctype html><script>alert(1)</script>', 'text/html');
      await refusedAsNotAnImage('<!doctype html><script>alert(1)</script>', 'image/png');
      await refusedAsNotAnImage('alert(document.cookie)', 'application/javascript');
      await refusedAsNotAnImage(Buffer.alloc(0), 'image/png');
    });

    it('refuses other binary files (a PDF sent as image/jpeg)', async () => {
      await refusedAsNotAnImage(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'image/jpeg');
    });

    it('says why in the caller\'s language', async () => {
      serve('<svg xmlns="http://www.w3.org/2000/svg"/>', { 'content-type': 'image/svg+xml' });
      const res = await proxy(`${foreign.url}/x.svg`, { 'accept-language': 'zh-CN' });
      expect(res.json().Msg).toMatch(/不是可以显示的图片/);
    });
  });

  describe('size', () => {
    it(`refuses an image over ${PROXIED_IMAGE_MAX_BYTES / 1024 / 1024} MB, declared or streamed`, async () => {
      const big = Buffer.concat([TINY_PNG, Buffer.alloc(PROXIED_IMAGE_MAX_BYTES)]);
      serve(big, { 'content-type': 'image/png', 'content-length': String(big.length) });
      const declared = (await proxy(`${foreign.url}/big.png`)).json();
      expect(declared).toMatchObject({ Code: 10422 });
      expect(declared.Msg).toMatch(/larger than 5 MB/);

      // Node sends a body given at once with a content-length; stream it in pieces to have none.
      foreign.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
        for (let at = 0; at < big.length; at += 256 * 1024) res.write(big.subarray(at, at + 256 * 1024));
        res.end();
      });
      expect((await proxy(`${foreign.url}/big-stream.png`)).json()).toMatchObject({ Code: 10422, Msg: expect.stringMatching(/larger than 5 MB/) });
    });

    it('passes an image just under the limit', async () => {
      const fits = Buffer.concat([TINY_PNG, Buffer.alloc(PROXIED_IMAGE_MAX_BYTES - TINY_PNG.length)]);
      serve(fits, { 'content-type': 'image/png' });
      const res = await proxy(`${foreign.url}/fits.png`);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.length).toBe(PROXIED_IMAGE_MAX_BYTES);
    });
  });

  describe('the address guard', () => {
    it('keeps off loopback the allow-list does not name, in every spelling', async () => {
      const port = new URL(internal.url).port;
      for (const url of [`${internal.url}/p.png`, `http://localhost:${port}/p.png`, `http://[::1]:${port}/p.png`, `http://127.1:${port}/p.png`]) {
        const res = (await proxy(url)).json();
        expect(res, url).toMatchObject({ Code: 10422, Data: null });
        expect(res.Msg).toMatch(/only images at public web addresses/);
      }
      expect(internal.requests).toEqual([]);
    });

    it('vets every redirect: an allowed host cannot bounce the proxy onto an internal one', async () => {
      foreign.handle((_req, res) => void res.writeHead(302, { location: `${internal.url}/secret.png` }).end());
      expect((await proxy(`${foreign.url}/bounce`)).json()).toMatchObject({ Code: 10422, Msg: expect.stringMatching(/public web addresses/) });
      expect(foreign.requests).toHaveLength(1);
      expect(internal.requests).toEqual([]);
    });

    it('follows a redirect within what is allowed', async () => {
      foreign.handle((req, res) => {
        if (req.url === '/moved') res.writeHead(301, { location: '/p.png' }).end();
        else res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
      });
      const res = await proxy(`${foreign.url}/moved`);
      expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
      expect(foreign.requests.map((r) => r.url)).toEqual(['/moved', '/p.png']);
    });

    it('takes only http and https addresses', async () => {
      for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://127.0.0.1/x.png', 'not a url']) {
        expect((await proxy(url)).json(), url).toMatchObject({ Code: 10422, Msg: expect.stringMatching(/public web addresses/) });
      }
    });

    it('reports a host that answers an error as unreachable', async () => {
      foreign.handle((_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('gone'));
      expect((await proxy(`${foreign.url}/gone.png`)).json()).toMatchObject({ Code: 10422, Msg: expect.stringMatching(/could not be loaded from its site/) });
    });
  });

  describe('bad input', () => {
    it('answers 10400 for a missing, empty or too long address', async () => {
      for (const query of ['', '?url=', `?url=${'a'.repeat(3000)}`]) {
        const res = await t.app.inject({ method: 'GET', url: `${PROXY_IMAGE_PATH}${query}`, headers: auth(user.token) });
        expect(res.json(), query.slice(0, 20)).toMatchObject({ Code: 10400, Data: null });
      }
      expect(foreign.requests).toEqual([]);
    });
  });
});
