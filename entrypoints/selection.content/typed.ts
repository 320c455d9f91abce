import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { TranslateReply } from '../../shared/utils/sider-settings.ts';
import type { Strings } from './strings.ts';
import { el } from './ui.ts';

/**
 * The typed-text trigger: with TranslatePrefs.typedTrigger 'triple-space', three spaces typed at the
 * end of a text field replace its text with the translation into TranslatePrefs.typedLanguage.
 *
 * Decisions:
 * - Only fields where prose is typed: textarea, input of type text or search, contenteditable.
 *   Passwords, e-mail addresses, numbers, URLs and the like are never sent anywhere.
 * - Only a real user's typing of a space counts (trusted insertText), with the caret at the end:
 *   a paste or a page's script does not set it off.
 * - The text is replaced with the browser's editing commands, which keep its undo stack: the three
 *   spaces are deleted first, then the rest replaced, so Ctrl+Z brings back what was typed before
 *   the trigger (without its spaces). When the field changed while the translation was on its way,
 *   the translation is dropped: the user's newer text wins.
 */

/** A field's text ending with three spaces (a contenteditable turns some of them into no-break spaces). */
const TRIGGER = /[ \u00a0]{3}$/;
/** How long a failure stays shown beside the field. */
const TIP_MS = 4000;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

/** The field the event was typed into, if it is one the trigger works in. */
function typedField(target: EventTarget | undefined): Field | null {
  if (target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLInputElement) return target.type === 'text' || target.type === 'search' ? target : null;
  if (target instanceof HTMLElement && target.isContentEditable) {
    let root: HTMLElement = target;
    while (root.parentElement?.isContentEditable) root = root.parentElement;
    return root;
  }
  return null;
}

const isControl = (field: Field): field is HTMLInputElement | HTMLTextAreaElement => field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement;
const textOf = (field: Field) => (isControl(field) ? field.value : field.innerText.replace(/\n$/, ''));

export interface TypedTriggerOptions {
  /** The trigger's setting and language, as last read from storage. */
  prefs(): { typedTrigger: string; typedLanguage: string };
  strings(): Strings;
  root(): ShadowRoot;
  translate(text: string, targetLanguage: string): Promise<TranslateReply>;
}

export function watchTyping(ctx: ContentScriptContext, options: TypedTriggerOptions): void {
  const busy = new WeakSet<Field>();
  ctx.addEventListener(
    document,
    'input',
    (event) => {
      const prefs = options.prefs();
      if (prefs.typedTrigger !== 'triple-space' || !event.isTrusted) return;
      const input = event as InputEvent;
      if (input.inputType !== 'insertText' || input.data !== ' ') return;
      const field = typedField(event.composedPath()[0]);
      if (!field || busy.has(field)) return;
      const value = textOf(field);
      if (!TRIGGER.test(value) || (isControl(field) && field.selectionEnd !== field.value.length)) return;
      const text = value.slice(0, -3);
      if (!text.trim()) return;
      busy.add(field);
      const badge = indicator(options.root(), field, options.strings().translating);
      void options.translate(text, prefs.typedLanguage).then((reply) => {
        busy.delete(field);
        if (ctx.isInvalid || textOf(field) !== value) return badge.remove();
        if (!reply.ok) {
          const s = options.strings();
          badge.classList.add('err');
          badge.replaceChildren(reply.reason === 'signIn' ? s.signInTip : reply.message || s.failed);
          setTimeout(() => badge.remove(), TIP_MS);
          return;
        }
        badge.remove();
        replaceAll(field, reply.text);
      });
    },
    { capture: true },
  );
}

/** The small busy mark in the field's bottom-right corner (in the shadow root: the page's field is left as it is). */
function indicator(root: ShadowRoot, field: Field, label: string): HTMLElement {
  const rect = field.getBoundingClientRect();
  const badge = el('div', { class: 'busy', role: 'status', 'data-tandem': 'typed-busy' }, el('span', { class: 'spin', 'aria-hidden': 'true' }), label);
  root.append(badge);
  badge.style.top = `${Math.max(4, Math.min(rect.bottom - badge.offsetHeight - 4, window.innerHeight - badge.offsetHeight - 4))}px`;
  badge.style.left = `${Math.max(4, Math.min(rect.right - badge.offsetWidth - 4, window.innerWidth - badge.offsetWidth - 4))}px`;
  return badge;
}

/**
 * Puts `text` in place of the field's whole text, in two edits the browser can undo: the trigger's
 * three spaces go first, then the rest is replaced. Ctrl+Z undoes the second: the field shows what
 * the user had before typing the trigger, exactly.
 */
function replaceAll(field: Field, text: string): void {
  field.focus();
  if (isControl(field)) {
    field.setSelectionRange(field.value.length - 3, field.value.length);
    document.execCommand('delete');
    field.select();
    if (!document.execCommand('insertText', false, text)) {
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    return;
  }
  const selection = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(field);
  range.collapse(false);
  selection?.removeAllRanges();
  selection?.addRange(range);
  for (let i = 0; i < 3; i += 1) selection?.modify('extend', 'backward', 'character');
  document.execCommand('delete');
  range.selectNodeContents(field);
  selection?.removeAllRanges();
  selection?.addRange(range);
  document.execCommand('insertText', false, text);
}
