import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { blockedReason } from '../../server/services/reader/address-guard.ts';
import { fetchPublicResource, ReaderError, type ReaderErrorReason, type ReaderOptions, type Resolver } from '../../server/services/reader/safe-fetch.ts';

/**
 * Nothing in this file may reach beyond loopback, even if the guard under test is broken. A spy on
 * net.Socket.prototype.connect (1) records every connection attempt the socket makes, (2) refuses a
 * literal non-loopback host before Node sees it, and (3) wraps the socket's lookup so that
 * non-loopback addresses the guard let through are recorded and replaced by an error. Every test
 * then asserts that no non-loopback address was let through.
 */
const attempts: string[] = [];
const leaked: string[] = [];
// Judged independently of the code under test.
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
const isLoopback = (address: string) => {
  const family = net.isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupFn = (hostname: string, options: object, callback: LookupCallback) => void;

function installSafetyNet() {
  const connect = net.Socket.prototype.connect;
  return vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: string; lookup?: LookupFn };
    const host = options.host ?? 'localhost';
    if (net.isIP(host) && !isLoopback(host)) {
      leaked.push(host);
      throw new Error(`test safety net: refused to connect to ${host}`);
    }
    if (!net.isIP(host)) {
      const inner = options.lookup;
      if (!inner) {
        leaked.push(`${host} (no guarded lookup)`);
        throw new Error(`test safety net: ${host} would be resolved by the system resolver`);
      }
      options.lookup = (hostname, lookupOptions, callback) =>
        inner(hostname, lookupOptions, (err, address, family) => {
          const addresses = err ? [] : Array.isArray(address) ? address.map((a) => a.address) : [address];
          const outside = addresses.filter((a) => !isLoopback(a));
          if (outside.length > 0) {
            leaked.push(...outside);
            callback(new Error(`test safety net: ${hostname} -> ${outside.join(', ')}`), '');
          } else callback(err, address, family);
        });
    }
    this.on('connectionAttempt', (address: string) => attempts.push(address));
    return connect.apply(this, args as Parameters<typeof connect>);
  });
}

/** A fake DNS: records what it was asked and never touches the real one. */
const DNS: Record<string, string[]> = {
  'metadata.test': ['169.254.169.254'],
  'intranet.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed-v6.test': ['2606:4700:4700::1111', 'fd00::5'],
  'loopback.test': ['127.0.0.1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'ula.test': ['fd12:3456:789a::1'],
  'nat64.test': ['64:ff9b::a00:1'],
  'zone.test': ['fe80::1%eth0'],
  'cgnat.test': ['100.64.0.1'],
  'site.test': ['127.0.0.1'],
};
const resolved: string[] = [];
const fakeResolver: Resolver = async (hostname) => {
  resolved.push(hostname);
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: net.isIP(address.split('%')[0]) === 6 ? 6 : 4 }));
};

async function refusal(url: string, options: ReaderOptions = {}): Promise<ReaderError> {
  const error = await fetchPublicResource(url, { resolve: fakeResolver, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${url} should have been refused`).toBeInstanceOf(ReaderError);
  return error as ReaderError;
}

type Refused = { url: string; reason: ReaderErrorReason; resolves?: boolean };
const blocked = (url: string): Refused => ({ url, reason: 'blockedAddress' });
const resolvedThenBlocked = (url: string): Refused => ({ url, reason: 'blockedAddress', resolves: true });

/** Every one of these must be refused without a single connection attempt. */
const REFUSED: Refused[] = [
  // IPv4, one or two per range.
  blocked('http://0.0.0.0/'),
  blocked('http://0/'),
  blocked('http://10.0.0.1/'),
  blocked('http://10.255.255.255/'),
  blocked('http://100.64.0.1/'),
  blocked('http://100.127.255.254/'),
  blocked('http://100.100.100.200/latest/meta-data/'),
  blocked('http://127.0.0.1/'),
  blocked('http://127.255.255.254/'),
  blocked('http://169.254.169.254/latest/meta-data/'),
  blocked('http://169.254.0.1/'),
  blocked('http://172.16.0.1/'),
  blocked('http://172.31.255.255/'),
  blocked('http://192.0.0.1/'),
  blocked('http://192.0.2.1/'),
  blocked('http://192.88.99.1/'),
  blocked('http://192.168.1.1/'),
  blocked('http://198.18.0.1/'),
  blocked('http://198.19.255.255/'),
  blocked('http://198.51.100.7/'),
  blocked('http://203.0.113.9/'),
  blocked('http://224.0.0.1/'),
  blocked('http://239.255.255.250/'),
  blocked('http://240.0.0.1/'),
  blocked('http://255.255.255.255/'),
  blocked('https://127.0.0.1/'),
  // Odd IPv4 spellings WHATWG parsing turns into dotted quads.
  blocked('http://0x7f.1/'),
  blocked('http://127.1/'),
  blocked('http://017700000001/'),
  blocked('http://2130706433/'),
  blocked('http://0xa9fea9fe/'),
  blocked('http://0251.0376.0251.0376/'),
  blocked('http://127.0.0.1./'),
  // IPv6, and IPv6 forms that embed a blocked IPv4 address.
  blocked('http://[::]/'),
  blocked('http://[::1]/'),
  blocked('http://[::ffff:127.0.0.1]/'),
  blocked('http://[::ffff:7f00:1]/'),
  blocked('http://[::ffff:169.254.169.254]/'),
  blocked('http://[::127.0.0.1]/'),
  blocked('http://[64:ff9b::a9fe:a9fe]/'),
  blocked('http://[64:ff9b::10.0.0.1]/'),
  blocked('http://[64:ff9b:1::a9fe:a9fe]/'),
  blocked('http://[2002:7f00:1::]/'),
  blocked('http://[2002:a9fe:a9fe::1]/'),
  blocked('http://[fe80::1]/'),
  blocked('http://[fec0::1]/'),
  blocked('http://[fc00::1]/'),
  blocked('http://[fd00:ec2::254]/'),
  blocked('http://[ff02::1]/'),
  blocked('http://[2001:db8::1]/'),
  blocked('http://[100::1]/'),
  blocked('http://[2001::1]/'),
  blocked('http://[2001:2::1]/'),
  // Hostnames: refused in the socket's lookup, before any connection.
  resolvedThenBlocked('http://metadata.test/latest/meta-data/'),
  resolvedThenBlocked('http://intranet.test/'),
  resolvedThenBlocked('http://mixed.test/'),
  resolvedThenBlocked('https://mixed-v6.test/'),
  resolvedThenBlocked('http://loopback.test/'),
  resolvedThenBlocked('http://v6-loopback.test/'),
  resolvedThenBlocked('http://mapped.test/'),
  resolvedThenBlocked('http://ula.test/'),
  resolvedThenBlocked('http://nat64.test/'),
  resolvedThenBlocked('http://zone.test/'),
  resolvedThenBlocked('http://cgnat.test/'),
  resolvedThenBlocked('http://site.test/'),
  // localhost is loopback by definition (RFC 6761): refused by name, before its port is looked at.
  blocked('http://localhost/'),
  blocked('http://foo.localhost/'),
  blocked('http://LOCALHOST:8080/'),
  // Schemes, credentials, ports, garbage.
  { url: 'ftp://example.test/', reason: 'badUrl' },
  { url: 'file:///etc/passwd', reason: 'badUrl' },
  { url: 'javascript:alert(1)', reason: 'badUrl' },
  { url: 'data:text/html,<h1>hi</h1>', reason: 'badUrl' },
  { url: 'http://user:pw@example.test/', reason: 'badUrl' },
  { url: 'http://user@example.test/', reason: 'badUrl' },
  { url: 'http://[::1', reason: 'badUrl' },
  { url: 'not a url', reason: 'badUrl' },
  { url: 'http://exa mple.test/', reason: 'badUrl' },
  { url: 'http://[fe80::1%25eth0]/', reason: 'badUrl' },
  { url: 'http://example.test:8080/', reason: 'blockedPort' },
  { url: 'http://example.test:22/', reason: 'blockedPort' },
  { url: 'https://example.test:8443/', reason: 'blockedPort' },
];

let safetyNet: ReturnType<typeof installSafetyNet>;
beforeAll(() => {
  safetyNet = installSafetyNet();
});
afterAll(() => safetyNet.mockRestore());
beforeEach(() => {
  attempts.length = 0;
  resolved.length = 0;
  leaked.length = 0;
});
afterEach(() => {
  expect(leaked).toEqual([]);
  expect(attempts.filter((a) => !isLoopback(a))).toEqual([]);
});

describe('blockedReason', () => {
  it('passes public unicast addresses (classified only, never contacted)', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '[2a00:1450:4001::1]', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(blockedReason(address), address).toBeNull();
    }
  });

  it('names why an address is refused, judging embedded IPv4 by the IPv4 address', () => {
    expect(blockedReason('169.254.169.254')).toBe('metadata');
    expect(blockedReason('169.254.10.10')).toBe('link-local');
    expect(blockedReason('10.1.2.3')).toBe('private');
    expect(blockedReason('100.64.0.1')).toBe('cgnat');
    expect(blockedReason('198.51.100.1')).toBe('documentation');
    expect(blockedReason('198.18.5.5')).toBe('benchmarking');
    expect(blockedReason('255.255.255.255')).toBe('broadcast');
    expect(blockedReason('224.0.0.251')).toBe('multicast');
    expect(blockedReason('0.0.0.0')).toBe('unspecified');
    expect(blockedReason('::')).toBe('unspecified');
    expect(blockedReason('::1')).toBe('loopback');
    expect(blockedReason('[::1]')).toBe('loopback');
    expect(blockedReason('::ffff:127.0.0.1')).toBe('loopback');
    expect(blockedReason('::ffff:7f00:1')).toBe('loopback');
    expect(blockedReason('::7f00:1')).toBe('loopback');
    expect(blockedReason('64:ff9b::a9fe:a9fe')).toBe('metadata');
    expect(blockedReason('2002:c0a8:101::')).toBe('private');
    expect(blockedReason('fd00:ec2::254')).toBe('metadata');
    expect(blockedReason('fd12::1')).toBe('unique-local');
    expect(blockedReason('fe80::1%eth0')).toBe('link-local');
    expect(blockedReason('ff02::1')).toBe('multicast');
    expect(blockedReason('2001:db8::1')).toBe('documentation');
    expect(blockedReason('2001::1')).toBe('teredo');
    expect(blockedReason('100::1')).toBe('reserved');
    // Not in 2000::/3, the only block allocated for global unicast.
    expect(blockedReason('4000::1')).toBe('reserved');
    for (const garbage of ['', 'example.com', '1.2.3', '256.1.1.1', '::g', '1:2:3:4:5:6:7:8:9']) {
      expect(blockedReason(garbage), garbage).toBe('invalid');
    }
  });
});

describe('fetchPublicResource refuses what is not public', () => {
  it('has a table of at least 40 refused URLs', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(REFUSED)('refuses $url ($reason)', async ({ url, reason, resolves }) => {
    const error = await refusal(url);
    expect(error.reason).toBe(reason);
    // Hostnames are refused in the socket's lookup; everything else before a socket exists.
    expect(resolved).toEqual(resolves ? [new URL(url).hostname] : []);
    expect(attempts).toEqual([]);
  });

  it('gives up on a resolver that never answers when the time is up, without connecting', async () => {
    const error = await refusal('http://slow.test/', { resolve: () => new Promise(() => {}), timeoutMs: 100 });
    expect(error.reason).toBe('timeout');
    expect(attempts).toEqual([]);
  });

  it('reports a name that does not resolve as a failed fetch', async () => {
    expect((await refusal('http://nowhere.test/')).reason).toBe('fetchFailed');
    expect(attempts).toEqual([]);
  });
});

// The local site of the describe below: pages, redirects, slow and endless answers, on loopback.
const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>Grüße, reader.</p></body></html>';
const sockets = new Set<net.Socket>();
let site: http.Server;
let other: http.Server;
let otherHits = 0;
let siteHits = 0;
let port = 0;
let otherPort = 0;
let base = '';
/** Resolves when the server side of the endless stream sees its connection closed. */
let endlessClosed: Promise<void> = Promise.resolve();

const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
  siteHits++;
  const url = new URL(req.url ?? '/', 'http://site.test');
  const html = (body: string | Buffer, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', ...headers });
    res.end(body);
  };
  switch (url.pathname) {
    case '/page':
      return html(PAGE);
    case '/chain': {
      const n = Number(url.searchParams.get('n'));
      if (n <= 0) return html(PAGE);
      // Alternate relative and absolute Locations, and the redirect statuses.
      const statuses = [301, 302, 303, 307, 308];
      const next = n % 2 ? `/chain?n=${n - 1}` : `${base}/chain?n=${n - 1}`;
      res.writeHead(statuses[n % statuses.length], { location: next });
      return res.end();
    }
    case '/to':
      res.writeHead(302, { location: url.searchParams.get('url') ?? '/' });
      return res.end('moved');
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"a":1}');
    case '/image':
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.alloc(64));
    case '/declared-large':
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': 5000 });
      return res.end('x'.repeat(5000));
    case '/chunked-large':
      res.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 10; i++) res.write('y'.repeat(500));
      return res.end();
    case '/endless': {
      endlessClosed = once(res, 'close').then(() => undefined);
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(16 * 1024, 'z');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      return pump();
    }
    case '/gzip':
      return html(gzipSync(PAGE), { 'content-encoding': 'gzip' });
    case '/br':
      return html(brotliCompressSync(PAGE), { 'content-encoding': 'br' });
    case '/deflate':
      return html(deflateSync(PAGE), { 'content-encoding': 'deflate' });
    case '/bomb': {
      const bomb = gzipSync(Buffer.alloc(1024 * 1024));
      return html(bomb, { 'content-encoding': 'gzip', 'content-length': bomb.length });
    }
    case '/silent':
      return; // never answers
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<p>no</p>');
    default:
      res.writeHead(500);
      return res.end();
  }
};

describe('fetchPublicResource against a local site', () => {
  beforeAll(async () => {
    site = http.createServer(handle);
    site.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    port = (site.address() as net.AddressInfo).port;
    base = `http://127.0.0.1:${port}`;

    other = http.createServer((_req, res) => {
      otherHits++;
      res.end('internal');
    });
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    otherPort = (other.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    site.closeAllConnections();
    other.closeAllConnections();
    await Promise.all([new Promise((r) => site.close(r)), new Promise((r) => other.close(r))]);
  });

  beforeEach(() => {
    siteHits = 0;
    otherHits = 0;
  });

  // The reader must leave no socket open, whatever the outcome: wait for the server to see every
  // connection closed (a leak shows up as this hook timing out).
  afterEach(async () => {
    await Promise.all([...sockets].map((socket) => once(socket, 'close')));
    expect(otherHits).toBe(0);
  });

  const allowed = (): ReaderOptions => ({ allowList: [`127.0.0.1:${port}`], resolve: fakeResolver });
  const read = (path: string, options: ReaderOptions = {}) => fetchPublicResource(`${base}${path}`, { ...allowed(), ...options });
  const refused = (path: string, options: ReaderOptions = {}) => refusal(`${base}${path}`, { ...allowed(), ...options });

  it('reads an HTML page on an allow-listed host:port', async () => {
    const page = await read('/page');
    expect(page).toEqual({ url: `${base}/page`, contentType: 'text/html', charset: 'utf-8', body: Buffer.from(PAGE) });
    expect(attempts).toEqual(['127.0.0.1']);
  });

  it('uses the resolver for an allow-listed hostname, on that port only', async () => {
    const page = await fetchPublicResource(`http://site.test:${port}/page`, { allowList: [`SITE.test:${port}`], resolve: fakeResolver });
    expect(page.url).toBe(`http://site.test:${port}/page`);
    expect(page.body.toString()).toBe(PAGE);
    expect(resolved).toEqual(['site.test']);
    // The allow-list entry covers site.test:PORT, not site.test on the default port.
    expect((await refusal('http://site.test/page', { allowList: [`site.test:${port}`] })).reason).toBe('blockedAddress');
  });

  it('answers a lookup for one address too (family autoselection off)', async () => {
    const autoSelect = net.getDefaultAutoSelectFamily();
    net.setDefaultAutoSelectFamily(false);
    try {
      const page = await fetchPublicResource(`http://site.test:${port}/page`, { allowList: [`site.test:${port}`], resolve: fakeResolver });
      expect(page.body.toString()).toBe(PAGE);
      expect((await refusal('http://mixed.test/')).reason).toBe('blockedAddress');
    } finally {
      net.setDefaultAutoSelectFamily(autoSelect);
    }
    expect(resolved).toEqual(['site.test', 'mixed.test']);
  });

  it('follows a redirect chain within the allowed host', async () => {
    const page = await read('/chain?n=4');
    expect(page.url).toBe(`${base}/chain?n=0`);
    expect(page.body.toString()).toBe(PAGE);
    expect(siteHits).toBe(5);
  });

  it('follows exactly maxRedirects redirects, and refuses one more', async () => {
    expect((await read('/chain?n=3', { maxRedirects: 3 })).body.toString()).toBe(PAGE);
    expect((await refused('/chain?n=4', { maxRedirects: 3 })).reason).toBe('tooManyRedirects');
    expect((await refused('/chain?n=1', { maxRedirects: 0 })).reason).toBe('tooManyRedirects');
  });

  it('re-checks every redirect hop, and refuses private targets without contacting them', async () => {
    const hop = (target: string) => refused(`/to?url=${encodeURIComponent(target)}`);
    expect((await hop('http://169.254.169.254/latest/meta-data/')).reason).toBe('blockedAddress');
    expect((await hop('http://10.0.0.1/')).reason).toBe('blockedAddress');
    expect((await hop(`http://localhost:${otherPort}/`)).reason).toBe('blockedAddress');
    // The allow-list names a host AND a port: the same address on another port is not allowed.
    expect((await hop(`http://127.0.0.1:${otherPort}/`)).reason).toBe('blockedAddress');
    expect((await hop('http://[::ffff:a9fe:a9fe]/')).reason).toBe('blockedAddress');
    expect((await hop('http://0x7f.1/')).reason).toBe('blockedAddress');
    expect((await hop('http://intranet.test/')).reason).toBe('blockedAddress');
    expect((await hop('http://example.test:8080/')).reason).toBe('blockedPort');
    expect((await hop('ftp://example.test/')).reason).toBe('badUrl');
    expect((await hop(`http://user:pw@127.0.0.1:${port}/page`)).reason).toBe('badUrl');
    expect(resolved).toEqual(['intranet.test']);
    expect(attempts.every((a) => a === '127.0.0.1')).toBe(true);
    expect(siteHits).toBe(10);
  });

  it('refuses content types it cannot read before reading them', async () => {
    expect((await refused('/json')).reason).toBe('unsupportedContent');
    expect((await refused('/image')).reason).toBe('unsupportedContent');
    const json = await read('/json', { accept: (type) => type === 'application/json' });
    expect(json).toMatchObject({ contentType: 'application/json', body: Buffer.from('{"a":1}') });
    expect(json.charset).toBeUndefined();
  });

  it('refuses a body over maxBytes, by Content-Length or while reading, and closes the socket', async () => {
    expect((await refused('/declared-large', { maxBytes: 1000 })).reason).toBe('tooLarge');
    expect((await refused('/chunked-large', { maxBytes: 1000 })).reason).toBe('tooLarge');
    // A body that never ends: only closing the socket ends it, which the server sees.
    expect((await refused('/endless', { maxBytes: 100_000 })).reason).toBe('tooLarge');
    await endlessClosed;
    // A small gzip that inflates to 1 MB: the decompressed size counts.
    expect((await refused('/bomb', { maxBytes: 64 * 1024 })).reason).toBe('tooLarge');
    expect((await read('/page', { maxBytes: Buffer.byteLength(PAGE) })).body.length).toBe(Buffer.byteLength(PAGE));
  });

  it('decompresses gzip, deflate and brotli pages', async () => {
    for (const path of ['/gzip', '/deflate', '/br']) {
      const page = await read(path);
      expect(page.body.toString(), path).toBe(PAGE);
      expect(page.contentType).toBe('text/html');
    }
  });

  it('times out on a server that never answers, and closes the socket', async () => {
    expect((await refused('/silent', { timeoutMs: 200 })).reason).toBe('timeout');
    expect(siteHits).toBe(1);
  });

  it('reports a non-2xx answer', async () => {
    const error = await refused('/missing');
    expect(error.reason).toBe('httpStatus');
    expect(error.message).toContain('404');
  });

  it('refuses the loopback site itself without the allow-list', async () => {
    expect((await refusal('http://site.test/page')).reason).toBe('blockedAddress');
    expect(resolved).toEqual(['site.test']);
    expect((await refusal(`${base}/page`)).reason).toBe('blockedAddress');
    expect((await refusal(`http://localhost:${port}/page`)).reason).toBe('blockedAddress');
    expect(attempts).toEqual([]);
    expect(siteHits).toBe(0);
  });
});
