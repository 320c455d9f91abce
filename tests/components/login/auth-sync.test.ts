import { createStore } from 'jotai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAuthSync } from '../../../components/login/auth-sync.ts';
import { setApiBase } from '../../../shared/api/request.ts';
import { authActionAtom, tokenAtom, userInfoAtom } from '../../../shared/atoms/auth.ts';
import type { ExtensionMessageType, LoginState } from '../../../shared/contracts/extension.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { PageBridgeError, type PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';
import { sendEnvelope, startTestServer, type TestServer } from '../../helpers/http-server.ts';

const ada: UserInfo = { userId: 'u1', userName: 'Ada', email: 'ada@example.com', role: 'user', vipOrder: null };
const bob: UserInfo = { userId: 'u2', userName: 'Bob', email: 'bob@example.com', role: 'user', vipOrder: null };
const usersByToken: Record<string, UserInfo> = { 'tok-ada': ada, 'tok-bob': bob };

/**
 * The extension as the page sees it through the bridge: it holds a login, takes syncLoginState
 * and, like the real bridge, pushes a loginState only when its token changes.
 */
function fakeExtension(initial: LoginState = { token: null, userInfo: null }, options: { ready?: boolean } = {}) {
  const state: LoginState = { ...initial };
  const listeners = new Set<(s: LoginState) => void>();
  const requests: { type: ExtensionMessageType; data: unknown }[] = [];
  const setState = (next: LoginState) => {
    const changed = next.token !== state.token;
    Object.assign(state, next);
    if (changed) for (const cb of [...listeners]) queueMicrotask(() => cb({ ...state }));
  };
  const answer = async (type: ExtensionMessageType, data: unknown) => {
    requests.push({ type, data });
    if (type === 'getLoginToken') return state.token === null ? null : { token: state.token, userInfo: state.userInfo };
    if (type === 'syncLoginState') {
      const next = data as LoginState;
      // The background keeps its user when the same login arrives without one.
      setState(next.token === state.token && next.userInfo === null ? { ...next, userInfo: state.userInfo } : next);
      return null;
    }
    throw new PageBridgeError('unknownType', type);
  };
  const bridge: PageBridge = {
    ready: async () => options.ready ?? true,
    request: ((type: ExtensionMessageType, data: unknown) => openCall(answer(type, data))) as PageBridge['request'],
    onLoginState(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    dispose() {},
  };
  const syncs = () => requests.filter((r) => r.type === 'syncLoginState').map((r) => r.data as LoginState);
  /** A push as is, changed or not (the real bridge pushes changes only; the page must not rely on it). */
  const push = (pushed: LoginState) => listeners.forEach((cb) => cb(pushed));
  return { state, bridge, requests, syncs, loginInExtension: setState, push };
}

/** The page's calls still open: to the extension (the fake bridge) and to the server (fetch, body read). */
const openCalls = new Set<Promise<unknown>>();
function openCall<T>(call: Promise<T>): Promise<T> {
  openCalls.add(call);
  const done = () => void openCalls.delete(call);
  call.then(done, done);
  return call;
}

/**
 * Resolves once the exchange between page and extension is over: no call is open and no reaction is
 * queued. Every step of startAuthSync starts in a microtask of the one before or when a call ends,
 * and the fakes answer in microtasks, so once no call is open a turn of the event loop (all
 * microtasks run) shows whether another step began. An exchange that never ends (an echo loop) makes
 * the test time out.
 */
async function exchangeOver(): Promise<void> {
  for (;;) {
    await new Promise((r) => setImmediate(r));
    if (openCalls.size === 0) return;
    await Promise.allSettled([...openCalls]);
  }
}

let server: TestServer;
let store: ReturnType<typeof createStore>;
let stop: (() => void) | undefined;
let unsubscribe: (() => void)[] = [];

beforeAll(async () => {
  // GetUserByLogin as the server answers it: the user of the bearer token, or 10402.
  server = await startTestServer((req, res) => {
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    const found = usersByToken[token];
    if (req.url === '/api/User/GetUserByLogin' && found) return sendEnvelope(res, { Code: 10000, Data: found });
    return sendEnvelope(res, { Code: 10402, Msg: 'not logged in' });
  });
});
afterAll(() => server.close());

beforeEach(() => {
  localStorage.clear();
  installStorage(createWebStorage());
  setApiBase(server.url);
  server.requests.length = 0;
  store = createStore();
  // The app's pages keep these mounted (they render them): the store then follows storage.
  unsubscribe = [store.sub(tokenAtom, () => {}), store.sub(userInfoAtom, () => {})];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    openCall(realFetch(input, init).then(async (res) => new Response(await res.arrayBuffer(), res))),
  );
});
afterEach(() => {
  stop?.();
  stop = undefined;
  unsubscribe.forEach((u) => u());
  vi.restoreAllMocks();
});

describe('startAuthSync', () => {
  it('adopts the extension login when the page is logged out', async () => {
    const ext = fakeExtension({ token: 'tok-ada', userInfo: ada });
    stop = startAuthSync(store, ext.bridge);
    await vi.waitFor(() => expect(store.get(userInfoAtom)).toEqual(ada));
    expect(store.get(tokenAtom)).toBe('tok-ada');
    await exchangeOver();
    // Echoes of the adopted login change nothing on the extension's side.
    expect(ext.state).toEqual({ token: 'tok-ada', userInfo: ada });
  });

  it('hands the page login to the extension when the page is logged in (the page wins)', async () => {
    await store.set(authActionAtom, { type: 'login', token: 'tok-bob', userInfo: bob });
    const ext = fakeExtension({ token: 'tok-ada', userInfo: ada });
    stop = startAuthSync(store, ext.bridge);
    await vi.waitFor(() => expect(ext.state).toEqual({ token: 'tok-bob', userInfo: bob }));
    expect(ext.requests.map((r) => r.type)).not.toContain('getLoginToken');
    await exchangeOver();
    expect(store.get(tokenAtom)).toBe('tok-bob');
    expect(ext.syncs()).toEqual([{ token: 'tok-bob', userInfo: bob }]);
  });

  it('does nothing when both are logged out', async () => {
    const ext = fakeExtension();
    stop = startAuthSync(store, ext.bridge);
    await exchangeOver();
    expect(ext.requests.map((r) => r.type)).toEqual(['getLoginToken']);
    expect(store.get(tokenAtom)).toBeNull();
  });

  it('reports every later login and logout of the page', async () => {
    const ext = fakeExtension();
    stop = startAuthSync(store, ext.bridge);
    await exchangeOver();
    await store.set(authActionAtom, { type: 'login', token: 'tok-ada', userInfo: ada });
    await vi.waitFor(() => expect(ext.state).toEqual({ token: 'tok-ada', userInfo: ada }));
    await store.set(authActionAtom, { type: 'logout' });
    await vi.waitFor(() => expect(ext.state).toEqual({ token: null, userInfo: null }));
    await exchangeOver();
    // Token and user set together go as one message.
    expect(ext.syncs()).toEqual([
      { token: 'tok-ada', userInfo: ada },
      { token: null, userInfo: null },
    ]);
  });

  it('follows logins and logouts made in the extension, without echo loops', async () => {
    await store.set(authActionAtom, { type: 'login', token: 'tok-ada', userInfo: ada });
    const ext = fakeExtension();
    stop = startAuthSync(store, ext.bridge);
    await vi.waitFor(() => expect(ext.state.token).toBe('tok-ada'));

    ext.loginInExtension({ token: 'tok-bob', userInfo: bob });
    await vi.waitFor(() => expect(store.get(userInfoAtom)).toEqual(bob));
    expect(store.get(tokenAtom)).toBe('tok-bob');

    ext.loginInExtension({ token: null, userInfo: null });
    await vi.waitFor(() => expect(store.get(tokenAtom)).toBeNull());
    expect(store.get(userInfoAtom)).toBeNull();
    // The exchange ends (an echo loop would keep it going), both sides logged out.
    await exchangeOver();
    expect(ext.state).toEqual({ token: null, userInfo: null });
  });

  it('ignores a push of the token the page already has', async () => {
    await store.set(authActionAtom, { type: 'login', token: 'tok-ada', userInfo: ada });
    const ext = fakeExtension({ token: 'tok-ada', userInfo: ada });
    stop = startAuthSync(store, ext.bridge);
    await exchangeOver();
    const requests = ext.requests.length;
    ext.push({ token: 'tok-ada', userInfo: null });
    await exchangeOver();
    expect(server.requests).toEqual([]);
    expect(ext.requests.length).toBe(requests);
    expect(store.get(userInfoAtom)).toEqual(ada);
  });

  it('logs the page and the extension out when the extension login is no longer valid', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ext = fakeExtension({ token: 'tok-revoked', userInfo: null });
    stop = startAuthSync(store, ext.bridge);
    await vi.waitFor(() => expect(server.requests.some((r) => r.url === '/api/User/GetUserByLogin')).toBe(true));
    await vi.waitFor(() => expect(ext.state.token).toBeNull());
    expect(store.get(tokenAtom)).toBeNull();
  });

  it('stays idle without a bridge, and stops when asked', async () => {
    const absent = fakeExtension({ token: 'tok-ada', userInfo: ada }, { ready: false });
    stop = startAuthSync(store, absent.bridge);
    await exchangeOver();
    expect(absent.requests).toEqual([]);
    expect(store.get(tokenAtom)).toBeNull();
    stop();

    const ext = fakeExtension();
    stop = startAuthSync(store, ext.bridge);
    await exchangeOver();
    stop();
    await store.set(authActionAtom, { type: 'login', token: 'tok-ada', userInfo: ada });
    ext.loginInExtension({ token: 'tok-bob', userInfo: bob });
    await exchangeOver();
    expect(ext.syncs()).toEqual([]);
    expect(store.get(tokenAtom)).toBe('tok-ada');
  });
});
