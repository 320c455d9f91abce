import type { PageStrings } from './strings.ts';

/** The bar's host element, put on <html> (not in <body>, whose HTML the restore keeps byte for byte). */
export const BAR_TAG = 'tandem-translate-bar';

const CSS = `
:host { all: initial; }
.bar { position: fixed; top: 12px; right: 12px; z-index: 2147483647; display: flex; gap: 8px; align-items: center; flex-wrap: wrap;
  max-width: 420px; padding: 8px 10px; border-radius: 10px; background: #fff; color: #1f2328; box-shadow: 0 4px 18px rgba(0,0,0,.18);
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; }
.status { flex: 1 1 100%; }
.estimate { display: block; color: #59636e; font-size: 12px; }
button { font: inherit; border: 1px solid #d0d7de; background: #f6f8fa; color: inherit; border-radius: 6px; padding: 3px 8px; cursor: pointer; }
button.primary { background: #4c6ef5; border-color: #4c6ef5; color: #fff; }
button.x { border: none; background: none; font-size: 16px; padding: 0 4px; }
label { display: inline-flex; gap: 4px; align-items: center; font-size: 12px; cursor: pointer; }
[hidden] { display: none !important; }
@media (prefers-color-scheme: dark) { .bar { background: #24292f; color: #f0f3f6; } button { background: #32383f; border-color: #444c56; } .estimate { color: #9aa4ae; } }
`;

export interface BarActions {
  /** Show original, and the asking bar's Cancel: the page as it was, the bar gone. */
  showOriginal(): void;
  /** The asking bar's Translate; `dontAsk`: its "Don't ask again" was ticked. */
  translate(dontAsk: boolean): void;
  site(list: 'always' | 'never'): void;
  signIn(): void;
}

export interface Bar {
  /** Asks first: the price of what is on screen (estimate()), Translate, "Don't ask again" and Cancel. */
  ask(): void;
  /** Translating: Show original and the per-site choices. */
  started(): void;
  status(text: string): void;
  estimate(text: string): void;
  /** A problem: the message, and a sign-in button when `signIn`. */
  problem(text: string, signIn: boolean): void;
  remove(): void;
}

/**
 * The in-page bar: first (ask()) the price of what is on screen with Translate, "Don't ask again"
 * and Cancel; then (started()) the state, the points spent, "Show original" and the per-site
 * choices. The status takes a row of its own, so the buttons do not move when the price comes. A closed shadow root on <html>: the page's styles do not reach it, and it is not part of
 * the body the translator restores. Clicks count only when trusted (the user's, not the page's).
 */
export function createBar(doc: Document, s: PageStrings, dir: 'ltr' | 'rtl', actions: BarActions): Bar {
  const host = doc.createElement(BAR_TAG);
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = CSS;
  const bar = doc.createElement('div');
  bar.className = 'bar';
  bar.setAttribute('role', 'status');
  bar.setAttribute('aria-label', s.bar);
  bar.dir = dir;
  const status = doc.createElement('span');
  status.className = 'status';
  const text = doc.createElement('span');
  text.textContent = s.translating;
  const estimate = doc.createElement('span');
  estimate.className = 'estimate';
  status.append(text, estimate);
  const button = (label: string, action: () => void, className = '') => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (className) b.className = className;
    b.addEventListener('click', (event) => {
      if (event.isTrusted) action();
    });
    return b;
  };
  const original = button(s.showOriginal, actions.showOriginal, 'primary');
  const always = button(s.always, () => {
    actions.site('always');
    text.textContent = s.alwaysDone;
    always.remove();
    never.remove();
  });
  const never = button(s.never, () => actions.site('never'));
  const signIn = button(s.signIn, actions.signIn, 'primary');
  signIn.hidden = true;
  const dontAsk = doc.createElement('input');
  dontAsk.type = 'checkbox';
  const dontAskLabel = doc.createElement('label');
  dontAskLabel.append(dontAsk, s.dontAsk);
  const go = button(s.translate, () => actions.translate(dontAsk.checked), 'primary');
  const cancel = button(s.cancel, actions.showOriginal);
  const close = button('×', () => host.remove(), 'x');
  close.setAttribute('aria-label', s.close);
  close.title = s.close;
  for (const [b, action] of [[go, 'translate'], [cancel, 'cancel'], [original, 'original'], [always, 'always'], [never, 'never'], [signIn, 'signIn'], [close, 'close']] as const) {
    b.setAttribute('data-action', action);
  }
  dontAsk.setAttribute('data-action', 'dontAsk');
  const asking = [go, dontAskLabel, cancel];
  const translating = [original, always, never];
  const show = (visible: HTMLElement[], hidden: HTMLElement[]) => {
    for (const element of visible) element.hidden = false;
    for (const element of hidden) element.hidden = true;
  };
  show(translating, asking);
  bar.append(status, signIn, go, dontAskLabel, cancel, original, always, never, close);
  root.append(style, bar);
  doc.documentElement.append(host);
  return {
    ask() {
      show(asking, translating);
      text.textContent = s.ask;
      estimate.textContent = s.pricing;
    },
    started() {
      show(translating, asking);
      text.textContent = s.translating;
      estimate.textContent = '';
    },
    status: (value) => void (text.textContent = value),
    estimate: (value) => void (estimate.textContent = value),
    problem(value, withSignIn) {
      text.textContent = value;
      estimate.textContent = '';
      signIn.hidden = !withSignIn;
      go.hidden = true;
      dontAskLabel.hidden = true;
    },
    remove: () => host.remove(),
  };
}
