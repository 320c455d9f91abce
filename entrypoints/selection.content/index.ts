import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { defineContentScript } from 'wxt/utils/define-content-script';
import {
  MAX_SELECTION_TEXT,
  SELECTION_MESSAGE_SOURCE,
  SELECTION_TOOLS_KEY,
  MAX_TRANSLATE_TEXT,
  SIDER_SETTINGS_KEY,
  TRANSLATE_PREFS_KEY,
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
  type TranslateReply,
  type TranslateRequest,
} from '../../shared/utils/sider-settings.ts';
import { TRANSLATE_LANGUAGES, cardView, copyText, replaceSelection, showReply, toolTarget, type EditableSpot } from './card.ts';
import { isAlwaysTranslated, PAGE_TRANSLATOR_SOURCE } from '../../shared/utils/page-translate/protocol.ts';
import { stringsFor, type Strings } from './strings.ts';
import { watchTyping } from './typed.ts';
import { createHost, el, placeNear, showMenu, toolbarButtons } from './ui.ts';

/**
 * The selection toolbar and the floating sider icon, on every page (docs/architecture.md, "The
 * selection toolbar"). Plain DOM in one closed shadow root, no framework: this file is on every
 * page the user opens, so it stays a few KB (bench/bundle.ts --check holds it to 15 KB gzipped).
 * Nothing is drawn until there is a selection, except the icon when it is on.
 *
 * Decisions:
 * - For a selection inside an editable field (textarea, text input, contenteditable) the toolbar
 *   offers Translate only (its card can Replace the selection): the user is writing there, and
 *   pages' own editors put their toolbars in the same place. The context menu and the
 *   send-selection shortcut work there.
 * - Translate opens a card beside the selection (card.ts), not the side panel; the card's "Open in
 *   side panel" goes on in a chat. The background translates (content scripts cannot call the server).
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

/** TranslatePrefs (shared/contracts/translate.ts), the fields this script uses, read without zod. */
type Prefs = { targetLanguage: string | null; typedTrigger: string; typedLanguage: string };
type State = { settings: SiderSettings; tools: SelectionTools; s: Strings; language: 'en' | 'zh'; prefs: Prefs };

function storedPrefs(raw: unknown): Record<string, unknown> {
  const envelope = raw as { v?: unknown; value?: unknown } | undefined;
  return envelope?.v === 1 && typeof envelope.value === 'object' && envelope.value !== null ? (envelope.value as Record<string, unknown>) : {};
}

function readPrefs(raw: unknown): Prefs {
  const value = storedPrefs(raw);
  const known = (code: unknown) => (typeof code === 'string' && TRANSLATE_LANGUAGES.includes(code) ? code : null);
  return { targetLanguage: known(value.targetLanguage), typedTrigger: value.typedTrigger === 'triple-space' ? 'triple-space' : 'off', typedLanguage: known(value.typedLanguage) ?? 'en' };
}

/** The card's language choice, remembered in TranslatePrefs.targetLanguage (the other fields kept). */
async function saveTargetLanguage(targetLanguage: string): Promise<void> {
  const value = storedPrefs((await browser.storage.local.get(TRANSLATE_PREFS_KEY))[TRANSLATE_PREFS_KEY]);
  await browser.storage.local.set({ [TRANSLATE_PREFS_KEY]: { v: 1, value: { ...value, targetLanguage } } });
}

const FAILED: TranslateReply = { ok: false, reason: 'failed', message: '' };

/** Asks the background for a translation; a reloaded extension or no answer is a failure. */
async function requestTranslation(text: string, targetLanguage: string): Promise<TranslateReply> {
  const message: TranslateRequest = { source: SELECTION_MESSAGE_SOURCE, type: 'translate', text: text.slice(0, MAX_TRANSLATE_TEXT), targetLanguage };
  try {
    const reply = (await browser.runtime.sendMessage(message)) as TranslateReply | undefined;
    return reply && typeof reply.ok === 'boolean' ? reply : FAILED;
  } catch {
    return FAILED;
  }
}

/** The floating handle's "Translate page" (as the context menu's), or a site always translated opening. */
type PageMessage = { source: typeof PAGE_TRANSLATOR_SOURCE; type: 'toggle' | 'autoStart' };

function send(message: SelectionMessage | PageMessage): void {
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

type Found = { text: string; rect: DOMRect; spot?: EditableSpot };

/** Selected text of a focused textarea or text input (the page's selection does not show it). */
function fieldSelection(): Found | null {
  const field = document.activeElement;
  const isText = field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && (field.type === 'text' || field.type === 'search'));
  if (!isText || field.selectionStart === null || field.selectionEnd === null) return null;
  const text = field.value.slice(field.selectionStart, field.selectionEnd).trim();
  if (!text) return null;
  return { text: text.slice(0, MAX_SELECTION_TEXT), rect: field.getBoundingClientRect(), spot: { field, start: field.selectionStart, end: field.selectionEnd } };
}

/** The selection the toolbar would act on, or null (none, empty, in a field other than a text one). */
function currentSelection(): Found | null {
  const inField = fieldSelection();
  if (inField) return inField;
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const text = selection.toString().trim();
  if (!text) return null;
  const range = selection.getRangeAt(selection.rangeCount - 1);
  let spot: EditableSpot | undefined;
  if (isEditable(selection.anchorNode) || isEditable(selection.focusNode)) {
    const editable = (range.commonAncestorContainer instanceof Element ? range.commonAncestorContainer : range.commonAncestorContainer.parentElement)?.closest<HTMLElement>('[contenteditable]');
    if (!editable?.isContentEditable) return null;
    spot = { field: editable, range: range.cloneRange() };
  }
  const rect = range.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return null;
  return { text: text.slice(0, MAX_SELECTION_TEXT), rect, spot };
}

async function saveSettings(change: (current: SiderSettings) => SiderSettings): Promise<void> {
  const raw = (await browser.storage.local.get(SIDER_SETTINGS_KEY))[SIDER_SETTINGS_KEY];
  await browser.storage.local.set({ [SIDER_SETTINGS_KEY]: siderSettingsEnvelope(change(readSiderSettings(raw))) });
}

/**
 * The selection card's state: the selection it translates, the language, the translation (Copy and
 * Replace use it). A newer request (another language) or a closed card drops an answer on its way.
 */
function cardController(root: () => ShadowRoot, state: State) {
  let card: HTMLElement | null = null;
  let carded: { found: Found; translation: string | null; seq: number } | null = null;
  let seq = 0;
  const hide = () => {
    if (card) card.hidden = true;
    carded = null;
  };
  const open = async (found: Found, target: string) => {
    const mine = ++seq;
    carded = { found, translation: null, seq: mine };
    const kind = `${!!found.spot}:${state.language}`;
    if (card?.getAttribute('data-kind') !== kind) {
      card?.remove();
      card = root().appendChild(cardView(state.s, state.language, target, !!found.spot));
      card.setAttribute('data-kind', kind);
    }
    const shown = card;
    shown.querySelector('select')!.value = target;
    shown.hidden = false;
    showReply(shown, state.s, null, target);
    placeNear(shown, found.rect);
    const reply = await requestTranslation(found.text, target);
    if (carded?.seq !== mine || shown.hidden) return;
    carded.translation = reply.ok ? reply.text : null;
    showReply(shown, state.s, reply, target);
    placeNear(shown, found.rect);
  };
  return {
    isOpen: () => !!card && !card.hidden,
    hide,
    open: (found: Found, target: string) => void open(found, target),
    changeLanguage(target: string) {
      if (!carded) return;
      void saveTargetLanguage(target);
      void open(carded.found, target);
    },
    /** A click on one of the card's buttons: true when it was one. */
    onAction(action: string, button: Element): boolean {
      const current = carded;
      if (action === 'copy' && current?.translation) {
        copyText(current.translation);
        button.textContent = state.s.copied;
      } else if (action === 'replace' && current?.translation && current.found.spot) {
        hide();
        replaceSelection(current.found.spot, current.translation);
      } else if (action === 'panel' && current) {
        hide();
        send({ source: SELECTION_MESSAGE_SOURCE, type: 'ask', selection: { text: current.found.text, title: document.title.slice(0, 500), url: location.href.slice(0, 2000) } });
      } else if (action === 'signIn') {
        hide();
        send({ source: SELECTION_MESSAGE_SOURCE, type: 'openPanel' });
      } else if (action === 'closeCard') {
        hide();
      } else return false;
      return true;
    },
  };
}

/** The change a menu item of the toolbar or the icon makes to the settings. */
function settingChange(action: string, site: string): ((c: SiderSettings) => SiderSettings) | undefined {
  const changes: Record<string, (c: SiderSettings) => SiderSettings> = {
    toolbarOffSite: (c) => ({ ...c, toolbarOffSites: toggleSite(c.toolbarOffSites, site, true) }),
    toolbarOffAll: (c) => ({ ...c, toolbar: false }),
    iconOffSite: (c) => ({ ...c, iconOffSites: toggleSite(c.iconOffSites, site, true) }),
    iconOffAll: (c) => ({ ...c, floatingIcon: false }),
  };
  return changes[action];
}

function startSelectionUi(ctx: ContentScriptContext, state: State): { refresh(): void } {
  const site = siteOf(location.href);
  let shadow: { host: HTMLElement; root: ShadowRoot } | null = null;
  let bar: HTMLElement | null = null;
  let menu: HTMLElement | null = null;
  let icon: HTMLElement | null = null;
  let [shownText, shown]: [string, Found | null] = ['', null];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const root = () => {
    shadow ??= createHost(onClick, (language) => card.changeLanguage(language));
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
  const card = cardController(root, state);
  const hideAll = () => {
    hideBar();
    hideMenu();
    card.hide();
  };

  const showBar = () => {
    // An open card stays alone: the selection it translates is still there.
    if (card.isOpen()) return;
    const found = isToolbarOn(state.settings, site) ? currentSelection() : null;
    if (!found) return hideBar();
    if (!bar) {
      bar = el('div', { class: 'bar', role: 'toolbar', 'data-tandem': 'toolbar' });
      root().append(bar);
    }
    bar.setAttribute('aria-label', state.s.toolbar);
    bar.replaceChildren(...toolbarButtons(found.spot ? [] : state.tools.tools, state.s, !!found.spot));
    bar.hidden = false;
    hideMenu();
    placeNear(bar, found.rect);
    shownText = found.text;
    shown = found;
  };

  function onClick(event: Event) {
    if (!event.isTrusted) return;
    const button = (event.target as Element | null)?.closest?.('[data-action]');
    const action = button?.getAttribute('data-action');
    if (!button || !action) return;
    const selection = { text: shownText, title: document.title.slice(0, 500), url: location.href.slice(0, 2000) };
    const target = action === 'tool' ? toolTarget(button.getAttribute('data-tool') ?? '') : null;
    if ((action === 'translate' || target) && shown && shownText) {
      const found = shown;
      hideBar();
      card.open(found, target ?? state.prefs.targetLanguage ?? (state.language === 'zh' ? 'zh-Hans' : 'en'));
    } else if (card.onAction(action, button)) {
      // The card's own button.
    } else if (action === 'tool' && shownText) {
      const id = button.getAttribute('data-tool') ?? '';
      const tool = state.tools.tools.find((t) => t.id === id);
      if (tool) send({ source: SELECTION_MESSAGE_SOURCE, type: 'runTool', quickFunctionId: tool.id, name: tool.label, icon: tool.icon, selection });
      hideBar();
    } else if (action === 'ask' && shownText) {
      send({ source: SELECTION_MESSAGE_SOURCE, type: 'ask', selection });
      hideBar();
    } else if (action === 'open' || action === 'translatePage') {
      // The side panel; or the page translator, which the background injects as for the context menu's item.
      send(action === 'open' ? { source: SELECTION_MESSAGE_SOURCE, type: 'openPanel' } : { source: PAGE_TRANSLATOR_SOURCE, type: 'toggle' });
    } else if (action === 'more' || action === 'iconMenu') {
      menu ??= root().appendChild(el('div', { class: 'menu', role: 'menu' }));
      const items: [string, string][] =
        action === 'more'
          ? [['toolbarOffSite', state.s.toolbarOffSite], ['toolbarOffAll', state.s.toolbarOffAll]]
          : [['iconOffSite', state.s.iconOffSite], ['iconOffAll', state.s.iconOffAll]];
      menuOwner = action === 'more' ? 'bar' : 'icon';
      showMenu(menu, button.getBoundingClientRect(), items);
    } else {
      const change = settingChange(action, site);
      if (change) void saveSettings(change);
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
    labelIcon(icon, state.s);
    icon.style.top = `${Math.round(state.settings.iconTop * Math.max(0, window.innerHeight - 40))}px`;
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!ctx.isInvalid) showBar();
    }, SETTLE_MS);
  };
  wirePageEvents(ctx, { schedule, hideBar, hideAll, refreshIcon, host: () => shadow?.host ?? null });
  watchTyping(ctx, { prefs: () => state.prefs, strings: () => state.s, root, translate: requestTranslation });
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
    if (!window.getSelection()?.toString().trim() && !fieldSelection()) ui.hideBar();
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

/** The floating handle's words, in the app's language. */
function labelIcon(icon: HTMLElement, s: Strings): void {
  icon.setAttribute('aria-label', s.open);
  icon.title = s.open;
  icon.querySelector('.close')!.setAttribute('aria-label', s.hideMenu);
  icon.querySelector('.tp')!.textContent = s.translatePage;
}

/**
 * The floating handle: a small tab on the right edge (24 px of it shown, half transparent, until the
 * pointer is on it). A click opens the side panel; on hover it offers "Translate page" and its ×
 * (hide on this site or everywhere); dragging moves it along the edge (kept).
 */
function makeIcon(root: ShadowRoot, onMoved: (top: number) => void): HTMLElement {
  const close = el('button', { type: 'button', class: 'close', 'data-action': 'iconMenu' }, '×');
  const translate = el('button', { type: 'button', class: 'tp', 'data-action': 'translatePage' });
  const icon = el('div', { class: 'icon', role: 'button', tabindex: '0', 'data-action': 'open', 'data-tandem': 'icon' }, el('span', { class: 'logo' }, 'T'), translate, close);
  root.append(icon);
  let start: { y: number; top: number; id: number } | null = null;
  let dragged = false;
  icon.addEventListener('pointerdown', (event) => {
    if (event.target === close || event.target === translate || event.button !== 0) return;
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
    send({ source: PAGE_TRANSLATOR_SOURCE, type: 'autoStart' });
  }
  const rawTools = stored[SELECTION_TOOLS_KEY];
  const language = languageOf(rawTools);
  const state: State = {
    settings: readSiderSettings(stored[SIDER_SETTINGS_KEY]),
    tools: readSelectionTools(rawTools),
    s: stringsFor(language),
    language,
    prefs: readPrefs(stored[TRANSLATE_PREFS_KEY]),
  };
  const ui = startSelectionUi(ctx, state);
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    if (SIDER_SETTINGS_KEY in changes) state.settings = readSiderSettings(changes[SIDER_SETTINGS_KEY].newValue);
    if (SELECTION_TOOLS_KEY in changes) {
      state.tools = readSelectionTools(changes[SELECTION_TOOLS_KEY].newValue);
      state.language = languageOf(changes[SELECTION_TOOLS_KEY].newValue);
      state.s = stringsFor(state.language);
    }
    if (TRANSLATE_PREFS_KEY in changes) state.prefs = readPrefs(changes[TRANSLATE_PREFS_KEY].newValue);
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
