import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { handlePageTranslatorMessage } from '../../../entrypoints/background/page-translate.ts';
import { handleTranslateMessage } from '../../../entrypoints/background/selection-translate.ts';
import { setApiBase } from '../../../shared/api/request.ts';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import type { TransTextBody } from '../../../shared/contracts/translate.ts';
import { languagePersisted } from '../../../shared/i18n/language.ts';
import { serverUrlPersisted } from '../../../shared/platform/server-url.ts';
import { installStorage, writePersisted } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { PAGE_TRANSLATOR_SOURCE } from '../../../shared/utils/page-translate/protocol.ts';
import type { PageTranslatorReply } from '../../../shared/utils/page-translate/schemas.ts';
import { SELECTION_MESSAGE_SOURCE, type TranslateReply } from '../../../shared/utils/sider-settings.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';

/**
 * The background's one translation call (entrypoints/background/translate-call.ts), through both of
 * its callers' messages: the chosen server, the user's language, an idempotency key per request sent
 * again on the retry after a lost answer, and the server's refusals told apart in each protocol.
 */

const tab = { id: 3, windowId: 7, index: 0, highlighted: true, active: true, pinned: false, incognito: false } as chrome.tabs.Tab;
const fromContentScript = { id: fakeBrowser.runtime.id, tab, frameId: 0 };
const selectionRequest = { source: SELECTION_MESSAGE_SOURCE, type: 'translate', text: 'Bonjour', targetLanguage: 'en' };
const pageRequest = { source: PAGE_TRANSLATOR_SOURCE, type: 'translate', segments: ['Bonjour', 'le monde'], targetLanguage: 'en' };

/** Answers as the server does; `refuse` gives a Code and Msg instead; `drop` loses the first answer (the connection closes). */
let refuse: { Code: number; Msg: string } | null = null;
let drop = false;
const server = serveTheseTests(
  fakeApi({
    '/api/System/TransText': (req, res) => {
      const body = JSON.parse(req.body) as TransTextBody;
      if (drop) {
        drop = false;
        return void res.socket?.destroy();
      }
      if (refuse) return sendEnvelope(res, refuse);
      const segments = body.segments ?? [body.text ?? ''];
      sendEnvelope(res, {
        Code: 10000,
        Data: { translations: segments.map((s) => `[${body.targetLanguage}] ${s}`), tagsKept: segments.map(() => true), detectedLanguage: 'fr', targetLanguage: body.targetLanguage, chars: 1, cost: 1, balance: 9 },
      });
    },
  }),
);
const sent = () => server.requests.filter((r) => r.url === '/api/System/TransText');
const bodies = () => sent().map((r) => JSON.parse(r.body) as TransTextBody);

function ask<R>(handle: (m: unknown, s: chrome.runtime.MessageSender, respond: (r: R) => void) => boolean, message: unknown): Promise<R> {
  return new Promise<R>((resolve) => expect(handle(message, fromContentScript, resolve)).toBe(true));
}
const askSelection = (m: unknown = selectionRequest) => ask<TranslateReply>(handleTranslateMessage, m);
const askPage = (m: unknown = pageRequest) => ask<PageTranslatorReply>(handlePageTranslatorMessage, m);

describe('the background translation call', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    installStorage(createExtensionStorage());
    refuse = null;
    drop = false;
    // The chosen server is read from storage by the call itself (not from the API base set before).
    setApiBase('http://127.0.0.1:9');
    await writePersisted(serverUrlPersisted, server.url);
    await writePersisted(tokenPersisted, 'token-a');
    await writePersisted(languagePersisted, 'zh');
  });

  it('translates for both callers at the chosen server, in the user’s language, each request with its own key', async () => {
    // The page translator first: the UI language starts as English (the client's start), the user's is Chinese.
    expect(await askPage()).toEqual({ ok: true, translations: ['[en] Bonjour', '[en] le monde'], tagsKept: [true, true], cost: 1 });
    expect(await askSelection()).toEqual({ ok: true, text: '[en] Bonjour' });
    expect(sent()).toHaveLength(2);
    for (const request of sent()) expect(request.headers['accept-language']).toMatch(/^zh/);
    const [first, second] = bodies();
    expect(first).toMatchObject({ segments: ['Bonjour', 'le monde'], targetLanguage: 'en', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(second).toMatchObject({ text: 'Bonjour', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first!.requestId).not.toBe(second!.requestId);
  });

  it('sends a request whose answer was lost once more with the same key', async () => {
    drop = true;
    expect(await askPage()).toMatchObject({ ok: true, translations: ['[en] Bonjour', '[en] le monde'] });
    const [lost, retry] = bodies();
    expect(bodies()).toHaveLength(2);
    expect(retry!.requestId).toBe(lost!.requestId);
  });

  it('asks no key of an estimate', async () => {
    expect(await askPage({ ...pageRequest, estimate: true })).toMatchObject({ ok: true });
    expect(bodies()[0]!.requestId).toBeUndefined();
  });

  it('tells the server’s refusals apart in each protocol: sign in, not enough points, too many requests, a failure with its message', async () => {
    refuse = { Code: 10470, Msg: '积分不足' };
    expect(await askSelection()).toEqual({ ok: false, reason: 'points', message: '积分不足' });
    expect(await askPage()).toEqual({ ok: false, code: 'noPoints', message: '积分不足' });
    refuse = { Code: 10503, Msg: '模型繁忙' };
    expect(await askSelection()).toEqual({ ok: false, reason: 'failed', message: '模型繁忙' });
    expect(await askPage()).toEqual({ ok: false, code: 'failed', message: '模型繁忙' });
    // Too many requests for now: the page translator waits and asks again; the card shows the message.
    refuse = { Code: 10429, Msg: '请求过于频繁，请 20 秒后重试。' };
    expect(await askPage()).toEqual({ ok: false, code: 'busy', message: '请求过于频繁，请 20 秒后重试。' });
    expect(await askSelection()).toEqual({ ok: false, reason: 'failed', message: '请求过于频繁，请 20 秒后重试。' });
    refuse = { Code: 10402, Msg: '请登录' };
    expect(await askPage()).toEqual({ ok: false, code: 'signedOut', message: '请登录' });

    // Signed out: neither asks the server.
    await writePersisted(tokenPersisted, null);
    const before = sent().length;
    expect(await askSelection()).toEqual({ ok: false, reason: 'signIn', message: '' });
    expect(await askPage()).toEqual({ ok: false, code: 'signedOut', message: 'not signed in' });
    expect(sent()).toHaveLength(before);
  });
});
