import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestUser } from './users.ts';

/**
 * The one request helper of the server tests: calls the app in-process (`inject`), signed in as a
 * user (or with a bare token) or signed out, with the spec's JSON content type.
 *
 *   const as = api(t.app, user);
 *   const res = await as.post('/api/Save/Add', { chatId });   // the reply, for status and headers
 *   const body = await as.postBody('/api/Save/Add', { chatId }); // its envelope { Code, Msg, Data }
 *   await api(t.app).get('/api/Chat/GetModelListAll', { lang: 'zh' }); // signed out, in Chinese
 *
 * `http(baseUrl, user)` is its twin over real HTTP (fetch), for what inject cannot show: streams read
 * as they come, aborts, other instances and proxies. It answers with fetch's Response.
 */
export type RequestOptions = {
  /** Accept-Language, e.g. 'zh'. */
  lang?: string;
  /** More headers; they win over the helper's own. */
  headers?: Record<string, string>;
  /** The client's address, for routes limited per address (see `addressesUnder`). */
  remoteAddress?: string;
  /** A body sent as is (e.g. malformed JSON), still with the JSON content type; `body` is then ignored. */
  raw?: string;
};

/** Over real HTTP, a request can also be aborted. */
export type HttpOptions = Omit<RequestOptions, 'remoteAddress'> & { signal?: AbortSignal };

type Who = Pick<TestUser, 'token'> | string;

/** The spec's envelope; `Data` is loose on purpose: each test asserts the fields it cares about. */
export type Envelope<T = any> = { Code: number; Msg: string; Data: T };

export const JSON_TYPE = { 'content-type': 'application/json-patch+json' } as const;

export type Api = {
  get(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  getBody<T = any>(url: string, options?: RequestOptions): Promise<Envelope<T>>;
  postBody<T = any>(url: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
};

/**
 * The headers the helpers send: the JSON content type when there is a body, the user's token, the
 * language, then `options.headers`. For the rare raw request (node:http, to abort mid-stream).
 */
export function headersFor(who: Who | undefined, options: Pick<RequestOptions, 'lang' | 'headers'> = {}, withBody = false): Record<string, string> {
  const token = typeof who === 'string' ? who : who?.token;
  return {
    ...(withBody ? JSON_TYPE : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(options.lang ? { 'accept-language': options.lang } : {}),
    ...options.headers,
  };
}

/** The body as sent: `raw` as is, else `body` as JSON; undefined when there is none. */
const payloadOf = (body: unknown, options: Pick<RequestOptions, 'raw'>) => options.raw ?? (body === undefined ? undefined : JSON.stringify(body));

/** `who`: a signed-in user (anything with its token), a bare token, or nobody (signed out). */
export function api(app: FastifyInstance, who?: Who): Api {
  const get = (url: string, options: RequestOptions = {}) =>
    app.inject({ method: 'GET', url, headers: headersFor(who, options), remoteAddress: options.remoteAddress });
  const post = (url: string, body?: unknown, options: RequestOptions = {}) => {
    const payload = payloadOf(body, options);
    return app.inject({ method: 'POST', url, headers: headersFor(who, options, payload !== undefined), payload, remoteAddress: options.remoteAddress });
  };
  return {
    get,
    post,
    getBody: async (url, options) => (await get(url, options)).json(),
    postBody: async (url, body, options) => (await post(url, body, options)).json(),
  };
}

export type Http = {
  get(url: string, options?: HttpOptions): Promise<Response>;
  post(url: string, body?: unknown, options?: HttpOptions): Promise<Response>;
};

/** `api`'s twin over real HTTP to a listening server at `baseUrl` (e.g. `await listening(t.app)`). */
export function http(baseUrl: string, who?: Who): Http {
  return {
    get: (url, options = {}) => fetch(`${baseUrl}${url}`, { headers: headersFor(who, options), signal: options.signal }),
    post: (url, body, options = {}) => {
      const payload = payloadOf(body, options);
      return fetch(`${baseUrl}${url}`, { method: 'POST', headers: headersFor(who, options, payload !== undefined), body: payload, signal: options.signal });
    },
  };
}
