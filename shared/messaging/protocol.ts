import { defineExtensionMessaging } from '@webext-core/messaging';
import type {
  ExtensionErrorCode,
  ExtensionMessageData,
  ExtensionMessageResult,
  ExtensionMessageType,
  ExtensionReply,
} from '../contracts/extension.ts';

/**
 * The extension message protocol: the eight messages the bridge content script forwards
 * to the background. Every message answers an ExtensionReply value: refusals and failures travel
 * as values, so the bridge can pass them on to the page as they are.
 *
 * Extension-only: @webext-core/messaging uses the global `chrome` when a message is sent or a
 * listener added (never at import). The web page uses page-bridge.ts instead.
 */
export type ExtensionProtocol = {
  [K in ExtensionMessageType]: (data: ExtensionMessageData<K>) => ExtensionReply<ExtensionMessageResult<K>>;
};

/**
 * The one messenger. @webext-core/messaging allows one listener per message type in a JS context:
 * the background registers them all in one place (entrypoints/background/messages.ts).
 */
export const extensionMessaging = defineExtensionMessaging<ExtensionProtocol>();

export function replyOk<T>(result: T): ExtensionReply<T> {
  return { ok: true, result };
}

export function replyError(code: ExtensionErrorCode, message: string): ExtensionReply<never> {
  return { ok: false, error: { code, message } };
}

/**
 * Sends a message of a type checked at run time, with data as received (the bridge relays what the
 * page sent; the background validates it). A transport failure (no background, extension reloaded
 * under this content script) becomes an `unavailable` reply.
 */
export async function relayExtensionMessage(type: ExtensionMessageType, data: unknown): Promise<ExtensionReply<unknown>> {
  try {
    const send = extensionMessaging.sendMessage as (type: ExtensionMessageType, data: unknown) => Promise<unknown>;
    const reply = await send(type, data);
    if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
      return replyError('unavailable', 'The extension gave no answer');
    }
    return reply as ExtensionReply<unknown>;
  } catch (error) {
    return replyError('unavailable', error instanceof Error ? error.message : String(error));
  }
}
