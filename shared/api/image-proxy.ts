import i18next from 'i18next';
import { Codes } from '../contracts/envelope.ts';
import { PROXY_IMAGE_PATH } from '../contracts/image-proxy.ts';
import { adoptRenewedToken, ApiError, apiUrl, getApiBase, httpErrorMessage, requestHeaders, transportError, unwrapEnvelope } from './request.ts';

/**
 * Images as blob: URLs, the only kind besides the page's own origin that the pages' CSP lets load
 * (docs/security.md): a remote image an answer names, through the server's proxy, after the
 * user clicked its placeholder; and Tandem's own images (signed media links) in the extension's
 * pages, whose origin is not the server's.
 */

/** Images loaded so far, by address: shown again (a re-render, the same image twice) without a request. */
const LOADED_LIMIT = 60;
const loading = new Map<string, Promise<string>>();
/** The blob: URLs of those that have arrived, for a view that must show them again synchronously. */
const ready = new Map<string, string>();

const proxyKey = (url: string) => `proxy\u0000${url}`;
const ownKey = (src: string) => `own\u0000${src}`;

function remember(key: string, load: () => Promise<string>): Promise<string> {
  const hit = loading.get(key);
  if (hit) return hit;
  const pending = load();
  pending.then(
    (objectUrl) => loading.get(key) === pending && ready.set(key, objectUrl),
    // A failure is not kept: the next click tries again.
    () => loading.get(key) === pending && loading.delete(key),
  );
  if (loading.size >= LOADED_LIMIT) {
    const [oldest, url] = loading.entries().next().value as [string, Promise<string>];
    loading.delete(oldest);
    ready.delete(oldest);
    void url.then(URL.revokeObjectURL, () => undefined);
  }
  loading.set(key, pending);
  return pending;
}

/** The blob: URL of an answer image already loaded (through the proxy, or Tandem's own), if any. */
export function loadedImage(url: string): string | undefined {
  return ready.get(proxyKey(url)) ?? ready.get(ownKey(url));
}

/** The server in use: the extension's chosen server, or this page's origin for the web app. */
const serverOrigin = () => getApiBase() || globalThis.location?.origin || '';

/** Whether an answer's image is one of Tandem's own (a signed media link of the server in use): it loads with no click. */
export function isOwnMediaLink(url: string): boolean {
  const server = serverOrigin();
  return !!server && url.startsWith(`${server}/api/Chat/GetChatMedia?`);
}

/** The answer's bytes as a blob: URL when it is an image; else the server's refusal as an ApiError. */
async function objectUrlOf(response: Response): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && type.startsWith('image/')) return URL.createObjectURL(await response.blob());
  if (!type.includes('json')) throw new ApiError(Codes.ServerError, httpErrorMessage(response.status), response.status);
  await unwrapEnvelope(await response.json());
  throw new ApiError(Codes.ServerError, i18next.t('request.error'));
}

async function fetchImage(address: string, init: RequestInit): Promise<string> {
  let response: Response;
  try {
    response = await fetch(address, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (error) {
    const failure = transportError(error, undefined);
    if (failure.code === Codes.Aborted) throw failure;
    // The spec's image-fetch failure (product spec §8): logged, then given on as 'network request failed'.
    console.warn('Image fetch failed:', address, error);
    throw new ApiError(failure.code, i18next.t('request.imageFetchFailed'));
  }
  await adoptRenewedToken(response);
  return objectUrlOf(response);
}

/**
 * GET /api/Chat/ProxyImage: the image at `url` (another host), fetched by the server for the signed-in
 * user. Rejects with the server's reason (not an image, too large, not a public address) in the
 * user's language.
 */
export function loadProxiedImage(url: string): Promise<string> {
  return remember(proxyKey(url), async () => fetchImage(apiUrl(PROXY_IMAGE_PATH, { url }), { headers: await requestHeaders() }));
}

/**
 * Tandem's own image at `src`, an absolute signed media link (its signature is its key) of the
 * server in use; an address elsewhere is refused, never fetched.
 */
export function loadOwnImage(src: string): Promise<string> {
  const server = serverOrigin();
  if (!server || !src.startsWith(`${server}/`)) return Promise.reject(new ApiError(Codes.BadRequest, i18next.t('request.error')));
  return remember(ownKey(src), () => fetchImage(src, {}));
}
