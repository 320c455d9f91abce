import { systemConfigPersisted, tokenPersisted, userInfoPersisted } from '../atoms/auth.ts';
import { chatModelPersisted, webSearchPersisted } from '../atoms/chat.ts';
import type { AddMessageBody } from '../contracts/chat.ts';
import type { PendingAction, PreparedMessage } from '../contracts/selection-action.ts';
import { browserLanguages, detectLanguage, languagePersisted } from '../i18n/language.ts';
import { loadPersisted, watchPersisted } from '../storage/active.ts';
import { resolveModel } from '../utils/default-model.ts';
import { getDriverId, visitorIdPersisted } from './driver-id.ts';
import { lastModelList, lastModelListPersisted } from './model-list-cache.ts';
import { callHeaders, JSON_PATCH_CONTENT_TYPE } from './request.ts';
import { settingValue } from './system.ts';

/**
 * A selection tool's AddMessage request to `server`, made from what is kept in storage as the chat
 * sends the tool's action in a side panel that has just opened (components/chat/chat-view.tsx): in a
 * new chat, to the model the picker shows from the last model list, web search when it is on and this
 * model and server have it, no plugins (their list has not come yet then). Undefined for a visitor, or
 * when no list is kept for this server, account and plan level: the panel then sends as it always
 * did. The background prepares it with the action; the side panel opened for it sends it from its
 * first script (early-message.ts).
 */
export async function prepareToolMessage(action: Extract<PendingAction, { kind: 'tool' }>, server: string): Promise<PreparedMessage | undefined> {
  const [token, userInfo, settings, chosen, webSearch, language] = await Promise.all([
    loadPersisted(tokenPersisted),
    loadPersisted(userInfoPersisted),
    loadPersisted(systemConfigPersisted),
    loadPersisted(chatModelPersisted),
    loadPersisted(webSearchPersisted),
    loadPersisted(languagePersisted),
    loadPersisted(lastModelListPersisted),
  ]);
  const model = token ? resolveModel(lastModelList(userInfo?.vipOrder?.vipPackageLevel ?? 0, server) ?? [], chosen) : undefined;
  if (!token || !model) return undefined;
  const headers = callHeaders(await getDriverId(), token, language ?? detectLanguage(browserLanguages()));
  headers.set('Content-Type', JSON_PATCH_CONTENT_TYPE);
  headers.set('Accept', 'text/event-stream');
  const body = {
    aiModelId: model.aiModelId,
    inputMessage: '',
    chatMediaIds: [],
    webSearch: webSearch && model.webSearch && !!settingValue(settings, 'web_search_provider'),
    pluginIds: [],
    quickFunctionId: action.quickFunctionId,
    selection: action.selection,
  } satisfies AddMessageBody;
  return { url: `${server}/api/Chat/AddMessage`, headers: Object.fromEntries(headers), body };
}

/**
 * Keeps what prepareToolMessage reads current where nothing else watches it (the background): a
 * stored value is otherwise read once per context. Returns the unsubscribe.
 */
export function followPreparedMessageSources(): () => void {
  const ignore = () => undefined;
  const stops = [
    watchPersisted(tokenPersisted, ignore),
    watchPersisted(userInfoPersisted, ignore),
    watchPersisted(systemConfigPersisted, ignore),
    watchPersisted(chatModelPersisted, ignore),
    watchPersisted(webSearchPersisted, ignore),
    watchPersisted(languagePersisted, ignore),
    watchPersisted(lastModelListPersisted, ignore),
    watchPersisted(visitorIdPersisted, ignore),
  ];
  return () => stops.forEach((stop) => stop());
}
