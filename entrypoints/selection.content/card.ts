import type { TranslateReply } from '../../shared/utils/sider-settings.ts';
import type { Strings } from './strings.ts';
import { el } from './ui.ts';

/**
 * The selection card: a translation shown beside the selection, with its language, Copy, Replace
 * (in an editable field) and the way to the side panel. Plain DOM in the toolbar's shadow root; the
 * translation itself comes from the background (content scripts cannot call the server).
 */

/**
 * The languages a user can translate into: TRANSLATE_LANGUAGES of shared/contracts/translate.ts,
 * repeated here because that file brings zod, too big for a script on every page.
 */
export const TRANSLATE_LANGUAGES = 'en zh-Hans zh-Hant ja ko fr de es pt it ru ar he hi id vi th tr nl pl uk'.split(' ');

/** Where a selection inside an editable field sits, so Replace can put the translation in its place. */
export type EditableSpot = { field: HTMLInputElement | HTMLTextAreaElement; start: number; end: number } | { field: HTMLElement; range: Range };

/** The card's frame; its content is set by showReply. */
export function cardView(s: Strings, language: 'en' | 'zh', target: string, editable: boolean): HTMLElement {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language === 'zh' ? 'zh-Hans' : 'en'], { type: 'language' });
  } catch {
    // Without Intl.DisplayNames the codes are shown.
  }
  const select = el('select', { 'aria-label': s.translateInto, 'data-role': 'lang' }, ...TRANSLATE_LANGUAGES.map((code) => el('option', { value: code }, names?.of(code) ?? code)));
  select.value = target;
  const button = (action: string, label: string) => el('button', { type: 'button', 'data-action': action }, label);
  return el(
    'div',
    { class: 'card', role: 'dialog', 'aria-label': s.translate, 'data-tandem': 'card' },
    el('div', { class: 'head' }, el('span', { class: 'brand', 'aria-hidden': 'true' }, 'T'), s.translateInto, select, el('button', { type: 'button', class: 'x', 'data-action': 'closeCard', 'aria-label': s.close, title: s.close }, '×')),
    el('div', { class: 'out', 'data-role': 'out', 'aria-live': 'polite' }),
    el('div', { class: 'acts', 'data-role': 'acts' }, button('copy', s.copy), ...(editable ? [button('replace', s.replace)] : []), button('panel', s.openInPanel)),
  );
}

/** Shows the state of the card: loading (null), the translation, or why there is none. */
export function showReply(card: HTMLElement, s: Strings, reply: TranslateReply | null, target: string): void {
  const out = card.querySelector<HTMLElement>('[data-role="out"]')!;
  const acts = card.querySelector<HTMLElement>('[data-role="acts"]')!;
  out.removeAttribute('dir');
  out.className = 'out';
  // Open in side panel is offered whatever happened; Copy and Replace only with a translation.
  for (const button of acts.querySelectorAll<HTMLElement>('[data-action="copy"], [data-action="replace"]')) button.hidden = !reply?.ok;
  if (!reply) {
    out.classList.add('muted');
    out.replaceChildren(s.translating);
  } else if (reply.ok) {
    if (target === 'ar' || target === 'he') out.dir = 'rtl';
    out.setAttribute('data-state', 'done');
    out.replaceChildren(reply.text);
    return;
  } else if (reply.reason === 'signIn') {
    out.replaceChildren(el('div', {}, s.signInTip), el('button', { type: 'button', 'data-action': 'signIn' }, s.signIn));
  } else {
    out.classList.add('err');
    out.replaceChildren(reply.message || s.failed);
  }
  out.setAttribute('data-state', reply ? 'error' : 'loading');
}

/** Copies text: the clipboard API where the page is a secure context, else the copy command (inside the click). */
export function copyText(text: string): void {
  const fallback = () => {
    const onCopy = (event: ClipboardEvent) => {
      event.clipboardData?.setData('text/plain', text);
      event.preventDefault();
    };
    document.addEventListener('copy', onCopy, { once: true, capture: true });
    document.execCommand('copy');
    document.removeEventListener('copy', onCopy, { capture: true });
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).catch(fallback);
  else fallback();
}

/**
 * Puts `text` in place of the selection the card was opened for. insertText keeps the browser's
 * undo stack, so Ctrl+Z brings the original back; setRangeText (with an input event) where it fails.
 */
export function replaceSelection(spot: EditableSpot, text: string): void {
  spot.field.focus();
  if ('range' in spot) {
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(spot.range);
    document.execCommand('insertText', false, text);
    return;
  }
  spot.field.setSelectionRange(spot.start, spot.end);
  if (!document.execCommand('insertText', false, text)) {
    spot.field.setRangeText(text, spot.start, spot.end, 'end');
    spot.field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** The target language of a pinned "Translate to …" tool of the built-ins (qf-translate-en, -zh, ...), or null. */
export function toolTarget(toolId: string): string | null {
  const code = /^qf-translate-([a-z]{2})$/.exec(toolId)?.[1];
  if (!code) return null;
  const target = code === 'zh' ? 'zh-Hans' : code;
  return TRANSLATE_LANGUAGES.includes(target) ? target : null;
}
