import { browser, type Browser } from 'wxt/browser';
import { z } from 'zod';
import { followPreparedMessageSources, prepareToolMessage } from '../../shared/api/tool-message.ts';
import { ChatSelectionSchema } from '../../shared/contracts/quick-function.ts';
import type { PendingAction } from '../../shared/contracts/selection-action.ts';
import { queuePendingAction } from '../../shared/messaging/pending-action.ts';
import { MAX_SELECTION_TEXT, SELECTION_MESSAGE_SOURCE, type SelectionTools } from '../../shared/utils/sider-settings.ts';
import { currentSelectionTools, watchSelectionTools } from './selection-tools.ts';
import { handleTranslateMessage, isTranslateMessage } from './selection-translate.ts';
import { translateTab } from './page-translate.ts';
import { loadServerUrl } from './server.ts';

/** The command declared in wxt.config.ts (Alt+Shift+K; Alt+Shift+T is Chrome's own "focus the toolbar"): the page's selection goes to the panel's composer. */
export const SEND_SELECTION_COMMAND = 'send-selection';

/**
 * Opens the side panel of `windowId`. It MUST be called synchronously in the listener of the user's
 * gesture (a toolbar click relayed by the content script, a context menu click, a keyboard command),
 * before any await: Chrome opens the panel only while the gesture lasts, and refuses ("may only be
 * called in response to a user gesture") once the listener has awaited anything. Everything else
 * (storing the action for the panel) comes after.
 */
export function openPanelNow(windowId: number | undefined): void {
  if (windowId === undefined || typeof browser.sidePanel?.open !== 'function') return;
  try {
    browser.sidePanel.open({ windowId }).catch((error: unknown) => console.warn('sidePanel.open failed', error));
  } catch (error) {
    console.warn('sidePanel.open failed', error);
  }
}

/**
 * Leaves `action` for the side panel of `windowId`; a tool's with its message ready, so a panel opened
 * for it sends before its app has loaded (entrypoints/sidepanel-early.ts). What the message is made of
 * is kept current here (wireSelection), so it is ready well before the panel reads it.
 */
function queue(windowId: number | undefined, action: PendingAction): void {
  if (windowId === undefined) return;
  const prepared =
    action.kind === 'tool'
      ? loadServerUrl()
          .then((server) => prepareToolMessage(action, server))
          .catch((error: unknown) => void console.warn('selection: preparing the message failed', error))
      : Promise.resolve(undefined);
  prepared
    .then((send) => queuePendingAction(windowId, action, send ?? undefined))
    .catch((error: unknown) => console.error('selection: queueing the action failed', error));
}

// ---- the content script's messages --------------------------------------------------------

const SelectionMessageSchema = z.discriminatedUnion('type', [
  z.object({
    source: z.literal(SELECTION_MESSAGE_SOURCE),
    type: z.literal('runTool'),
    quickFunctionId: z.string().min(1).max(64),
    name: z.string().max(60),
    icon: z.string().max(32),
    selection: ChatSelectionSchema,
  }),
  z.object({ source: z.literal(SELECTION_MESSAGE_SOURCE), type: z.literal('ask'), selection: ChatSelectionSchema }),
  z.object({ source: z.literal(SELECTION_MESSAGE_SOURCE), type: z.literal('openPanel') }),
]);

/**
 * A message of the selection content script. It runs on every page, in the page's renderer: only
 * this extension's content script in a tab's top frame counts, and the payload is checked. Synchronous
 * up to openPanelNow (see there). Answers whether it was taken.
 */
export function handleSelectionMessage(message: unknown, sender: Browser.runtime.MessageSender): boolean {
  if (typeof message !== 'object' || message === null || (message as { source?: unknown }).source !== SELECTION_MESSAGE_SOURCE) return false;
  if (sender.id !== browser.runtime.id || sender.tab === undefined || (sender.frameId ?? 0) !== 0) return false;
  const parsed = SelectionMessageSchema.safeParse(message);
  if (!parsed.success) return false;
  const windowId = sender.tab.windowId;
  openPanelNow(windowId);
  const data = parsed.data;
  if (data.type === 'runTool') queue(windowId, { kind: 'tool', quickFunctionId: data.quickFunctionId, name: data.name, icon: data.icon, selection: data.selection });
  else if (data.type === 'ask') queue(windowId, { kind: 'ask', selection: data.selection });
  return true;
}

// ---- context menus --------------------------------------------------------------------------

export const MENU_ASK = 'tandem-ask';
export const MENU_TOOL_PREFIX = 'tandem-tool:';
export const MENU_PAGE_SUMMARIZE = 'tandem-page-summarize';
export const MENU_PAGE_CHAT = 'tandem-page-chat';
export const MENU_IMAGE = 'tandem-image';
export const MENU_PAGE_TRANSLATE = 'tandem-page-translate';

export interface MenuItem {
  id: string;
  title: string;
  contexts: ('selection' | 'page' | 'image')[];
}

const MENU_STRINGS = {
  en: { ask: 'Ask Tandem about “%s”', summarize: 'Summarize this page', chat: 'Chat about this page', image: 'Ask Tandem about this image', translate: 'Translate this page / show the original' },
  zh: { ask: '向 Tandem 提问“%s”', summarize: '总结此页面', chat: '就此页面聊天', image: '向 Tandem 询问这张图片', translate: '翻译此页面 / 显示原文' },
} as const;

/**
 * The context menu: on a selection "Ask Tandem" and the pinned tools, on a page summarize and chat,
 * on an image ask. Chrome shows several items of one extension under its name. Pure, so the menu
 * can be checked (and drawn) without a browser.
 */
export function menuDefinition({ language, tools }: SelectionTools): MenuItem[] {
  const s = MENU_STRINGS[language];
  return [
    { id: MENU_ASK, title: s.ask, contexts: ['selection'] },
    ...tools.map((tool) => ({ id: `${MENU_TOOL_PREFIX}${tool.id}`, title: tool.icon ? `${tool.icon} ${tool.label}` : tool.label, contexts: ['selection' as const] })),
    { id: MENU_PAGE_SUMMARIZE, title: s.summarize, contexts: ['page'] },
    { id: MENU_PAGE_CHAT, title: s.chat, contexts: ['page'] },
    { id: MENU_PAGE_TRANSLATE, title: s.translate, contexts: ['page'] },
    { id: MENU_IMAGE, title: s.image, contexts: ['image'] },
  ];
}

let menuItems: MenuItem[] = [];
let building: Promise<void> = Promise.resolve();

/** Replaces the extension's menu items (they outlive the worker, so a restart starts from removeAll). */
export function rebuildMenus(tools: SelectionTools): Promise<void> {
  const menus = (browser as { contextMenus?: typeof browser.contextMenus }).contextMenus;
  if (!menus) return Promise.resolve();
  const items = menuDefinition(tools);
  building = building.then(async () => {
    await menus.removeAll();
    for (const item of items) {
      await new Promise<void>((resolve) => {
        menus.create({ id: item.id, title: item.title, contexts: item.contexts as [MenuItem['contexts'][number]] }, () => {
          if (browser.runtime.lastError) console.warn('contextMenus.create failed', browser.runtime.lastError.message);
          resolve();
        });
      });
    }
    menuItems = items;
  });
  return building;
}

/** The whole selection of the frame (selectionText is cut and its line breaks are flattened), else the menu's. */
async function fullSelection(tabId: number | undefined, frameId: number | undefined, fallback: string): Promise<string> {
  if (tabId === undefined) return fallback;
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId, frameIds: [frameId ?? 0] },
      func: () => window.getSelection()?.toString() ?? '',
    });
    const text = typeof result?.result === 'string' ? result.result.trim() : '';
    return text || fallback;
  } catch {
    return fallback;
  }
}

function selectionOf(text: string, tab: Browser.tabs.Tab | undefined, pageUrl: string | undefined) {
  return { text: text.slice(0, MAX_SELECTION_TEXT), title: (tab?.title ?? '').slice(0, 500), url: (tab?.url ?? pageUrl ?? '').slice(0, 2000) };
}

/**
 * A click on one of the menu items. Opens the panel first, synchronously (contextMenus.onClicked
 * carries a user gesture), then leaves the action for it. Exposed to the end-to-end tests, which
 * cannot click a native menu (see wireSelection).
 */
export function handleMenuClick(info: Browser.contextMenus.OnClickData, tab: Browser.tabs.Tab | undefined): void {
  // Translating stays in the page: no side panel.
  if (String(info.menuItemId) === MENU_PAGE_TRANSLATE) return translateTab(tab?.id);
  const windowId = tab?.windowId;
  openPanelNow(windowId);
  const id = String(info.menuItemId);
  if (id === MENU_PAGE_SUMMARIZE || id === MENU_PAGE_CHAT) {
    if (tab?.id === undefined || !tab.url) return;
    const pageTab = { id: tab.id, windowId, url: tab.url, title: tab.title || tab.url, favIconUrl: tab.favIconUrl || undefined };
    queue(windowId, { kind: 'page', mode: id === MENU_PAGE_SUMMARIZE ? 'summarize' : 'chat', tab: pageTab });
    return;
  }
  if (id === MENU_IMAGE) {
    if (info.srcUrl) queue(windowId, { kind: 'image', srcUrl: info.srcUrl, pageUrl: info.pageUrl ?? tab?.url ?? '' });
    return;
  }
  const picked = info.selectionText?.trim();
  if (!picked) return;
  const tool = id.startsWith(MENU_TOOL_PREFIX) ? currentSelectionTools().tools.find((t) => `${MENU_TOOL_PREFIX}${t.id}` === id) : undefined;
  if (id !== MENU_ASK && !tool) return;
  void fullSelection(tab?.id, info.frameId, picked).then((text) => {
    const selection = selectionOf(text, tab, info.pageUrl);
    queue(windowId, tool ? { kind: 'tool', quickFunctionId: tool.id, name: tool.label, icon: tool.icon, selection } : { kind: 'ask', selection });
  });
}

/** The send-selection shortcut: the panel opens at once, then the tab's selection (if any) goes to its composer. */
export function handleSendSelectionCommand(tab: Browser.tabs.Tab | undefined): void {
  openPanelNow(tab?.windowId);
  if (tab?.id === undefined) return;
  void fullSelection(tab.id, 0, '').then((text) => {
    if (text) queue(tab.windowId, { kind: 'ask', selection: selectionOf(text, tab, tab.url) });
  });
}

/** What the end-to-end tests reach through the service worker (a native menu cannot be clicked). */
export interface SelectionTestHooks {
  menuItems(): MenuItem[];
  clickMenu(info: Browser.contextMenus.OnClickData, tab: Browser.tabs.Tab | undefined): void;
  tools(): SelectionTools;
}

/**
 * The selection toolbar's side in the background: its messages, the context menus (rebuilt
 * whenever the tools change), the send-selection shortcut. Listeners are added in the worker's
 * first turn, as MV3 requires for events to wake it.
 */
export function wireSelection(): void {
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // A translation is answered later: true keeps the channel open for it.
    if (isTranslateMessage(message)) return handleTranslateMessage(message, sender, sendResponse) || undefined;
    handleSelectionMessage(message, sender);
    // Nothing is answered: the content script does not wait (and the other listener answers its own messages).
    return undefined;
  });
  browser.contextMenus?.onClicked.addListener((info, tab) => handleMenuClick(info, tab));
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === SEND_SELECTION_COMMAND) handleSendSelectionCommand(tab);
  });
  watchSelectionTools((tools) => void rebuildMenus(tools));
  followPreparedMessageSources();
  (globalThis as { tandemSelection?: SelectionTestHooks }).tandemSelection = {
    menuItems: () => menuItems,
    clickMenu: handleMenuClick,
    tools: currentSelectionTools,
  };
}
