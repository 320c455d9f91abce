import type { PageStrings } from './strings.ts';

/** The bar's host element, put on <html> (not in <body>, whose HTML the restore keeps byte for byte). */
export const BAR_TAG = 'tandem-translate-bar';

const CSS = `
:host { all: initial; }
.bar { position: fixed; top: 12px; right: 12px; z-index: 2147483647; display: flex; gap: 8px; align-items: center; flex-wrap: wrap;
  max-width: 420px; padding: 8px 10px; border-radius: 10px; background: #fff; color: #1f2328; box-shadow: 0 4px 18px rgba(0,0,0,.18);
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; }
.status { flex: 1 1 160px; }
.estimate { display: block; color: #59636e; font-size: 12px; }
button { font: inherit; border: 1px solid #d0d7de; background: #f6f8fa; color: inherit; border-radius: 6px; padding: 3px 8px; cursor: pointer; }
button.primary { background: #4c6ef5; border-color: #4c6ef5; color: #fff; }
button.x { border: none; background: none; font-size: 16px; padding: 0 4px; }
@media (prefers-color-scheme: dark) { .bar { background: #24292f; color: #f0f3f6; } button { background: #32383f; border-color: #444c56; } .estimate { color: #9aa4ae; } }
`;

export interface BarActions {
  showOriginal(): void;
  site(list: 'always' | 'never'): void;
  signIn(): void;
}

export interface Bar {
  status(text: string): void;
  estimate(text: string): void;
  /** A problem: the message, and a sign-in button when `signIn`. */
  problem(text: string, signIn: boolean): void;
  remove(): void;
}

/**
 * The in-page bar: the state, the price of what is on screen, "Show original" and the per-site
 * choices. A closed shadow root on <html>: the page's styles do not reach it, and it is not part of
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
  const close = button('×', () => host.remove(), 'x');
  close.setAttribute('aria-label', s.close);
  close.title = s.close;
  bar.append(status, signIn, original, always, never, close);
  root.append(style, bar);
  doc.documentElement.append(host);
  return {
    status: (value) => void (text.textContent = value),
    estimate: (value) => void (estimate.textContent = value),
    problem(value, withSignIn) {
      text.textContent = value;
      estimate.textContent = '';
      signIn.hidden = !withSignIn;
    },
    remove: () => host.remove(),
  };
}
