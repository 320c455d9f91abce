import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { defineContentScript } from 'wxt/utils/define-content-script';
import {
  MAX_SELECTION_TEXT,
  SELECTION_MESSAGE_SOURCE,
  SELECTION_TOOLS_KEY,
  SIDER_SETTINGS_KEY,
  isIconOn,
  isToolbarOn,
  readSelectionTools,
  readSiderSettings,
  siderSettingsEnvelope,
  siteOf,
  toggleSite,
  type SelectionMessage,
  type SelectionTools,
  type SiderSettings,
} from '../../shared/utils/sider-settings.ts';
import { isAlwaysTranslated, PAGE_TRANSLATOR_SOURCE, TRANSLATE_PREFS_KEY } from '../../shared/utils/page-translate/protocol.ts';
import { stringsFor, type Strings } from './strings.ts';
import { createHost, el, placeNear, showMenu, toolbarButtons } from './ui.ts';

/**
 * The selection toolbar and the floating sider icon, on every page (docs/architecture.md, "The
 * selection toolbar"). Plain DOM in one closed shadow root, no framework: this file is on every
 * page the user opens, so it stays a few KB (bench/bundle.ts --check holds it to 15 KB gzipped).
 * Nothing is drawn until there is a selection, except the icon when it is on.
 *
 * Decisions:
 * - No toolbar for a selection inside an editable field (input, textarea, contenteditable): the
 *   user is writing there, and pages' own editors put their toolbars in the same place. The context
 *   menu and the send-selection shortcut work there.
 * - The toolbar never takes focus: its mousedown is cancelled, so the page's selection and focused
 *   field stay as they were.
 * - Clicks count only when trusted (a real user's): a page cannot reach into the closed root, and
 *   cannot fake a click on the host either.
 * - Top frame only: one toolbar per tab, placed in the window's coordinates.
 */

/** After the last selectionchange, how long the selection must hold before the toolbar shows. */
const SETTLE_MS = 180;
/** shared/platform/server-url.ts serverUrlPersisted's key. */
const SERVER_URL_KEY = 'tandem.serverUrl';
/** Movement beyond which a press on the icon is a drag, not a click. */
const DRAG_THRESHOLD_PX = 4;

type State = { settings: SiderSettings; tools: SelectionTools; s: Strings };

function send(message: SelectionMessage): void {
  // Sent inside the click's task: the background opens the side panel within the user's gesture.
  // Nothing is answered; a reloaded extension (this script orphaned) throws or rejects: ignored.
  try {
    browser.runtime.sendMessage(message).catch(() => undefined);
  } catch {
    // The extension was reloaded under this page: nothing to do until the page is reloaded.
  }
}

function isEditable(node: Node | null): boolean {
  const element = node instanceof Element ? node : node?.parentElement;
  if (!element) return false;
  if (element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]')) return true;
  const active = document.activeElement;
  return (active instanceof HTMLElement && active.isContentEditable) || active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
}

/** The selection the toolbar would act on, or null (none, empty, in an editable field). */
function currentSelection(): { text: string; rect: DOMRect } | null {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const text = selection.toString().trim();
  if (!text || isEditable(selection.anchorNode) || isEditable(selection.focusNode)) return null;
  const rect = selection.getRangeAt(selection.rangeCount - 1).getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return null;
  return { text: text.slice(0, MAX_SELECTION_TEXT), rect };
}

async function saveSettings(change: (current: SiderSettings) => SiderSettings): Promise<void> {
  const raw = (await browser.storage.local.get(SIDER_SETTINGS_KEY))[SIDER_SETTINGS_KEY];
  await browser.storage.local.set({ [SIDER_SETTINGS_KEY]: siderSettingsEnvelope(change(readSiderSettings(raw))) });
}

function startSelectionUi(ctx: ContentScriptContext, state: State): { refresh(): void } {
  const site = siteOf(location.href);
  let shadow: { host: HTMLElement; root: ShadowRoot } | null = null;
  let bar: HTMLElement | null = null;
  let menu: HTMLElement | null = null;
  let icon: HTMLElement | null = null;
  let shownText = '';
  let timer: ReturnType<typeof setTimeout> | undefined;

  const root = () => {
    if (!shadow) {
      shadow = createHost();
      shadow.root.addEventListener('mousedown', (event) => event.preventDefault());
      shadow.root.addEventListener('click', onClick);
    }
    return shadow.root;
  };
  // The one small menu belongs to the toolbar ("⋯") or to the icon ("×"): a new selection closes only the toolbar's.
  let menuOwner: 'bar' | 'icon' = 'bar';
  const hideMenu = () => {
    if (menu) menu.hidden = true;
  };
  const hideBar = () => {
    if (bar) bar.hidden = true;
    if (menuOwner === 'bar') hideMenu();
    shownText = '';
  };
  const hideAll = () => {
    hideBar();
    hideMenu();
  };

  const showBar = () => {
    const found = isToolbarOn(state.settings, site) ? currentSelection() : null;
    if (!found) return hideBar();
    if (!bar) {
      bar = el('div', { class: 'bar', role: 'toolbar', 'data-tandem': 'toolbar' });
      root().append(bar);
    }
    bar.setAttribute('aria-label', state.s.toolbar);
    bar.replaceChildren(...toolbarButtons(state.tools.tools, state.s));
    bar.hidden = false;
    hideMenu();
    placeNear(bar, found.rect);
    shownText = found.text;
  };

  function onClick(event: Event) {
    if (!event.isTrusted) return;
    const button = (event.target as Element | null)?.closest?.('[data-action]');
    const action = button?.getAttribute('data-action');
    if (!button || !action) return;
    const selection = { text: shownText, title: document.title.slice(0, 500), url: location.href.slice(0, 2000) };
    if (action === 'tool' && shownText) {
      const id = button.getAttribute('data-tool') ?? '';
      const tool = state.tools.tools.find((t) => t.id === id);
      if (tool) send({ source: SELECTION_MESSAGE_SOURCE, type: 'runTool', quickFunctionId: tool.id, name: tool.label, icon: tool.icon, selection });
      hideBar();
    } else if (action === 'ask' && shownText) {
      send({ source: SELECTION_MESSAGE_SOURCE, type: 'ask', selection });
      hideBar();
    } else if (action === 'open') {
      send({ source: SELECTION_MESSAGE_SOURCE, type: 'openPanel' });
    } else if (action === 'more' || action === 'iconMenu') {
      menu ??= root().appendChild(el('div', { class: 'menu', role: 'menu' }));
      const items: [string, string][] =
        action === 'more'
          ? [['toolbarOffSite', state.s.toolbarOffSite], ['toolbarOffAll', state.s.toolbarOffAll]]
          : [['iconOffSite', state.s.iconOffSite], ['iconOffAll', state.s.iconOffAll]];
      menuOwner = action === 'more' ? 'bar' : 'icon';
      showMenu(menu, button.getBoundingClientRect(), items);
    } else {
      const changes: Record<string, (c: SiderSettings) => SiderSettings> = {
        toolbarOffSite: (c) => ({ ...c, toolbarOffSites: toggleSite(c.toolbarOffSites, site, true) }),
        toolbarOffAll: (c) => ({ ...c, toolbar: false }),
        iconOffSite: (c) => ({ ...c, iconOffSites: toggleSite(c.iconOffSites, site, true) }),
        iconOffAll: (c) => ({ ...c, floatingIcon: false }),
      };
      if (changes[action]) void saveSettings(changes[action]);
      hideAll();
    }
  }

  const refreshIcon = () => {
    const on = isIconOn(state.settings, site) && !!site;
    if (!on) {
      if (icon) icon.hidden = true;
      return;
    }
    if (!icon) icon = makeIcon(root(), (top) => void saveSettings((c) => ({ ...c, iconTop: top })));
    icon.hidden = false;
    icon.setAttribute('aria-label', state.s.open);
    icon.title = state.s.open;
    icon.querySelector('.close')?.setAttribute('aria-label', state.s.hideMenu);
    icon.style.top = `${Math.round(state.settings.iconTop * Math.max(0, window.innerHeight - 40))}px`;
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!ctx.isInvalid) showBar();
    }, SETTLE_MS);
  };
  wirePageEvents(ctx, { schedule, hideBar, hideAll, refreshIcon, host: () => shadow?.host ?? null });
  ctx.onInvalidated(() => {
    clearTimeout(timer);
    (shadow as { host: HTMLElement } | null)?.host.remove();
  });
  refreshIcon();
  return {
    refresh() {
      refreshIcon();
      if (bar && !bar.hidden) showBar();
    },
  };
}

/** The page's events that show, move away or hide the toolbar. */
function wirePageEvents(
  ctx: ContentScriptContext,
  ui: { schedule(): void; hideBar(): void; hideAll(): void; refreshIcon(): void; host(): HTMLElement | null },
): void {
  const inside = (event: Event) => {
    const host = ui.host();
    return !!host && event.composedPath().includes(host);
  };
  ctx.addEventListener(document, 'selectionchange', () => {
    if (!window.getSelection()?.toString().trim()) ui.hideBar();
    else ui.schedule();
  });
  ctx.addEventListener(document, 'mouseup', (event) => {
    if (!inside(event)) ui.schedule();
  });
  ctx.addEventListener(document, 'keyup', (event) => {
    if (event.shiftKey || event.key === 'Shift') ui.schedule();
  });
  ctx.addEventListener(document, 'keydown', (event) => {
    if (event.key === 'Escape') ui.hideAll();
  });
  ctx.addEventListener(window, 'scroll', () => ui.hideAll(), { capture: true, passive: true });
  ctx.addEventListener(window, 'resize', () => {
    ui.hideAll();
    ui.refreshIcon();
  });
  ctx.addEventListener(document, 'mousedown', (event) => {
    if (!inside(event)) ui.hideAll();
  });
}

/** The floating icon: a click opens the side panel; dragging moves it along the right edge (kept). */
function makeIcon(root: ShadowRoot, onMoved: (top: number) => void): HTMLElement {
  const close = el('button', { type: 'button', class: 'close', 'data-action': 'iconMenu' }, '×');
  const icon = el('div', { class: 'icon', role: 'button', tabindex: '0', 'data-action': 'open', 'data-tandem': 'icon' }, el('span', { class: 'logo' }, 'T'), close);
  root.append(icon);
  let start: { y: number; top: number; id: number } | null = null;
  let dragged = false;
  icon.addEventListener('pointerdown', (event) => {
    if (event.target === close || event.button !== 0) return;
    start = { y: event.clientY, top: icon.offsetTop, id: event.pointerId };
    dragged = false;
    // Captured at once: a quick drag leaves the 40-px icon before its first move arrives.
    icon.setPointerCapture(event.pointerId);
  });
  icon.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dy = event.clientY - start.y;
    if (!dragged && Math.abs(dy) < DRAG_THRESHOLD_PX) return;
    dragged = true;
    icon.classList.add('dragging');
    const top = Math.min(Math.max(0, start.top + dy), window.innerHeight - icon.offsetHeight);
    icon.style.top = `${top}px`;
  });
  const end = () => {
    if (start && dragged) onMoved(Math.min(1, Math.max(0, icon.offsetTop / Math.max(1, window.innerHeight - icon.offsetHeight))));
    start = null;
    icon.classList.remove('dragging');
  };
  icon.addEventListener('pointerup', end);
  icon.addEventListener('pointercancel', end);
  // A drag ends with a click on the icon: it must not open the panel.
  icon.addEventListener(
    'click',
    (event) => {
      if (dragged) {
        event.stopPropagation();
        dragged = false;
      }
    },
    { capture: true },
  );
  icon.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') send({ source: SELECTION_MESSAGE_SOURCE, type: 'openPanel' });
  });
  return icon;
}

/** The background writes the tools with the user's language; before it has, the browser's. */
function languageOf(raw: unknown): 'en' | 'zh' {
  if (raw !== undefined) return readSelectionTools(raw).language;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The build's server (as shared/platform/server-url.ts, which this script cannot import: it brings zod). */
const BUILD_SERVER = import.meta.env.WXT_SERVER_URL ?? 'http://localhost:3000';

/** The Tandem web app itself (the chosen server's pages) gets neither: it is Tandem already. */
function isTandemPage(storedServer: unknown): boolean {
  const chosen = (storedServer as { v?: unknown; value?: unknown } | undefined)?.value;
  try {
    return new URL(typeof chosen === 'string' ? chosen : BUILD_SERVER).origin === location.origin;
  } catch {
    return false;
  }
}

async function start(ctx: ContentScriptContext): Promise<void> {
  const stored = await browser.storage.local.get([SIDER_SETTINGS_KEY, SELECTION_TOOLS_KEY, SERVER_URL_KEY, TRANSLATE_PREFS_KEY]);
  if (ctx.isInvalid || isTandemPage(stored[SERVER_URL_KEY])) return;
  // A site the user always translates: the background injects the page translator (not part of this script).
  if (window === window.top && isAlwaysTranslated(stored[TRANSLATE_PREFS_KEY], location.host.toLowerCase())) {
    try {
      browser.runtime.sendMessage({ source: PAGE_TRANSLATOR_SOURCE, type: 'autoStart' }).catch(() => undefined);
    } catch {
      // The extension was reloaded under this page.
    }
  }
  const rawTools = stored[SELECTION_TOOLS_KEY];
  const state: State = { settings: readSiderSettings(stored[SIDER_SETTINGS_KEY]), tools: readSelectionTools(rawTools), s: stringsFor(languageOf(rawTools)) };
  const ui = startSelectionUi(ctx, state);
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    if (SIDER_SETTINGS_KEY in changes) state.settings = readSiderSettings(changes[SIDER_SETTINGS_KEY].newValue);
    if (SELECTION_TOOLS_KEY in changes) {
      state.tools = readSelectionTools(changes[SELECTION_TOOLS_KEY].newValue);
      state.s = stringsFor(languageOf(changes[SELECTION_TOOLS_KEY].newValue));
    }
    if (SIDER_SETTINGS_KEY in changes || SELECTION_TOOLS_KEY in changes) ui.refresh();
  };
  browser.storage.onChanged.addListener(onChanged);
  ctx.onInvalidated(() => browser.storage.onChanged.removeListener(onChanged));
}

export default defineContentScript({
  matches: ['<all_urls>'],
  runAt: 'document_idle',
  main(ctx) {
    void start(ctx);
  },
});
