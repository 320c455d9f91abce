import i18next from 'i18next';
import type { z } from 'zod';
import { Codes } from '../contracts/envelope.ts';
import { tokenPersisted } from '../atoms/auth.ts';
import { clearPersisted, loadPersisted, peekLoaded, writePersisted } from '../storage/active.ts';
import { driverIdNow, getDriverId } from './driver-id.ts';

/** The request timeout, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 150_000;
/** What the server accepts POST bodies as (parsed as JSON). */
export const JSON_PATCH_CONTENT_TYPE = 'application/json-patch+json';

/** Every failure of a call: the server's Code and Msg, or a local code (10500, 10087) and message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    message: string,
    /** The HTTP status when the failure was an HTTP error. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * A call that reached no server (refused, unknown host, offline): the server's address goes with it,
 * so the screen can say which server and offer to change it.
 */
export class ServerUnreachableError extends ApiError {
  constructor(readonly address: string) {
    super(Codes.ServerError, i18next.t('request.serverUnreachable', { address }));
  }
}

let apiBase = '';

/**
 * Where `/api/...` paths go. Empty (same origin) suits the web app served by the server; the
 * extension sets the server URL it was built for or the one chosen in its settings.
 */
export function setApiBase(url: string): void {
  apiBase = url.replace(/\/+$/, '');
}

export function getApiBase(): string {
  return apiBase;
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return `${apiBase}${path}${search ? `?${search}` : ''}`;
}

const unauthorizedHandlers = new Set<() => void>();

/** Runs `handler` whenever a call answers 10402 (after the token has been cleared). */
export function onUnauthorized(handler: () => void): () => void {
  unauthorizedHandlers.add(handler);
  return () => unauthorizedHandlers.delete(handler);
}

/** One finished call, as the request-time tracker (tracking.ts) sees it. */
export interface RequestRecord {
  requestId: string;
  path: string;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** The failure's message; absent on success. */
  error?: string;
}

const requestObservers = new Set<(record: RequestRecord) => void>();

export function observeRequests(observer: (record: RequestRecord) => void): () => void {
  requestObservers.add(observer);
  return () => requestObservers.delete(observer);
}

/**
 * The headers of every call: ReqTarget and DriverId always, Authorization when logged
 * in. accept-language is sent always (not only for logged-in calls): a visitor signing up
 * in Chinese on an English browser reads the server's errors in Chinese too.
 */
export async function requestHeaders(asToken?: string): Promise<Headers> {
  const [driverId, stored] = await Promise.all([getDriverId(), asToken ? null : loadPersisted(tokenPersisted)]);
  return callHeaders(driverId, asToken ?? stored);
}

/**
 * The same headers without waiting, when the login and the DriverId have been read already (start-up
 * reads them); else null. A message sent with them leaves in the same task as the click or the action
 * that sent it, before the screen renders it.
 */
export function requestHeadersNow(): Headers | null {
  const token = peekLoaded(tokenPersisted);
  const driverId = driverIdNow();
  return token && driverId !== null ? callHeaders(driverId, token.value) : null;
}

/** The headers of a call as `token` (null: a visitor), in `language` (the UI's unless given: a context without it, the background, names it). */
export function callHeaders(driverId: string, token: string | null, language: string = i18next.language): Headers {
  const headers = new Headers({ ReqTarget: 'web', DriverId: driverId });
  headers.set('Accept-Language', language === 'zh' ? 'zh' : 'en');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** The server renews a token nearing expiry by answering a new one in the Authorization header. */
export async function adoptRenewedToken(response: Response): Promise<void> {
  const header = response.headers.get('Authorization')?.trim();
  if (!header) return;
  const token = header.replace(/^Bearer\s+/i, '');
  if (token) await writePersisted(tokenPersisted, token);
}

/**
 * `sentWith`: the token the refused request carried (null: none), when known. A login stored while
 * the request was on its way (a link's token, the extension's) is not the one refused: it stays,
 * and nobody is sent to the login dialog. (A page opened with ?token= over an expired login sent
 * its first calls with the old token; their refusals used to clear the link's new one.)
 */
async function handleUnauthorized(sentWith?: string | null): Promise<void> {
  if (sentWith !== undefined && (await loadPersisted(tokenPersisted)) !== sentWith) return;
  await clearPersisted(tokenPersisted);
  for (const handler of [...unauthorizedHandlers]) {
    try {
      handler();
    } catch (error) {
      console.error('unauthorized handler failed', error);
    }
  }
}

const t = (key: string) => i18next.t(key);

/** The message for an HTTP error status. */
export function httpErrorMessage(status: number): string {
  switch (status) {
    case 404:
      return t('request.notFound');
    case 500:
      return t('request.serverError');
    case 502:
      return t('request.gatewayError');
    case 503:
      return t('request.serviceUnavailable');
    case 504:
      return t('request.gatewayTimeout');
    default:
      return t('request.failed');
  }
}

/** The error for a call that did not complete: aborted by the caller, timed out, or no network. */
export function transportError(error: unknown, signal: AbortSignal | undefined, timeout?: AbortSignal): ApiError {
  if (error instanceof ApiError) return error;
  if (timeout?.aborted) return new ApiError(Codes.Aborted, t('request.timeout'));
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new ApiError(Codes.Aborted, t('request.aborted'));
  }
  return new ServerUnreachableError(apiBase || window.location.origin);
}

/**
 * Reads a {Code, Msg, Data} answer: Data on 10000; otherwise throws the server's Msg (or
 * `fallbackMessage`), clearing the token and calling the unauthorized handlers on 10402 (not for a
 * token that is not the stored one).
 */
export async function unwrapEnvelope(body: unknown, fallbackMessage = t('request.failed'), foreignToken = false, sentWith?: string | null): Promise<unknown> {
  if (typeof body !== 'object' || body === null || typeof (body as { Code?: unknown }).Code !== 'number') {
    throw new ApiError(Codes.ServerError, t('request.error'));
  }
  const { Code, Msg, Data } = body as { Code: number; Msg?: unknown; Data?: unknown };
  if (Code === Codes.Success) return Data;
  // A token tried in passing (asToken) is not the stored login: its refusal logs nobody out.
  if (Code === Codes.NotLoggedIn && !foreignToken) await handleUnauthorized(sentWith);
  throw new ApiError(Code, typeof Msg === 'string' && Msg ? Msg : fallbackMessage);
}

/** The caller's signal and the timeout as one signal, with the listener removed afterwards. */
export function combineSignals(signals: (AbortSignal | undefined)[]): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const s of present) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', onAbort, { once: true });
  }
  return { signal: controller.signal, dispose: () => present.forEach((s) => s.removeEventListener('abort', onAbort)) };
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST';
  /** Query parameters (GET); null and undefined values are left out. */
  query?: Query;
  /** POST body: sent as JSON (application/json-patch+json), or as is when FormData. */
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Validates Data; a mismatch is a 10500 'Request error'. */
  data?: z.ZodType<T>;
  /** The message of a failure answered without a Msg (default 'request failed'). */
  fallbackMessage?: string;
  /** False for the tracking calls themselves, which would otherwise feed on their own timings. */
  track?: boolean;
  /**
   * Send this token instead of the stored one, leaving the stored login alone (no renewal adopted,
   * no logout on 10402): to ask who a token from a link belongs to before anyone accepts it.
   */
  asToken?: string;
}

function newRequestId(): string {
  return crypto.randomUUID();
}

/** The one request helper. Resolves with Data of a 10000 answer. */
export async function request<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const requestId = newRequestId();
  const startedAt = Date.now();
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const { signal, dispose } = combineSignals([options.signal, timeout]);
  const report = (error?: string) => {
    if (options.track === false || requestObservers.size === 0) return;
    const record: RequestRecord = { requestId, path, startedAt, endedAt: Date.now(), ...(error ? { error } : {}) };
    for (const observer of [...requestObservers]) observer(record);
  };

  try {
    const headers = await requestHeaders(options.asToken);
    // Lets the server's logs and the request-time records be matched.
    headers.set('X-Request-Id', requestId);
    let body: BodyInit | undefined;
    if (method === 'POST' && options.body !== undefined) {
      if (options.body instanceof FormData) body = options.body;
      else {
        headers.set('Content-Type', JSON_PATCH_CONTENT_TYPE);
        body = JSON.stringify(options.body);
      }
    }

    let response: Response;
    let text: string;
    try {
      response = await fetch(apiUrl(path, method === 'GET' ? options.query : undefined), {
        method,
        headers,
        body,
        signal,
      });
      text = await response.text();
    } catch (error) {
      throw transportError(error, options.signal, timeout);
    }

    if (!options.asToken) await adoptRenewedToken(response);
    if (!response.ok) throw new ApiError(Codes.ServerError, httpErrorMessage(response.status), response.status);

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(Codes.ServerError, t('request.error'));
    }
    const sentWith = headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? null;
    const data = await unwrapEnvelope(json, options.fallbackMessage, !!options.asToken, sentWith);
    if (!options.data) {
      report();
      return data as T;
    }
    const parsed = options.data.safeParse(data);
    if (!parsed.success) throw new ApiError(Codes.ServerError, t('request.error'));
    report();
    return parsed.data;
  } catch (error) {
    const failure = error instanceof ApiError ? error : transportError(error, options.signal, timeout);
    report(failure.message);
    throw failure;
  } finally {
    dispose();
  }
}

export function apiGet<T = unknown>(path: string, query?: Query, options: Omit<RequestOptions<T>, 'method' | 'query' | 'body'> = {}) {
  return request<T>(path, { ...options, method: 'GET', query });
}

export function apiPost<T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'query' | 'body'> = {}) {
  return request<T>(path, { ...options, method: 'POST', body: body ?? {} });
}

/**
 * A POST whose success is a file (a PDF, ...) rather than the envelope: resolves with its bytes as a
 * Blob of the type the server names. A refusal is the JSON envelope, thrown as an ApiError with the
 * server's Msg (10402 logs out as for any call); the headers, the timeout and the renewed token are
 * those of `request`.
 */
export function apiPostFile(path: string, body: unknown, options: Pick<RequestOptions<never>, 'signal' | 'timeoutMs'> = {}): Promise<Blob> {
  return requestFile(path, { method: 'POST', body }, options);
}

/** A GET whose success is a file (a picture, ...): as apiPostFile, with the query in the address. */
export function apiGetFile(path: string, query?: Query, options: Pick<RequestOptions<never>, 'signal' | 'timeoutMs'> = {}): Promise<Blob> {
  return requestFile(path, { method: 'GET', query }, options);
}

async function requestFile(
  path: string,
  call: { method: 'GET'; query?: Query } | { method: 'POST'; body: unknown },
  options: Pick<RequestOptions<never>, 'signal' | 'timeoutMs'>,
): Promise<Blob> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const { signal, dispose } = combineSignals([options.signal, timeout]);
  try {
    const headers = await requestHeaders();
    headers.set('X-Request-Id', newRequestId());
    if (call.method === 'POST') headers.set('Content-Type', JSON_PATCH_CONTENT_TYPE);
    let response: Response;
    let blob: Blob;
    try {
      response =
        call.method === 'POST'
          ? await fetch(apiUrl(path), { method: 'POST', headers, body: JSON.stringify(call.body), signal })
          : await fetch(apiUrl(path, call.query), { headers, signal });
      blob = await response.blob();
    } catch (error) {
      throw transportError(error, options.signal, timeout);
    }
    await adoptRenewedToken(response);
    if (!response.ok) throw new ApiError(Codes.ServerError, httpErrorMessage(response.status), response.status);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('json')) return blob;
    let json: unknown;
    try {
      json = JSON.parse(await blob.text());
    } catch {
      throw new ApiError(Codes.ServerError, t('request.error'));
    }
    await unwrapEnvelope(json, undefined, false, headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? null);
    // A success envelope where a file was expected.
    throw new ApiError(Codes.ServerError, t('request.error'));
  } catch (error) {
    throw error instanceof ApiError ? error : transportError(error, options.signal, timeout);
  } finally {
    dispose();
  }
}
