import type { SelectionTool } from '../../shared/utils/sider-settings.ts';
import type { Strings } from './strings.ts';
import { STYLES } from './styles.ts';

/** Small DOM helper: an element with attributes and children (text is set as text, never as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * The one host element of the toolbar and the icon, with a CLOSED shadow root: the page's scripts
 * get null from host.shadowRoot and cannot read the selection shown in it or click its buttons, and
 * the page's CSS cannot restyle it. The host itself is pinned with !important inline styles.
 */
export function createHost(onClick: (event: Event) => void, onLanguage: (language: string) => void): { host: HTMLElement; root: ShadowRoot } {
  const host = document.createElement('tandem-sider');
  for (const [name, value] of [
    ['all', 'initial'],
    ['position', 'fixed'],
    ['top', '0'],
    ['left', '0'],
    ['width', '0'],
    ['height', '0'],
    ['z-index', '2147483647'],
    ['display', 'block'],
    ['visibility', 'visible'],
    ['opacity', '1'],
  ]) {
    host.style.setProperty(name, value, 'important');
  }
  const root = host.attachShadow({ mode: 'closed' });
  root.append(el('style', {}, STYLES));
  // The card's language list must open (and take focus); nothing else may take the page's selection.
  root.addEventListener('mousedown', (event) => {
    if (!(event.target instanceof HTMLSelectElement)) event.preventDefault();
  });
  root.addEventListener('click', onClick);
  root.addEventListener('change', (event) => {
    if (event.target instanceof HTMLSelectElement) onLanguage(event.target.value);
  });
  (document.documentElement ?? document.body).append(host);
  return { host, root };
}

/** The toolbar's content: the pinned tools, Translate, "Ask", and the menu to turn it off; in an editable field, Translate only. */
export function toolbarButtons(tools: readonly SelectionTool[], s: Strings, inField = false): Node[] {
  const buttons: Node[] = [el('span', { class: 'brand', 'aria-hidden': 'true' }, 'T')];
  for (const tool of tools) {
    const label = tool.icon ? `${tool.icon} ${tool.name}` : tool.name;
    buttons.push(el('button', { type: 'button', 'data-action': 'tool', 'data-tool': tool.id, title: tool.label }, label));
  }
  buttons.push(el('button', { type: 'button', 'data-action': 'translate', title: s.translateTitle }, s.translate));
  if (inField) return buttons;
  buttons.push(el('button', { type: 'button', class: 'ask', 'data-action': 'ask', title: s.askTitle }, s.ask));
  buttons.push(el('span', { class: 'sep' }));
  buttons.push(el('button', { type: 'button', class: 'more', 'data-action': 'more', 'aria-label': s.more, title: s.more }, '⋯'));
  return buttons;
}

/** Places a fixed box near the selection: above it when there is room, else below; inside the window. */
export function placeNear(box: HTMLElement, rect: DOMRect): void {
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const margin = 8;
  let top = rect.top - height - margin;
  if (top < margin) top = Math.min(rect.bottom + margin, window.innerHeight - height - margin);
  const left = Math.min(Math.max(margin, rect.left + rect.width / 2 - width / 2), window.innerWidth - width - margin);
  box.style.top = `${Math.max(margin, top)}px`;
  box.style.left = `${Math.max(margin, left)}px`;
}

/** A small menu of actions, placed below `anchor` (kept in the window). */
export function showMenu(menu: HTMLElement, anchor: DOMRect, items: [string, string][]): void {
  menu.replaceChildren(...items.map(([action, label]) => el('button', { type: 'button', 'data-action': action }, label)));
  menu.hidden = false;
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  const left = Math.min(Math.max(8, anchor.right - width), window.innerWidth - width - 8);
  const top = anchor.bottom + 4 + height > window.innerHeight ? anchor.top - height - 4 : anchor.bottom + 4;
  menu.style.left = `${left}px`;
  menu.style.top = `${Math.max(8, top)}px`;
}
