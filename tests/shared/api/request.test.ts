import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import {
  REQUEST_TIMEOUT_MS,
  apiGet,
  apiPost,
  apiPostFile,
  observeRequests,
  onUnauthorized,
  ServerUnreachableError,
  setApiBase,
  type RequestRecord,
} from '../../../shared/api/request.ts';
import { visitorIdPersisted } from '../../../shared/api/driver-id.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { installStorage, loadPersisted, peekPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';
import { apiFailure, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope, startTestServer } from '../../helpers/http-server.ts';

const server = serveTheseTests((_req, res) => sendEnvelope(res, { Code: 10000, Data: { ok: true } }));

beforeEach(() => {
  document.cookie = 'browserId=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('headers', () => {
  it('sends ReqTarget, a stored visitor DriverId and accept-language, and no Authorization when logged out', async () => {
    await apiGet('/api/Chat/GetModelListAll');
    await apiGet('/api/Chat/GetModelListAll');
    const [first, second] = server.requests;
    expect(first.headers.reqtarget).toBe('web');
    expect(first.headers.driverid).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.driverid).toBe(first.headers.driverid);
    expect(await loadPersisted(visitorIdPersisted)).toBe(first.headers.driverid);
    expect(first.headers.authorization).toBeUndefined();
    // A visitor's errors are in the UI language too.
    expect(first.headers['accept-language']).toBe('en');
  });

  it('uses the browserId cookie as DriverId when there is one', async () => {
    document.cookie = 'browserId=cookie-visitor-1; path=/';
    await apiGet('/api/x');
    expect(server.requests[0].headers.driverid).toBe('cookie-visitor-1');
  });

  it('sends the Bearer token and the UI language when logged in', async () => {
    await writePersisted(tokenPersisted, 'tok-1');
    await apiGet('/api/x');
    await setLanguage('zh');
    await apiGet('/api/x');
    expect(server.requests[0].headers.authorization).toBe('Bearer tok-1');
    expect(server.requests[0].headers['accept-language']).toBe('en');
    expect(server.requests[1].headers['accept-language']).toBe('zh');
  });

  it('sends GET parameters as a query, leaving out null and undefined', async () => {
    await apiGet('/api/Chat/GetChatSessionListBySelf', { page: 1, count: 20, sessionTitle: 'a b&c', x: undefined, y: null });
    expect(server.requests[0].method).toBe('GET');
    expect(server.requests[0].url).toBe('/api/Chat/GetChatSessionListBySelf?page=1&count=20&sessionTitle=a+b%26c');
    expect(server.requests[0].body).toBe('');
  });

  it('posts JSON bodies as application/json-patch+json, and FormData as multipart', async () => {
    await apiPost('/api/Chat/UpdateSessionTitle', { chatSessionId: 's1', sessionTitle: '标题' });
    const form = new FormData();
    form.append('mediaType', 'image');
    await apiPost('/api/Chat/AddChatMedia', form);
    expect(server.requests[0].method).toBe('POST');
    expect(server.requests[0].headers['content-type']).toBe('application/json-patch+json');
    expect(JSON.parse(server.requests[0].body)).toEqual({ chatSessionId: 's1', sessionTitle: '标题' });
    expect(server.requests[1].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.requests[1].body).toContain('name="mediaType"');
  });
});

describe('answers', () => {
  it('returns Data of a 10000 answer, validated when a schema is given', async () => {
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: { n: 3 } }));
    await expect(apiGet('/api/x')).resolves.toEqual({ n: 3 });
    await expect(apiGet('/api/x', undefined, { data: z.object({ n: z.number() }) })).resolves.toEqual({ n: 3 });
    const error = await apiFailure(apiGet('/api/x', undefined, { data: z.object({ n: z.string() }) }));
    expect([error.code, error.message]).toEqual([10500, 'Request error']);
  });

  it('throws the server Msg with its Code, or "request failed" when there is no Msg', async () => {
    server.handle((_req, res) => sendEnvelope(res, { Code: 10409, Msg: 'This e-mail is already registered' }));
    let error = await apiFailure(apiPost('/api/Account/AddUser', {}));
    expect([error.code, error.message]).toEqual([10409, 'This e-mail is already registered']);
    server.handle((_req, res) => sendEnvelope(res, { Code: 10470, Msg: '' }));
    error = await apiFailure(apiPost('/api/x', {}));
    expect([error.code, error.message]).toEqual([10470, 'request failed']);
  });

  it('replaces the token when a response carries an Authorization header', async () => {
    await writePersisted(tokenPersisted, 'old-token');
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: 1 }, { Authorization: 'renewed-token' }));
    await apiGet('/api/User/GetUserByLogin');
    expect(peekPersisted(tokenPersisted)).toBe('renewed-token');
    // Stored, not only cached: a fresh context reads the renewed token.
    installStorage(createWebStorage());
    expect(await loadPersisted(tokenPersisted)).toBe('renewed-token');
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: 1 }));
    await apiGet('/api/x');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer renewed-token');
  });

  it('on 10402 clears the token, runs the unauthorized handler and throws', async () => {
    await writePersisted(tokenPersisted, 'expired');
    let calls = 0;
    const stop = onUnauthorized(() => calls++);
    server.handle((_req, res) => sendEnvelope(res, { Code: 10402, Msg: 'Please log in' }));
    const error = await apiFailure(apiGet('/api/User/GetUserByLogin'));
    stop();
    expect([error.code, error.message]).toEqual([10402, 'Please log in']);
    expect(calls).toBe(1);
    expect(peekPersisted(tokenPersisted)).toBeNull();
    expect(localStorage.getItem(tokenPersisted.key)).toBeNull();
  });

  it('on 10402 for a token that is no longer the stored one (a new login meanwhile) keeps the new login', async () => {
    // A page opened with ?token= over an expired login: its first call goes out with the old token,
    // the link's token is stored while it is on its way, then the refusal of the old one arrives.
    await writePersisted(tokenPersisted, 'expired');
    let calls = 0;
    const stop = onUnauthorized(() => calls++);
    let answer!: () => void;
    server.handle((_req, res) => {
      answer = () => sendEnvelope(res, { Code: 10402, Msg: 'Please log in' });
    });
    const pending = apiFailure(apiGet('/api/Vip/GetSubscription'));
    await expect.poll(() => server.requests.length).toBe(1);
    await writePersisted(tokenPersisted, 'fresh-from-the-link');
    answer();
    const error = await pending;
    stop();
    expect(error.code).toBe(10402);
    expect(calls).toBe(0);
    expect(await loadPersisted(tokenPersisted)).toBe('fresh-from-the-link');
  });

  it('maps HTTP error statuses to their messages', async () => {
    const cases: [number, string][] = [
      [404, 'request not found'],
      [500, 'server error'],
      [502, 'gateway error'],
      [503, 'service unavailable'],
      [504, 'gateway timeout'],
      [418, 'request failed'],
    ];
    for (const [status, message] of cases) {
      server.handle((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ Code: 10500, Msg: 'internal detail', Data: null }));
      });
      const error = await apiFailure(apiGet('/api/x'));
      expect([error.status, error.message]).toEqual([status, message]);
    }
  });

  it('speaks the UI language in its own messages', async () => {
    await setLanguage('zh');
    server.handle((_req, res) => {
      res.writeHead(502);
      res.end();
    });
    expect((await apiFailure(apiGet('/api/x'))).message).toBe('网关错误');
  });

  it('reports an answer that is not JSON as 10500', async () => {
    server.handle((_req, res) => void res.end('<html>proxy page</html>'));
    const error = await apiFailure(apiGet('/api/x'));
    expect([error.code, error.message]).toEqual([10500, 'Request error']);
  });
});

describe('transport failures', () => {
  it('times out after 150000 ms by default, and after timeoutMs when given, with 10087', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(150_000);
    server.handle(() => {}); // never answers
    const started = Date.now();
    const error = await apiFailure(apiGet('/api/x', undefined, { timeoutMs: 150 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect([error.code, error.message]).toEqual([10087, 'The request timed out']);
  });

  it("aborts with 10087 when the caller's signal aborts", async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const call = apiGet('/api/x', undefined, { signal: controller.signal });
    // Aborted once the call is in flight: the server has it.
    await vi.waitUntil(() => server.requests.length === 1);
    controller.abort();
    const error = await apiFailure(call);
    expect([error.code, error.message]).toEqual([10087, 'Request cancelled']);
  });

  it('says which server cannot be reached', async () => {
    const gone = await startTestServer();
    await gone.close();
    setApiBase(gone.url);
    const error = await apiFailure(apiGet('/api/x'));
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect((error as ServerUnreachableError).address).toBe(gone.url);
    expect(error.message).toBe(`Cannot reach the server at ${gone.url}. Check your connection, or the server address.`);
  });
});

describe('observers', () => {
  it('sees every finished call with the id sent as X-Request-Id, and its failure message', async () => {
    const seen: RequestRecord[] = [];
    const stop = observeRequests((r) => seen.push(r));
    await apiGet('/api/ok');
    server.handle((_req, res) => sendEnvelope(res, { Code: 10404, Msg: 'Not found' }));
    await apiFailure(apiGet('/api/missing'));
    await apiPost('/api/System/AddRequestTime', [], { track: false }).catch(() => {});
    stop();
    expect(seen.map((r) => [r.path, r.error])).toEqual([
      ['/api/ok', undefined],
      ['/api/missing', 'Not found'],
    ]);
    expect(seen[0].requestId).toBe(server.requests[0].headers['x-request-id']);
    expect(seen[0].endedAt).toBeGreaterThanOrEqual(seen[0].startedAt);
  });
});

describe('files', () => {
  it('answers a file as a Blob of its type, posting JSON with the usual headers', async () => {
    await writePersisted(tokenPersisted, 'file-token');
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', Authorization: 'renewed-for-file' });
      res.end(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]));
    });
    const blob = await apiPostFile('/api/Image/MarkdownToPdf', { markdown: '# 你好' });
    expect(blob.type).toBe('application/pdf');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]);
    const sent = server.requests.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json-patch+json');
    expect(sent.headers.authorization).toBe('Bearer file-token');
    expect(JSON.parse(sent.body)).toEqual({ markdown: '# 你好' });
    expect(peekPersisted(tokenPersisted)).toBe('renewed-for-file');
  });

  it("throws a refusal's Code and Msg, logs out on 10402, and maps HTTP errors like any call", async () => {
    server.handle((_req, res) => sendEnvelope(res, { Code: 10400, Msg: 'The text is empty.' }));
    let error = await apiFailure(apiPostFile('/api/x', {}));
    expect([error.code, error.message]).toEqual([10400, 'The text is empty.']);

    await writePersisted(tokenPersisted, 'expired');
    let loggedOut = 0;
    const stop = onUnauthorized(() => loggedOut++);
    server.handle((_req, res) => sendEnvelope(res, { Code: 10402, Msg: 'Please Login' }));
    error = await apiFailure(apiPostFile('/api/x', {}));
    stop();
    expect([error.code, loggedOut, peekPersisted(tokenPersisted)]).toEqual([10402, 1, null]);

    server.handle((_req, res) => void res.writeHead(502).end('Bad gateway'));
    error = await apiFailure(apiPostFile('/api/x', {}));
    expect([error.code, error.status]).toEqual([10500, 502]);
    // A success envelope where a file was expected is not a file.
    server.handle((_req, res) => sendEnvelope(res, { Code: 10000, Data: null }));
    error = await apiFailure(apiPostFile('/api/x', {}));
    expect([error.code, error.message]).toEqual([10500, 'Request error']);
  });
});
