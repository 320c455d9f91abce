import i18next from 'i18next';
import { browser } from 'wxt/browser';
import { getQuickFunctionTree } from '../../shared/api/quick-functions.ts';
import { tokenPersisted } from '../../shared/atoms/auth.ts';
import { promptPluginVersionPersisted } from '../../shared/atoms/user-config.ts';
import type { Language } from '../../shared/contracts/common.ts';
import type { QuickFunctionNode } from '../../shared/contracts/quick-function.ts';
import { detectLanguage, languagePersisted } from '../../shared/i18n/language.ts';
import { loadPersisted, peekPersisted, watchPersisted } from '../../shared/storage/active.ts';
import {
  MAX_TOOLBAR_TOOLS,
  SELECTION_TOOLS_KEY,
  SELECTION_TOOLS_VERSION,
  readSelectionTools,
  type SelectionTool,
  type SelectionTools,
} from '../../shared/utils/sider-settings.ts';
import { toolLabel } from '../../shared/utils/tool-label.ts';
import { loadServerUrl } from './server.ts';
import { coalesced } from './coalesced.ts';

/**
 * The selection toolbar's tools: the quick functions the user pinned that work on a selection, in
 * the menu tree's order. Groups are walked into (a pinned "Translate to English" inside the
 * "Translate to…" group counts); hidden items are not in the tree at all.
 */
export function pinnedSelectionTools(tree: readonly QuickFunctionNode[]): SelectionTool[] {
  const tools: SelectionTool[] = [];
  const walk = (nodes: readonly QuickFunctionNode[], group?: QuickFunctionNode) => {
    for (const node of nodes) {
      if (!node.isGroup && node.online && node.pinned && node.appliesTo.includes('selection')) {
        tools.push({ id: node.quickFunctionId, name: node.name, label: group ? toolLabel(group.name, node.name) : node.name, icon: node.icon });
      }
      walk(node.children, node.isGroup ? node : group);
    }
  };
  walk(tree);
  return tools.slice(0, MAX_TOOLBAR_TOOLS);
}

/** The language of the toolbar and menus: the user's choice, else the browser's. */
export async function toolLanguage(): Promise<Language> {
  return (await loadPersisted(languagePersisted)) ?? detectLanguage(navigator.languages ?? [navigator.language]);
}

let latest: SelectionTools = { language: 'en', tools: [] };

/** The tools as last fetched (the context menus are built from them). */
export function currentSelectionTools(): SelectionTools {
  return latest;
}

/** Puts i18next in the user's language: the request helper sends it as Accept-Language (the built-ins' names, the server's messages follow it). */
export async function applyToolLanguage(): Promise<Language> {
  const language = await toolLanguage();
  if (!i18next.isInitialized) await i18next.init({ lng: language, resources: {}, initImmediate: false } as never);
  else if (i18next.language !== language) await i18next.changeLanguage(language);
  return language;
}

async function fetchOnce(): Promise<SelectionTools> {
  await loadServerUrl();
  const language = await applyToolLanguage();
  try {
    return { language, tools: pinnedSelectionTools(await getQuickFunctionTree()) };
  } catch (error) {
    // The server is unreachable: the toolbar keeps the tools it had ("Ask" always works).
    console.warn('selection: fetching the quick functions failed', error);
    const stored = readSelectionTools((await browser.storage.local.get(SELECTION_TOOLS_KEY))[SELECTION_TOOLS_KEY]);
    return { language, tools: stored.tools };
  }
}

/**
 * Fetches the tree and stores the pinned tools for the content script (which reads storage, never
 * the server); calls while one runs make one more run after it. `onChange` rebuilds the menus.
 */
export const refreshSelectionTools = coalesced(async (onChange: (tools: SelectionTools) => void) => {
  const next = await fetchOnce();
  const changed = JSON.stringify(next) !== JSON.stringify(latest);
  latest = next;
  if (changed) await browser.storage.local.set({ [SELECTION_TOOLS_KEY]: { v: SELECTION_TOOLS_VERSION, value: next } });
  onChange(next);
});

/**
 * Refetches when the tools may have changed: at start, when the web app or an extension page
 * announced a change (promptPluginVersion, the updatePromptPlugin message), on login and logout,
 * and when the language changes (the built-ins' names do).
 */
export function watchSelectionTools(onChange: (tools: SelectionTools) => void): () => void {
  // A redundant refresh (the first read reported as a change) costs one request; a missed one, stale tools.
  const follow = <T>(declaration: Parameters<typeof watchPersisted<T>>[0]) => {
    let last: unknown = peekPersisted(declaration);
    return watchPersisted(declaration, (value) => {
      if (value === last) return;
      last = value;
      void refreshSelectionTools(onChange);
    });
  };
  const stops = [follow(promptPluginVersionPersisted), follow(tokenPersisted), follow(languagePersisted)];
  void refreshSelectionTools(onChange);
  return () => stops.forEach((stop) => stop());
}
