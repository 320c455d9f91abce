import { browser } from 'wxt/browser';
import { z } from 'zod';
import { logoutOnServer } from '../../shared/api/user.ts';
import { integralValuePersisted, tokenPersisted, userInfoPersisted } from '../../shared/atoms/auth.ts';
import { promptPluginVersionPersisted, userConfigPersisted } from '../../shared/atoms/user-config.ts';
import {
  EXTENSION_MESSAGE_TYPES,
  ExtensionMessageDataSchemas,
  ExtensionMessageTypeSchema,
  type ExtensionMessageData,
  type ExtensionMessageResult,
  type ExtensionMessageType,
  type ExtensionReply,
  type LoginState,
} from '../../shared/contracts/extension.ts';
import { languagePersisted } from '../../shared/i18n/language.ts';
import { extensionMessaging, replyError, replyOk } from '../../shared/messaging/protocol.ts';
import { clearPersisted, loadPersisted, watchPersisted, writePersisted } from '../../shared/storage/active.ts';
import type { Persisted } from '../../shared/storage/persisted.ts';
import { originOf } from '../../shared/platform/server-url.ts';
import { refreshBadge } from './badge.ts';
import { knownServerUrl, loadServerUrl } from './server.ts';

export type MessageSender = chrome.runtime.MessageSender;

/** How long the logout message waits for the server to revoke the token before clearing anyway. */
export const LOGOUT_REVOKE_TIMEOUT_MS = 5_000;

/**
 * Messages reach the background from any content script of this extension, including on pages we
 * do not control. Only the bridge counts: our extension id, the top frame of a tab, and a page of
 * the configured server's origin (both the frame's URL and its origin, when Chrome reports one).
 */
export function isTrustedSender(sender: MessageSender, serverUrl: string): boolean {
  const serverOrigin = originOf(serverUrl);
  if (serverOrigin === null || sender.id !== browser.runtime.id || sender.tab === undefined) return false;
  if (sender.frameId !== undefined && sender.frameId !== 0) return false;
  if (originOf(sender.url) !== serverOrigin) return false;
  return sender.origin === undefined || sender.origin === serverOrigin;
}

async function clearLogin(): Promise<void> {
  // The token goes first: the bridge follows the token key and tells the page at once.
  await Promise.all([
    clearPersisted(tokenPersisted),
    clearPersisted(userInfoPersisted),
    clearPersisted(integralValuePersisted),
    clearPersisted(userConfigPersisted),
  ]);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The web app's login state becomes the extension's. Writes only what differs, so a page echoing
 * back what it was told causes no storage change (and no push back to the page).
 */
async function applyLoginState({ token, userInfo }: LoginState): Promise<null> {
  const [currentToken, currentUser] = await Promise.all([loadPersisted(tokenPersisted), loadPersisted(userInfoPersisted)]);
  if (token === null) {
    if (currentToken !== null || currentUser !== null) await clearLogin();
    return null;
  }
  if (token !== currentToken) {
    // User info first: the bridge reads it when the token changes. A different token may be a
    // different user, so per-user caches of the old one go.
    await Promise.all([
      writePersisted(userInfoPersisted, userInfo),
      clearPersisted(integralValuePersisted),
      clearPersisted(userConfigPersisted),
    ]);
    await writePersisted(tokenPersisted, token);
  } else if (userInfo !== null && !sameJson(userInfo, currentUser)) {
    // Same login, the page has (re)loaded the user: null here only means "not loaded yet".
    await writePersisted(userInfoPersisted, userInfo);
  }
  return null;
}

/** Revokes the token on the server (best effort, bounded), then forgets the login. */
async function logoutExtension(): Promise<null> {
  const token = await loadPersisted(tokenPersisted);
  if (token !== null) {
    try {
      // The API base is the configured server's (wireServer in server.ts sets it).
      await logoutOnServer({ timeoutMs: LOGOUT_REVOKE_TIMEOUT_MS });
    } catch (error) {
      console.warn('logout: revoking the token failed; clearing the login anyway', error);
    }
  }
  await clearLogin();
  return null;
}

/**
 * Synchronous up to sidePanel.open: Chrome opens the panel only within the user gesture the
 * message carries. Failure (no gesture, no window, old Chrome) is an answer, not an error.
 */
function openSidePanelFor(sender: MessageSender): Promise<{ opened: boolean }> {
  const windowId = sender.tab?.windowId;
  if (windowId === undefined || typeof browser.sidePanel?.open !== 'function') return Promise.resolve({ opened: false });
  try {
    return browser.sidePanel.open({ windowId }).then(
      () => ({ opened: true }),
      (error: unknown) => {
        console.warn('sidePanel.open failed', error);
        return { opened: false };
      },
    );
  } catch (error) {
    console.warn('sidePanel.open failed', error);
    return Promise.resolve({ opened: false });
  }
}

type Handler<K extends ExtensionMessageType> = (
  data: ExtensionMessageData<K>,
  sender: MessageSender,
) => ExtensionMessageResult<K> | Promise<ExtensionMessageResult<K>>;

/** What each message does, once its sender and payload have been checked. */
const handlers: { [K in ExtensionMessageType]: Handler<K> } = {
  syncLoginState: (state) => applyLoginState(state),
  getLoginToken: async () => {
    const [token, userInfo] = await Promise.all([loadPersisted(tokenPersisted), loadPersisted(userInfoPersisted)]);
    return token === null ? null : { token, userInfo };
  },
  openSidePanel: (_data, sender) => openSidePanelFor(sender),
  logout: () => logoutExtension(),
  webUpdatesUserSetting: async ({ setting }) => {
    const cached = await loadPersisted(userConfigPersisted);
    await writePersisted(userConfigPersisted, { ...cached, ...setting });
    // One language for the web app and the extension: its pages follow the stored choice at once.
    if (setting.language) await writePersisted(languagePersisted, setting.language);
    return null;
  },
  // The language is the extension's own choice when it made one (in its settings, or taken from the web).
  getCachedUserConfig: async () => {
    const [cached, language] = await Promise.all([loadPersisted(userConfigPersisted), loadPersisted(languagePersisted)]);
    return language ? { ...cached, language } : cached;
  },
  updatePromptPlugin: async () => {
    const version = await loadPersisted(promptPluginVersionPersisted);
    await writePersisted(promptPluginVersionPersisted, version + 1);
    return null;
  },
  // The page sends no count: the badge asks the server itself, with the extension's login (badge.ts).
  notificationsChanged: async () => {
    await refreshBadge();
    return null;
  },
};

async function run(type: ExtensionMessageType, data: unknown, sender: MessageSender, serverUrl: string): Promise<ExtensionReply<unknown>> {
  if (!isTrustedSender(sender, serverUrl)) {
    return replyError('forbiddenSender', `Only the Tandem bridge on ${originOf(serverUrl)} may send extension messages`);
  }
  const parsed = ExtensionMessageDataSchemas[type].safeParse(data);
  if (!parsed.success) return replyError('badPayload', `Invalid ${type} data: ${z.prettifyError(parsed.error)}`);
  try {
    const handler = handlers[type] as Handler<ExtensionMessageType>;
    return replyOk(await handler(parsed.data as never, sender));
  } catch (error) {
    console.error(`message ${type} failed`, error);
    return replyError('failed', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Checks and handles one message. Everything up to the handler's call runs in the caller's turn
 * when the server URL is known (see openSidePanelFor).
 */
export function handleExtensionMessage(type: string, data: unknown, sender: MessageSender): Promise<ExtensionReply<unknown>> {
  const known = ExtensionMessageTypeSchema.safeParse(type);
  if (!known.success) return Promise.resolve(replyError('unknownType', `Unknown message type ${JSON.stringify(type)}`));
  const serverUrl = knownServerUrl();
  if (serverUrl !== undefined) return run(known.data, data, sender, serverUrl);
  return loadServerUrl().then((url) => run(known.data, data, sender, url));
}

/** What the handlers (and the request helper, for the token) read. */
const readDeclarations = [tokenPersisted, userInfoPersisted, userConfigPersisted, promptPluginVersionPersisted, languagePersisted] as const;

/** Registers the background's one listener per message type. Returns the unregister. */
export function wireMessages(): () => void {
  // The storage cache is filled by the first read and then kept current only by watches: the side
  // panel or popup logs in and out in their own contexts, and a stale cache would answer
  // getLoginToken (or revoke on logout) with a token the extension no longer holds.
  const unwatch = readDeclarations.map((declaration) => watchPersisted(declaration as Persisted<unknown>, () => {}));
  const onMessage = extensionMessaging.onMessage as (
    type: ExtensionMessageType,
    cb: (message: { data: unknown; sender: MessageSender }) => Promise<ExtensionReply<unknown>>,
  ) => () => void;
  const removers = EXTENSION_MESSAGE_TYPES.map((type) =>
    onMessage(type, (message) => handleExtensionMessage(type, message.data, message.sender)),
  );
  return () => [...removers, ...unwatch].forEach((stop) => stop());
}
