import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { tokenPersisted, userInfoPersisted } from '../shared/atoms/auth.ts';
import {
  BRIDGE_DATASET_FLAG,
  BRIDGE_MESSAGE_SOURCE,
  PAGE_MESSAGE_SOURCE,
  PagePingSchema,
  PageRequestSchema,
  type ExtensionReply,
  type LoginState,
} from '../shared/contracts/extension.ts';
import { relayExtensionMessage, replyError } from '../shared/messaging/protocol.ts';
import { DEFAULT_SERVER_URL, originOf, serverUrlPersisted } from '../shared/platform/server-url.ts';
import { createExtensionStorage } from '../shared/storage/extension.ts';
import { decodePersisted } from '../shared/storage/persisted.ts';

/**
 * The build's server (WXT_SERVER_URL, as in wxt.config.ts, which grants the same host). Match
 * patterns carry no port: the origin, port included, is checked at run time.
 */
const buildServer = new URL(DEFAULT_SERVER_URL);

/**
 * The bridge between the web app's page and the extension, which are one product
 * (docs/architecture.md#the-web-page-and-the-extension). The page talks to it with window messages (shared/messaging/page-bridge.ts);
 * it forwards the eight messages to the background and posts the answers back, and tells the
 * page when the extension logs in or out.
 *
 * It works only on the configured server's origin: the match pattern covers every port of the build's
 * host, and the user may have chosen another server. Elsewhere it stays silent, so no page of another
 * origin ever sees the extension's token. The background checks the sender again on every message.
 */
function startBridge(ctx: ContentScriptContext): void {
  const storage = createExtensionStorage();
  const pageOrigin = window.location.origin;
  const post = (message: object) => window.postMessage(message, pageOrigin);

  let active = false;
  let checks = 0;
  const announce = () => {
    if (document.documentElement) document.documentElement.dataset[BRIDGE_DATASET_FLAG] = '1';
    post({ source: BRIDGE_MESSAGE_SOURCE, type: 'ready' });
  };
  const checkOrigin = async (): Promise<void> => {
    const check = ++checks;
    const chosen = decodePersisted(serverUrlPersisted, await storage.get(serverUrlPersisted.key));
    // A later check (the setting changed meanwhile) wins.
    if (check !== checks || ctx.isInvalid) return;
    const next = originOf(chosen ?? DEFAULT_SERVER_URL) === pageOrigin;
    if (next && !active) announce();
    if (!next && active) delete document.documentElement?.dataset[BRIDGE_DATASET_FLAG];
    active = next;
  };
  const firstCheck = checkOrigin();
  ctx.onInvalidated(storage.watch(serverUrlPersisted.key, () => void checkOrigin()));
  ctx.onInvalidated(() => {
    delete document.documentElement?.dataset[BRIDGE_DATASET_FLAG];
  });

  const reply = (id: string, answer: ExtensionReply<unknown>) => post({ source: BRIDGE_MESSAGE_SOURCE, id, ...answer });

  ctx.addEventListener(window, 'message', (event: MessageEvent) => {
    // Only this page's own scripts: not other frames, not other origins.
    if (event.source !== window || event.origin !== pageOrigin) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || (data as { source?: unknown }).source !== PAGE_MESSAGE_SOURCE) return;
    if (PagePingSchema.safeParse(data).success) {
      if (active) announce();
      return;
    }
    const id = (data as { id?: unknown }).id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) return;
    const request = PageRequestSchema.safeParse(data);
    if (!request.success) {
      reply(id, replyError('unknownType', 'Not one of the extension messages'));
      return;
    }
    void firstCheck.then(async () => {
      if (!active) return reply(id, replyError('unavailable', 'The extension does not serve this origin'));
      reply(id, await relayExtensionMessage(request.data.type, request.data.data));
    });
  });

  // The extension's login changed (popup sign-out, a login in the side panel, a logout message):
  // the page follows. Only a change of the token is news; the page compares it with its own.
  let lastToken: string | null | undefined;
  void storage.get(tokenPersisted.key).then((raw) => {
    lastToken ??= decodePersisted(tokenPersisted, raw);
  });
  ctx.onInvalidated(
    storage.watch(tokenPersisted.key, (raw) => {
      const token = decodePersisted(tokenPersisted, raw);
      if (token === lastToken) return;
      lastToken = token;
      void (async () => {
        const userInfo = token === null ? null : decodePersisted(userInfoPersisted, await storage.get(userInfoPersisted.key));
        await firstCheck;
        if (!active || ctx.isInvalid) return;
        const state: LoginState = { token, userInfo };
        post({ source: BRIDGE_MESSAGE_SOURCE, type: 'loginState', data: state });
      })();
    }),
  );
}

export default defineContentScript({
  matches: [`${buildServer.protocol}//${buildServer.hostname}/*`],
  runAt: 'document_start',
  main(ctx) {
    startBridge(ctx);
  },
});
