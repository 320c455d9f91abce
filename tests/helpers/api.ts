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
 */
export type RequestOptions = {
  /** Accept-Language, e.g. 'zh'. */
  lang?: string;
  /** More headers; they win over the helper's own. */
  headers?: Record<string, string>;
  /** The client's address, for routes limited per address (see `addressesUnder`). */
  remoteAddress?: string;
};

/** The spec's envelope; `Data` is loose on purpose: each test asserts the fields it cares about. */
export type Envelope<T = any> = { Code: number; Msg: string; Data: T };

export const JSON_TYPE = { 'content-type': 'application/json-patch+json' } as const;

export type Api = {
  get(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  getBody<T = any>(url: string, options?: RequestOptions): Promise<Envelope<T>>;
  postBody<T = any>(url: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
};

/** `who`: a signed-in user (anything with its token), a bare token, or nobody (signed out). */
export function api(app: FastifyInstance, who?: Pick<TestUser, 'token'> | string): Api {
  const token = typeof who === 'string' ? who : who?.token;
  const headersOf = (options: RequestOptions, withBody: boolean) => ({
    ...(withBody ? JSON_TYPE : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(options.lang ? { 'accept-language': options.lang } : {}),
    ...options.headers,
  });
  const get = (url: string, options: RequestOptions = {}) =>
    app.inject({ method: 'GET', url, headers: headersOf(options, false), remoteAddress: options.remoteAddress });
  const post = (url: string, body?: unknown, options: RequestOptions = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: headersOf(options, body !== undefined),
      payload: body === undefined ? undefined : JSON.stringify(body),
      remoteAddress: options.remoteAddress,
    });
  return {
    get,
    post,
    getBody: async (url, options) => (await get(url, options)).json(),
    postBody: async (url, body, options) => (await post(url, body, options)).json(),
  };
}
