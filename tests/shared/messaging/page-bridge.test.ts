import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BRIDGE_MESSAGE_SOURCE,
  PAGE_MESSAGE_SOURCE,
  type ExtensionReply,
  type LoginState,
} from '../../../shared/contracts/extension.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { createPageBridge, PageBridgeError, type PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { deliverForeignMessage, deliverSameWindowMessages } from './window-messages.ts';

const user: UserInfo = { userId: 'u1', userName: 'Ada', email: 'ada@example.com', role: 'user', vipOrder: null };

/**
 * A stand-in for the bridge content script: the same window protocol, answering from a table.
 * (The real content script against the background is tested in extension-messages.test.ts.)
 */
function standInBridge(answer: (type: string, data: unknown) => ExtensionReply<unknown> | 'silent', options: { answerPings?: boolean } = {}) {
  const seen: { pings: number; requests: { type: string; data: unknown }[] } = { pings: 0, requests: [] };
  const listener = (event: MessageEvent) => {
    const data = event.data as { source?: string; type?: string; id?: string; data?: unknown };
    if (data?.source !== PAGE_MESSAGE_SOURCE) return;
    if (data.type === 'ping') {
      seen.pings++;
      if (options.answerPings !== false) window.postMessage({ source: BRIDGE_MESSAGE_SOURCE, type: 'ready' }, window.location.origin);
      return;
    }
    seen.requests.push({ type: data.type!, data: data.data });
    const reply = answer(data.type!, data.data);
    if (reply !== 'silent') window.postMessage({ source: BRIDGE_MESSAGE_SOURCE, id: data.id, ...reply }, window.location.origin);
  };
  window.addEventListener('message', listener);
  return { seen, stop: () => window.removeEventListener('message', listener) };
}

/** What `promise` has settled with so far: 'pending', its value, or its rejection's reason. */
function settledValue(promise: Promise<unknown>): () => unknown {
  let outcome: unknown = 'pending';
  promise.then(
    (value) => (outcome = value),
    (reason: unknown) => (outcome = reason),
  );
  return () => outcome;
}

let bridge: PageBridge;
let stopStandIn: (() => void) | undefined;

beforeEach(() => {
  deliverSameWindowMessages();
  delete document.documentElement.dataset.tandemBridge;
});
afterEach(() => {
  vi.useRealTimers();
  bridge?.dispose();
  stopStandIn?.();
  stopStandIn = undefined;
  vi.restoreAllMocks();
});

describe('createPageBridge', () => {
  it('is ready once the bridge answers a ping', async () => {
    const standIn = standInBridge(() => ({ ok: true, result: null }));
    stopStandIn = standIn.stop;
    bridge = createPageBridge();
    expect(await bridge.ready(1000)).toBe(true);
    expect(standIn.seen.pings).toBeGreaterThanOrEqual(1);
    // Known from then on, without another ping.
    const pings = standIn.seen.pings;
    expect(await bridge.ready(1000)).toBe(true);
    expect(standIn.seen.pings).toBe(pings);
  });

  it('is ready at once when the bridge has marked the document', async () => {
    document.documentElement.dataset.tandemBridge = '1';
    bridge = createPageBridge();
    expect(await bridge.ready(0)).toBe(true);
  });

  it('pings every 50 ms and gives up after the timeout when no bridge answers', async () => {
    vi.useFakeTimers();
    const standIn = standInBridge(() => 'silent', { answerPings: false });
    stopStandIn = standIn.stop;
    bridge = createPageBridge();
    const outcome = settledValue(bridge.ready(300));
    await vi.advanceTimersByTimeAsync(299);
    expect(outcome()).toBe('pending');
    // One at once, then one per 50 ms.
    expect(standIn.seen.pings).toBe(6);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe(false);
    // Given up: no ping after the deadline (one may have left at the deadline itself).
    await vi.advanceTimersByTimeAsync(500);
    expect(standIn.seen.pings).toBeLessThanOrEqual(7);
  });

  it('sends a request and resolves with the validated result', async () => {
    const standIn = standInBridge((type) =>
      type === 'getLoginToken' ? { ok: true, result: { token: 'tok', userInfo: user } } : { ok: true, result: null },
    );
    stopStandIn = standIn.stop;
    bridge = createPageBridge();
    await expect(bridge.request('getLoginToken', undefined)).resolves.toEqual({ token: 'tok', userInfo: user });
    const state: LoginState = { token: 'tok', userInfo: null };
    await expect(bridge.request('syncLoginState', state)).resolves.toBeNull();
    expect(standIn.seen.requests).toEqual([
      { type: 'getLoginToken', data: undefined },
      { type: 'syncLoginState', data: state },
    ]);
  });

  it('rejects with the error the extension answered', async () => {
    stopStandIn = standInBridge(() => ({ ok: false, error: { code: 'forbiddenSender', message: 'no' } })).stop;
    bridge = createPageBridge();
    const error = await bridge.request('logout', undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageBridgeError);
    expect(error).toMatchObject({ code: 'forbiddenSender', message: 'no' });
  });

  it('rejects an answer that does not fit the message', async () => {
    stopStandIn = standInBridge(() => ({ ok: true, result: { token: 42 } })).stop;
    bridge = createPageBridge();
    await expect(bridge.request('getLoginToken', undefined)).rejects.toMatchObject({ code: 'failed' });
  });

  it('times out when nothing answers', async () => {
    vi.useFakeTimers();
    stopStandIn = standInBridge(() => 'silent').stop;
    bridge = createPageBridge();
    const outcome = settledValue(bridge.request('openSidePanel', undefined, { timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(99);
    expect(outcome()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toMatchObject({ code: 'timeout' });
  });

  it('ignores answers and pushes from another origin or another window', async () => {
    vi.useFakeTimers();
    bridge = createPageBridge();
    const states: LoginState[] = [];
    bridge.onLoginState((s) => states.push(s));
    const pending = bridge.request('getCachedUserConfig', undefined, { timeoutMs: 200 });
    const { id } = vi.mocked(window.postMessage).mock.calls.at(-1)![0] as { id: string };
    const forged = { source: BRIDGE_MESSAGE_SOURCE, id, ok: true, result: { language: 'en' } };
    deliverForeignMessage(forged, { origin: 'https://evil.example', source: window });
    deliverForeignMessage(forged, { source: null });
    const push = { source: BRIDGE_MESSAGE_SOURCE, type: 'loginState', data: { token: 'evil', userInfo: null } };
    deliverForeignMessage(push, { origin: 'https://evil.example', source: window });
    deliverForeignMessage(push, { source: null });
    deliverForeignMessage({ source: BRIDGE_MESSAGE_SOURCE, type: 'ready' }, { origin: 'https://evil.example', source: window });
    // Nothing but the timeout settles the request, and nothing made the bridge ready.
    const outcome = settledValue(pending);
    await vi.advanceTimersByTimeAsync(200);
    expect(outcome()).toMatchObject({ code: 'timeout' });
    expect(states).toEqual([]);
    const ready = settledValue(bridge.ready(100));
    await vi.advanceTimersByTimeAsync(100);
    expect(ready()).toBe(false);
  });

  it('reports valid login pushes until unsubscribed, and drops invalid ones', async () => {
    bridge = createPageBridge();
    const states: LoginState[] = [];
    const stop = bridge.onLoginState((s) => states.push(s));
    const pushState = (data: unknown) =>
      window.postMessage({ source: BRIDGE_MESSAGE_SOURCE, type: 'loginState', data }, window.location.origin);
    pushState({ token: 'a', userInfo: user });
    pushState({ token: 5, userInfo: null });
    pushState({ token: null, userInfo: null });
    await vi.waitFor(() => expect(states).toHaveLength(2));
    stop();
    // A listener still subscribed gets the next push in the same dispatch the stopped one would.
    const witness: LoginState[] = [];
    bridge.onLoginState((s) => witness.push(s));
    pushState({ token: 'b', userInfo: null });
    await vi.waitFor(() => expect(witness).toEqual([{ token: 'b', userInfo: null }]));
    expect(states).toEqual([
      { token: 'a', userInfo: user },
      { token: null, userInfo: null },
    ]);
  });

  it('rejects pending requests when disposed', async () => {
    stopStandIn = standInBridge(() => 'silent').stop;
    bridge = createPageBridge();
    const pending = bridge.request('updatePromptPlugin', undefined);
    bridge.dispose();
    await expect(pending).rejects.toMatchObject({ code: 'unavailable' });
    await expect(bridge.request('logout', undefined)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
