/**
 * The selection toolbar and the floating sider icon (the content script on every page,
 * entrypoints/selection.content/), as the content script, the background and /sider_setting share
 * them. No zod and no imports here: the content script runs on every page and must stay a few KB,
 * so what it reads from storage is checked by hand (`readSiderSettings`, `readSelectionTools`).
 */

/** extension storage.local keys, with the same `{ v, value }` envelope as shared/storage/persisted.ts. */
export const SIDER_SETTINGS_KEY = 'tandem.siderSettings';
/** Written by the background: the pinned tools of the toolbar, in the user's language. */
export const SELECTION_TOOLS_KEY = 'tandem.selectionTools';
export const SIDER_SETTINGS_VERSION = 1;
export const SELECTION_TOOLS_VERSION = 1;

/** At most this many sites in each "turned off here" list (the oldest go first). */
export const MAX_OFF_SITES = 200;
/** At most this many pinned tools on the toolbar; the rest are in the side panel and the menu. */
export const MAX_TOOLBAR_TOOLS = 6;

export interface SiderSettings {
  /** The selection toolbar, everywhere. */
  toolbar: boolean;
  /** The floating icon at the page's right edge, everywhere. */
  floatingIcon: boolean;
  /** Hosts (`example.com`, `localhost:3000`) where the toolbar stays off. */
  toolbarOffSites: string[];
  /** Hosts where the floating icon stays off. */
  iconOffSites: string[];
  /** The icon's vertical position, as a fraction of the window's height (0 top, 1 bottom). */
  iconTop: number;
}

export const DEFAULT_SIDER_SETTINGS: SiderSettings = Object.freeze({
  toolbar: true,
  floatingIcon: true,
  toolbarOffSites: [],
  iconOffSites: [],
  iconTop: 0.6,
}) as SiderSettings;

/** One toolbar tool: a quick function the user pinned (built-in or own). */
export interface SelectionTool {
  id: string;
  /** The toolbar button's short name ("Chinese (Simplified)"). */
  name: string;
  /** The name with its group's verb ("Translate to Chinese (Simplified)": toolLabel), as the chat, tooltips and menus say it. */
  label: string;
  /** A short emoji or icon name ('' for none). */
  icon: string;
}

export interface SelectionTools {
  language: 'en' | 'zh';
  tools: SelectionTool[];
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((s) => typeof s === 'string');

/** The stored settings with defaults for what is missing or invalid (an older build, another tool). */
export function normalizeSiderSettings(value: unknown): SiderSettings {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof SiderSettings, unknown>>;
  const d = DEFAULT_SIDER_SETTINGS;
  const top = typeof v.iconTop === 'number' && Number.isFinite(v.iconTop) ? Math.min(1, Math.max(0, v.iconTop)) : d.iconTop;
  return {
    toolbar: typeof v.toolbar === 'boolean' ? v.toolbar : d.toolbar,
    floatingIcon: typeof v.floatingIcon === 'boolean' ? v.floatingIcon : d.floatingIcon,
    toolbarOffSites: isStringArray(v.toolbarOffSites) ? v.toolbarOffSites.slice(-MAX_OFF_SITES) : [],
    iconOffSites: isStringArray(v.iconOffSites) ? v.iconOffSites.slice(-MAX_OFF_SITES) : [],
    iconTop: top,
  };
}

/** Reads the settings from their stored envelope. */
export function readSiderSettings(raw: unknown): SiderSettings {
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== SIDER_SETTINGS_VERSION) return { ...DEFAULT_SIDER_SETTINGS };
  return normalizeSiderSettings((raw as { value?: unknown }).value);
}

export function siderSettingsEnvelope(settings: SiderSettings): { v: number; value: SiderSettings } {
  return { v: SIDER_SETTINGS_VERSION, value: settings };
}

/** Reads the toolbar's tools from their stored envelope; none when absent or invalid. */
export function readSelectionTools(raw: unknown): SelectionTools {
  const empty: SelectionTools = { language: 'en', tools: [] };
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== SELECTION_TOOLS_VERSION) return empty;
  const value = (raw as { value?: unknown }).value as Partial<SelectionTools> | undefined;
  if (!value || !Array.isArray(value.tools)) return empty;
  const tools = value.tools
    .filter((t): t is SelectionTool => typeof t?.id === 'string' && typeof t.name === 'string' && typeof t.icon === 'string')
    .slice(0, MAX_TOOLBAR_TOOLS)
    // An older build stored no label: the name stands for it until the next fetch.
    .map((t) => ({ id: t.id.slice(0, 64), name: t.name.slice(0, 60), label: (typeof t.label === 'string' ? t.label : t.name).slice(0, 60), icon: t.icon.slice(0, 32) }));
  return { language: value.language === 'zh' ? 'zh' : 'en', tools };
}

/** The site key of an address: its host (with the port), lower case; '' for pages without one. */
export function siteOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** The list with `site` added (at the end, once) or removed. */
export function toggleSite(list: readonly string[], site: string, off: boolean): string[] {
  const rest = list.filter((s) => s !== site);
  return off && site ? [...rest, site].slice(-MAX_OFF_SITES) : rest;
}

export const isToolbarOn = (s: SiderSettings, site: string) => s.toolbar && !s.toolbarOffSites.includes(site);
export const isIconOn = (s: SiderSettings, site: string) => s.floatingIcon && !s.iconOffSites.includes(site);

// Messages of the content script to the background (entrypoints/background/selection.ts checks them).

/** Marks the content script's runtime messages (they carry no `timestamp`, so @webext-core/messaging ignores them). */
export const SELECTION_MESSAGE_SOURCE = 'tandem-selection';

export type SelectionMessage =
  | { source: typeof SELECTION_MESSAGE_SOURCE; type: 'runTool'; quickFunctionId: string; name: string; icon: string; selection: PageSelection }
  | { source: typeof SELECTION_MESSAGE_SOURCE; type: 'ask'; selection: PageSelection }
  | { source: typeof SELECTION_MESSAGE_SOURCE; type: 'openPanel' };

/**
 * The selection card's and the typed-text trigger's request: the background translates `text` into
 * `targetLanguage` (POST /api/System/TransText) and answers a TranslateReply.
 */
export interface TranslateRequest {
  source: typeof SELECTION_MESSAGE_SOURCE;
  type: 'translate';
  text: string;
  targetLanguage: string;
}

/** The answer to a TranslateRequest: the translation, or why not (signIn: not signed in; points: the server's message). */
export type TranslateReply = { ok: true; text: string } | { ok: false; reason: 'signIn' | 'points' | 'failed'; message: string };

/** The longest text the card or the trigger sends (TRANSLATE_MAX_TOTAL_CHARS in shared/contracts/translate.ts). */
export const MAX_TRANSLATE_TEXT = 12_000;

/** shared/storage/translate-prefs.ts's key (the content script reads it without zod). */
export const TRANSLATE_PREFS_KEY = 'tandem.translate.prefs';

/** Selected text with its page. */
export interface PageSelection {
  text: string;
  title: string;
  url: string;
}

/** The longest selection sent (the server's limit, MAX_SELECTION_CHARS in shared/contracts/quick-function.ts). */
export const MAX_SELECTION_TEXT = 32_000;
