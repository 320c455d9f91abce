import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { blockedReason } from './address-guard.ts';

/**
 * Fetches a web page a user asked the assistant to read, without letting that request reach
 * anything but the public internet (SSRF). Every hop of a redirect chain is vetted again, and the
 * address check runs at connect time on the very addresses the socket is given, so a hostname that
 * resolves differently the second time (DNS rebinding) gains nothing. Size, time and content type
 * are bounded so a hostile site cannot tie the server up.
 */

export type ReaderErrorReason =
  | 'badUrl'
  | 'blockedAddress'
  | 'blockedPort'
  | 'tooManyRedirects'
  | 'timeout'
  | 'tooLarge'
  | 'unsupportedContent'
  | 'httpStatus'
  | 'fetchFailed';

export class ReaderError extends Error {
  constructor(
    readonly reason: ReaderErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'ReaderError';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface ReaderOptions {
  /** 'host:port' pairs (READER_ALLOWLIST) fetched on that port without the address check. */
  allowList?: string[];
  resolve?: Resolver;
  /** Largest body accepted, counted after decompression. Default 5 MB. */
  maxBytes?: number;
  /** For the whole fetch, redirects and body included. Default 10 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Whether a media type (lower case, no parameters) is wanted. Default: HTML and XHTML (the only kinds read so far). */
  accept?: (contentType: string) => boolean;
  userAgent?: string;
}

interface FetchedResource {
  /** The final URL, after redirects. */
  url: string;
  /** Lower-case media type without parameters. */
  contentType: string;
  charset?: string;
  body: Buffer;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; TandemReader/1.0)';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** `verbatim` keeps the resolver's order, so we judge and hand over exactly what DNS said. */
const systemResolver: Resolver = async (hostname) => {
  const found = await systemLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

type Settings = {
  allowed: Set<string>;
  resolve: Resolver;
  maxBytes: number;
  maxRedirects: number;
  accept: (contentType: string) => boolean;
  userAgent: string;
};

/** What the overall timer needs to reach: the request in flight, if any. */
type Flight = { timedOut: boolean; request?: ClientRequest };

/** A URL that passed the checks that can be made before connecting. */
type Target = { url: URL; checkAddresses: boolean };

export async function fetchPublicResource(url: string, options: ReaderOptions = {}): Promise<FetchedResource> {
  const settings: Settings = {
    allowed: allowListKeys(options.allowList ?? []),
    resolve: options.resolve ?? systemResolver,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    accept: options.accept ?? ((type) => DEFAULT_TYPES.has(type)),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const flight: Flight = { timedOut: false };

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ReaderError('timeout', `No complete answer within ${timeoutMs} ms.`);
      flight.timedOut = true;
      flight.request?.destroy(error);
      reject(error);
    }, timeoutMs);
  });
  const work = follow(url, settings, flight);
  // When the deadline wins, the work still settles (with the destroyed request's error): expected.
  work.catch(() => {});

  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    if (error instanceof ReaderError) throw error;
    if (flight.timedOut) throw new ReaderError('timeout', `No complete answer within ${timeoutMs} ms.`);
    throw new ReaderError('fetchFailed', error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    // Whatever happened, no socket outlives the call.
    flight.request?.destroy();
  }
}

async function follow(start: string, settings: Settings, flight: Flight): Promise<FetchedResource> {
  let target = vet(parseUrl(start), settings);
  for (let redirects = 0; ; redirects++) {
    const { request, response } = await send(target, settings, flight);
    const status = response.statusCode ?? 0;

    if (REDIRECT_STATUSES.has(status)) {
      // We never read a redirect's body: closing the socket is cheaper than draining it.
      request.destroy();
      const location = response.headers.location;
      if (!location) throw new ReaderError('httpStatus', `${target.url.href} answered ${status} without a Location.`);
      if (redirects >= settings.maxRedirects) {
        throw new ReaderError('tooManyRedirects', `More than ${settings.maxRedirects} redirects.`);
      }
      target = vet(parseUrl(location, target.url), settings);
      continue;
    }
    if (status < 200 || status > 299) {
      request.destroy();
      throw new ReaderError('httpStatus', `${target.url.href} answered ${status}.`);
    }

    const { type, charset } = parseContentType(response.headers['content-type']);
    if (!settings.accept(type)) {
      request.destroy();
      throw new ReaderError('unsupportedContent', `Cannot read ${type || 'content without a type'}.`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > settings.maxBytes) {
      request.destroy();
      throw new ReaderError('tooLarge', `The page is over ${settings.maxBytes} bytes.`);
    }
    const body = await readBody(request, response, settings.maxBytes);
    return { url: target.url.href, contentType: type, ...(charset ? { charset } : {}), body };
  }
}

function parseUrl(input: string, base?: URL): URL {
  try {
    return new URL(input, base);
  } catch {
    throw new ReaderError('badUrl', 'Not a valid URL.');
  }
}

/**
 * The checks that need no connection: scheme, credentials, port, and the address itself when the
 * host is a literal IP (Node does not call `lookup` for those) or a localhost name (RFC 6761: always
 * loopback, whatever a resolver says). WHATWG parsing has already turned odd IPv4 spellings
 * (0x7f.1, 127.1, 2130706433, ...) into dotted quads.
 */
function vet(url: URL, settings: Settings): Target {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ReaderError('badUrl', `Only http and https pages can be read, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new ReaderError('badUrl', 'URLs with credentials are not fetched.');

  const host = bareHost(url.hostname);
  if (settings.allowed.has(`${host}:${effectivePort(url)}`)) return { url, checkAddresses: false };

  if (isIP(host)) {
    const reason = blockedReason(host);
    if (reason) throw new ReaderError('blockedAddress', `${host} is not a public address (${reason}).`);
  } else if (isLocalhostName(host)) {
    throw new ReaderError('blockedAddress', `${host} is not a public address (loopback).`);
  }
  if (url.port !== '') throw new ReaderError('blockedPort', `Port ${url.port} is not fetched.`);
  return { url, checkAddresses: true };
}

/** Hostnames as WHATWG gives them (lower case), IPv6 without brackets. */
function bareHost(hostname: string) {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function effectivePort(url: URL) {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function isLocalhostName(host: string) {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * READER_ALLOWLIST entries, canonicalised the way URLs are ('[::1]:8080', 'LocalHost:3000',
 * '127.1:8080' all work). An entry without an explicit port, or that does not parse, never matches.
 */
function allowListKeys(entries: readonly string[]) {
  const keys = new Set<string>();
  for (const entry of entries) {
    const text = entry.trim();
    if (!/:\d+$/.test(text)) continue;
    try {
      const url = new URL(`http://${text}/`);
      if (url.username || url.password || url.pathname !== '/') continue;
      keys.add(`${bareHost(url.hostname)}:${effectivePort(url)}`);
    } catch {
      // Ignored: failing closed is the safe side of a typo.
    }
  }
  return keys;
}

function send(target: Target, settings: Settings, flight: Flight) {
  if (flight.timedOut) return Promise.reject(new ReaderError('timeout', 'Timed out.'));
  const { url } = target;
  return new Promise<{ request: ClientRequest; response: IncomingMessage }>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: Number(effectivePort(url)),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
          'user-agent': settings.userAgent,
          accept: 'text/html,application/xhtml+xml,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
        },
        // A fresh socket per hop: a pooled one would skip our lookup, and none is left behind.
        agent: false,
        lookup: guardedLookup(settings.resolve, target.checkAddresses),
      },
      (response) => {
        // IncomingMessage only emits 'error' when someone listens; readBody adds the real handler.
        response.on('error', () => {});
        resolve({ request, response });
      },
    );
    flight.request = request;
    // Stays attached for the request's whole life, so a late socket error is never unhandled.
    request.on('error', reject);
    request.end();
  });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` given to the socket: it resolves with our resolver and refuses the whole host when
 * ANY of its addresses is blocked, so the connection (including Node's happy-eyeballs attempts over
 * several addresses) can only ever go to addresses that were checked.
 */
function guardedLookup(resolve: Resolver, checkAddresses: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const answer = async (): Promise<Parameters<LookupCallback>> => {
      const found = (await resolve(hostname)).map((a) => ({ address: a.address, family: isIP(a.address) || a.family }));
      if (checkAddresses) {
        for (const { address } of found) {
          const reason = blockedReason(address);
          if (reason) return [new ReaderError('blockedAddress', `${hostname} resolves to ${address} (${reason}).`), ''];
        }
      }
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
      if (usable.length === 0) {
        return [Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), ''];
      }
      return options.all ? [null, usable] : [null, usable[0].address, usable[0].family];
    };
    // Called outside the promise chain, as a DNS callback would be.
    answer().then(
      (args) => process.nextTick(callback, ...args),
      (error: NodeJS.ErrnoException) => process.nextTick(callback, error, ''),
    );
  };
}

function parseContentType(header: string | undefined) {
  const [media, ...params] = (header ?? '').split(';');
  const type = media.trim().toLowerCase();
  let charset: string | undefined;
  for (const param of params) {
    const [name, ...rest] = param.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (value) charset = value;
  }
  return { type, charset };
}

/**
 * The body, decompressed, refused as soon as it passes maxBytes (a small gzip can inflate to
 * gigabytes, so the decompressed size is what counts). The decoder is fed by hand rather than piped
 * so that 'deflate' can be told apart from raw deflate by its first byte, as browsers do.
 */
function readBody(request: ClientRequest, response: IncomingMessage, maxBytes: number) {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (!['', 'identity', 'gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    request.destroy();
    return Promise.reject(new ReaderError('unsupportedContent', `Cannot decode ${encoding}.`));
  }

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let decoder: Transform | undefined;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      decoder?.destroy();
      request.destroy();
      reject(error instanceof ReaderError ? error : new ReaderError('fetchFailed', error instanceof Error ? error.message : 'The page could not be read.'));
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    };
    const take = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) fail(new ReaderError('tooLarge', `The page is over ${maxBytes} bytes.`));
      else chunks.push(chunk);
    };
    const decoderFor = (first: Buffer): Transform | undefined => {
      if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
      if (encoding === 'br') return zlib.createBrotliDecompress();
      if (encoding === 'deflate') return (first[0] & 0x0f) === 8 ? zlib.createInflate() : zlib.createInflateRaw();
      return undefined;
    };

    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (!decoder && encoding !== '' && encoding !== 'identity') {
        decoder = decoderFor(chunk);
        if (decoder) {
          decoder.on('data', take);
          decoder.on('end', finish);
          decoder.on('error', fail);
          decoder.on('drain', () => response.resume());
        }
      }
      if (!decoder) take(chunk);
      else if (!decoder.write(chunk)) response.pause();
    });
    response.on('end', () => {
      if (decoder) decoder.end();
      // A compressed but empty body never created a decoder.
      else finish();
    });
    response.on('error', fail);
    response.on('close', () => {
      if (!response.complete) fail(new ReaderError('fetchFailed', 'The connection closed before the page was complete.'));
    });
    if (response.destroyed) fail(new ReaderError('fetchFailed', 'The connection closed before the page was complete.'));
  });
}
