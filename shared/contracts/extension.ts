import { z } from 'zod';
import { UserInfoSchema, UserSettingSchema } from './user.ts';

/**
 * The public key in the extension's manifest. It fixes the extension id of unpacked builds (so the
 * server can allow its origin, and end-to-end tests know it) whatever folder the build is loaded from.
 * The store listing assigns its own id; add that id to EXTENSION_IDS on the server.
 */
export const EXTENSION_MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApjqw/S15HBqxKo9XYZ8GSpxmoJMxPEvKF3AeqC2LMNR4YJ8Y6DTaasSrXtZitOL6MrIGGAt0+/u0WMGErxsR9TTSxstcf+tTr26+Gpbr8m1EGFnOfKJEXE3u/TFZ2XelPTDpoWPfj0iy/Uy6AwmgGJ6qrDOEXodNwz2d2BJsPf4q298JYcGJ7GyPkWwtKA0uCEP1IKi3J6MTWRhKgNK2K+/47qGnD2cO5SF4f547JID4IdFMuRc7tz6LZuZV+nINvsMCJjOFaYAsOCrz/rOdQSsjSRqeEPtVlAljvwmx3IIXcXPEPZIzLPKJ+7gmiH6u7m+qTJEwFuX3pXBDNXdY0QIDAQAB';

/** The id Chromium derives from EXTENSION_MANIFEST_KEY. */
export const BUILT_IN_EXTENSION_ID = 'hhnidkcejghlkbldejpjheplacdjkpkf';

// ---------------------------------------------------------------------------------------------
// The extension message protocol: what the web page asks the
// extension through the bridge content script. Every payload and every answer has a schema here,
// because both ends treat what arrives as untrusted: the background validates payloads, the page
// validates answers and pushes.
// ---------------------------------------------------------------------------------------------

/** The eight messages (docs/architecture.md#the-web-page-and-the-extension). */
export const EXTENSION_MESSAGE_TYPES = [
  'syncLoginState',
  'getLoginToken',
  'openSidePanel',
  'logout',
  'webUpdatesUserSetting',
  'getCachedUserConfig',
  'updatePromptPlugin',
  /** The web app's unread notification count changed: the background refetches it for the toolbar badge. */
  'notificationsChanged',
] as const;
export const ExtensionMessageTypeSchema = z.enum(EXTENSION_MESSAGE_TYPES);
export type ExtensionMessageType = z.infer<typeof ExtensionMessageTypeSchema>;

/** A token as the API issues it; the bound keeps a hostile page from filling storage. */
const TokenSchema = z.string().min(1).max(4096);

/** The login state the web page and the extension exchange; token null means logged out. */
export const LoginStateSchema = z.strictObject({
  token: TokenSchema.nullable(),
  userInfo: UserInfoSchema.nullable(),
});
export type LoginState = z.infer<typeof LoginStateSchema>;

/** Messages without data: the data field is absent. */
const NoDataSchema = z.undefined();

export const ExtensionMessageDataSchemas = {
  syncLoginState: LoginStateSchema,
  getLoginToken: NoDataSchema,
  openSidePanel: NoDataSchema,
  logout: NoDataSchema,
  webUpdatesUserSetting: z.strictObject({ setting: UserSettingSchema }),
  getCachedUserConfig: NoDataSchema,
  updatePromptPlugin: NoDataSchema,
  notificationsChanged: NoDataSchema,
} as const satisfies Record<ExtensionMessageType, z.ZodType>;

export const ExtensionMessageResultSchemas = {
  syncLoginState: z.null(),
  /** What the extension holds; null when it is logged out. */
  getLoginToken: z.strictObject({ token: TokenSchema, userInfo: UserInfoSchema.nullable() }).nullable(),
  /** Best effort: Chrome opens the panel only within a user gesture, and may refuse. */
  openSidePanel: z.strictObject({ opened: z.boolean() }),
  logout: z.null(),
  webUpdatesUserSetting: z.null(),
  getCachedUserConfig: UserSettingSchema.nullable(),
  updatePromptPlugin: z.null(),
  notificationsChanged: z.null(),
} as const satisfies Record<ExtensionMessageType, z.ZodType>;

export type ExtensionMessageData<K extends ExtensionMessageType> = z.infer<(typeof ExtensionMessageDataSchemas)[K]>;
export type ExtensionMessageResult<K extends ExtensionMessageType> = z.infer<(typeof ExtensionMessageResultSchemas)[K]>;

/**
 * Why a message was not handled. unknownType, forbiddenSender and badPayload are refusals by the
 * background; failed is a handler that threw; unavailable means the extension could not be reached
 * (not installed, reloaded, bridge missing); timeout is the page giving up waiting.
 */
export const ExtensionErrorCodeSchema = z.enum(['unknownType', 'forbiddenSender', 'badPayload', 'failed', 'unavailable', 'timeout']);
export type ExtensionErrorCode = z.infer<typeof ExtensionErrorCodeSchema>;

export const ExtensionErrorSchema = z.strictObject({ code: ExtensionErrorCodeSchema, message: z.string().max(2000) });
export type ExtensionError = z.infer<typeof ExtensionErrorSchema>;

/** Every answer is a value, never a thrown error, so it crosses runtime messaging and postMessage alike. */
export type ExtensionReply<T> = { ok: true; result: T } | { ok: false; error: ExtensionError };

// Window messages between the web page and the bridge content script (same window, same origin).

export const PAGE_MESSAGE_SOURCE = 'tandem-page';
export const BRIDGE_MESSAGE_SOURCE = 'tandem-bridge';
/** Set on <html> by the bridge, so a page can see at once that the extension is there. */
export const BRIDGE_DATASET_FLAG = 'tandemBridge';
/** The page checks the bridge's readiness every 50 ms. */
export const BRIDGE_PING_INTERVAL_MS = 50;

const EnvelopeIdSchema = z.string().min(1).max(100);

/** Page -> bridge: one of the eight messages, answered by a reply with the same id. */
export const PageRequestSchema = z.object({
  source: z.literal(PAGE_MESSAGE_SOURCE),
  id: EnvelopeIdSchema,
  type: ExtensionMessageTypeSchema,
  data: z.unknown(),
});
export type PageRequest = z.infer<typeof PageRequestSchema>;

/** Page -> bridge: "are you there?", answered with ready. */
export const PagePingSchema = z.object({ source: z.literal(PAGE_MESSAGE_SOURCE), type: z.literal('ping') });

/** Bridge -> page. */
export const BridgeReadySchema = z.object({ source: z.literal(BRIDGE_MESSAGE_SOURCE), type: z.literal('ready') });
export const BridgeLoginStateSchema = z.object({
  source: z.literal(BRIDGE_MESSAGE_SOURCE),
  type: z.literal('loginState'),
  data: LoginStateSchema,
});
export const BridgeReplySchema = z.discriminatedUnion('ok', [
  z.object({ source: z.literal(BRIDGE_MESSAGE_SOURCE), id: EnvelopeIdSchema, ok: z.literal(true), result: z.unknown() }),
  z.object({ source: z.literal(BRIDGE_MESSAGE_SOURCE), id: EnvelopeIdSchema, ok: z.literal(false), error: ExtensionErrorSchema }),
]);
export type BridgeReply = z.infer<typeof BridgeReplySchema>;
