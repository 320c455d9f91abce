import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ApiError, setApiBase } from '../../shared/api/request.ts';
import { initI18n, setLanguage } from '../../shared/i18n/i18n.ts';
import { installStorage } from '../../shared/storage/active.ts';
import { createWebStorage } from '../../shared/storage/web.ts';
import { chatData, sendChatAnswer, sendEnvelope, startTestServer, type Handler, type SeenRequest, type TestServer } from './http-server.ts';

/** One path of a fake API: answers the request; `url` is its address, parsed (the query in searchParams). */
export type Route = (req: SeenRequest, res: ServerResponse, url: URL) => void | Promise<void>;

/** A route answering Code 10000, with `data` as Data when given. */
export const answer =
  (data?: unknown): Route =>
  (_req, res) =>
    sendEnvelope(res, data === undefined ? { Code: 10000 } : { Code: 10000, Data: data });

/** An AddMessage route answering at once: one finished event saying `output` to the message sent; `fields` set the rest. */
export const answerChat =
  (output: string, fields: Parameters<typeof chatData>[0] = {}): Route =>
  (req, res) =>
    sendChatAnswer(res, chatData({ InputMessage: (JSON.parse(req.body) as { inputMessage: string }).inputMessage, OutputMessage: output, FinishReason: 'stop', ...fields }));

/**
 * The app's API as a client test fakes it, routed by path: `routes`, and GetSettingListAll (no
 * settings, what every page asks for first) unless `routes` answers it; any other path answers 10404.
 */
export function fakeApi(routes: Record<string, Route>): Handler {
  const all: Record<string, Route> = { '/api/System/GetSettingListAll': answer([]), ...routes };
  return (req, res) => {
    const url = new URL(req.url, 'http://x');
    const route = all[url.pathname];
    return route ? route(req, res, url) : sendEnvelope(res, { Code: 10404, Msg: 'not found' });
  };
}

/** Where every client test starts: fresh web storage, the UI in English, API calls to `apiBase`. */
export async function startFreshClient(apiBase: string) {
  localStorage.clear();
  installStorage(createWebStorage());
  const i18n = await initI18n(['en']);
  await setLanguage('en');
  setApiBase(apiBase);
  return i18n;
}

/**
 * A test server for the tests of the calling file (or describe block): started before them, closed
 * after them. Before each test it answers with `handler` again (a test may have replaced it), its
 * record of requests is empty and the client starts fresh against it (startFreshClient).
 */
export function serveTheseTests(handler: Handler = (_req, res) => void res.end()): TestServer {
  let server: TestServer | undefined;
  const current = () => server ?? expect.fail('the test server starts before the tests');
  beforeAll(async () => {
    server = await startTestServer(handler);
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    current().handle(handler);
    current().requests.length = 0;
    await startFreshClient(current().url);
  });
  return {
    get url() {
      return current().url;
    },
    get requests() {
      return current().requests;
    },
    handle: (next) => current().handle(next),
    close: () => current().close(),
  };
}

/** The ApiError a call rejects with; the test fails when the call succeeds or fails otherwise. */
export async function apiFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
