import { RTL_LANGUAGES, TRANSLATE_MAX_SEGMENT_CHARS, TRANSLATE_MAX_SEGMENTS, TRANSLATE_MAX_TOTAL_CHARS, type TranslateLanguage } from '../../contracts/translate.ts';

/**
 * The page translator's engine (docs/help/en/translation.md): plain DOM code, no extension API, so it
 * runs in jsdom for the tests and in the user's tab once entrypoints/page-translator.ts is injected.
 *
 * - Blocks are paragraph-level elements (p, li, h1-h6, td/th, blockquote, figcaption, dd/dt, and divs
 *   without block children); code, formulas, fields, [translate=no], .notranslate, hidden content are
 *   skipped, and so is text without letters (numbers, addresses, e-mails) or already in the target.
 * - A block's inline formatting travels as placeholder tags `<tN>…</tN>` (shared/contracts/translate.ts);
 *   the translation is rebuilt from shallow clones of the original inline elements (a link keeps its
 *   href), and inline code is put back as it was. Only text nodes are ever created: no HTML is parsed.
 * - Bilingual: a <tandem-translation> element is appended inside the block, under its text. Replace: a
 *   shallow clone of the block, holding the translation, is put after it and the original is hidden
 *   (its style attribute kept to be put back exactly).
 * - Only blocks near the viewport are translated (an IntersectionObserver with a margin below), in
 *   batches within the contract's limits, a few requests in flight; a MutationObserver picks up what the
 *   page adds later. Work is cut into slices of a few milliseconds, so no task runs long.
 * - restore() removes everything added: the body's HTML is byte for byte what it was.
 */

/** The element every bilingual translation is put in (and the marker of replace mode's clones). */
export const TRANSLATION_TAG = 'tandem-translation';
export const TRANSLATION_ATTR = 'data-tandem-translation';

/** Elements that make a paragraph-level block. */
const BLOCK_CANDIDATES = new Set(['P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TD', 'TH', 'BLOCKQUOTE', 'FIGCAPTION', 'DD', 'DT', 'DIV', 'CAPTION', 'SUMMARY', 'LEGEND']);
/** Elements that lay out as blocks: a candidate containing one is not a paragraph itself. */
const BLOCK_LEVEL = new Set([
  ...BLOCK_CANDIDATES,
  'UL', 'OL', 'DL', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'PRE', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'MAIN',
  'FORM', 'FIELDSET', 'HR', 'ADDRESS', 'DETAILS', 'FIGURE', 'VIDEO', 'AUDIO', 'CANVAS', 'IFRAME', 'HGROUP',
]);
/** Never translated, nor anything inside. */
const SKIP_SELECTOR = [
  'code', 'pre', 'kbd', 'samp', 'script', 'style', 'noscript', 'template', 'textarea', 'input', 'select', 'option', 'svg', 'math',
  '.katex', '.katex-display', '.MathJax', '.MathJax_Display', 'mjx-container', '[translate="no"]', '.notranslate', '[contenteditable=""]',
  '[contenteditable="true"]', '[contenteditable="plaintext-only"]', '[aria-hidden="true"]', '[hidden]', 'address', TRANSLATION_TAG, `[${TRANSLATION_ATTR}]`,
  'tandem-sider', 'tandem-translate-bar',
].join(',');
/** Inline formatting carried as placeholder tags. */
const INLINE_TAGS = new Set(['A', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'SPAN', 'SUB', 'SUP', 'MARK', 'SMALL', 'ABBR', 'CITE', 'Q', 'FONT', 'DFN', 'INS', 'DEL', 'TIME', 'LABEL', 'BDI', 'BDO']);
/** Inline elements put back as they were (their text is not translated). */
const ATOM_TAGS = new Set(['CODE', 'KBD', 'SAMP', 'VAR']);

export type TranslateBatch = (segments: string[]) => Promise<{ translations: string[]; tagsKept: boolean[] }>;

/** A block as serialized for translation. */
export interface Segment {
  text: string;
  /** Element N is what `<tN>` stands for. */
  inline: Element[];
}

// ---- which text is worth translating ---------------------------------------------------------

const URL_ONLY = /^(?:https?:\/\/|www\.)\S+$/i;
const EMAIL_ONLY = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LETTER = /\p{L}/u;
const HAN = /\p{Script=Han}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL = /\p{Script=Hangul}/gu;
const LETTERS = /\p{L}/gu;

/** Whether `text` has words to translate: not empty, not numbers only, not a lone address or e-mail. */
export function isTranslatableText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed || !LETTER.test(trimmed)) return false;
  return !URL_ONLY.test(trimmed) && !EMAIL_ONLY.test(trimmed);
}

/** A cheap "already in the target language": for Chinese, Japanese and Korean targets, by script. */
export function looksLikeTarget(text: string, target: TranslateLanguage): boolean {
  const letters = text.match(LETTERS)?.length ?? 0;
  if (letters === 0) return false;
  const share = (pattern: RegExp) => (text.match(pattern)?.length ?? 0) / letters;
  if (target === 'zh-Hans' || target === 'zh-Hant') return share(HAN) > 0.5 && share(KANA) < 0.05;
  if (target === 'ja') return share(KANA) > 0.1;
  if (target === 'ko') return share(HANGUL) > 0.5;
  return false;
}

function primary(lang: string): string {
  return lang.toLowerCase().split('-')[0] ?? '';
}

/**
 * The language the page declares for `element`: its closest lang attribute inside the body, or ''.
 * <html lang> is not trusted: site templates often leave it at "en" whatever the text.
 */
function declaredLanguage(element: Element): string {
  const declared = element.closest('[lang]');
  return declared && declared !== element.ownerDocument.documentElement ? (declared.getAttribute('lang') ?? '') : '';
}

// ---- finding blocks ---------------------------------------------------------------------------

function hasBlockChild(element: Element): boolean {
  for (const child of element.children) {
    if (BLOCK_LEVEL.has(child.tagName)) return true;
    // An inline wrapper around blocks (a link around a card's divs) makes the element a container too.
    if (INLINE_TAGS.has(child.tagName) && child.children.length > 0 && hasBlockChild(child)) return true;
  }
  return false;
}

function directText(element: Element): boolean {
  for (const node of element.childNodes) if (node.nodeType === 3 && LETTER.test(node.nodeValue ?? '')) return true;
  return false;
}

/** Whether `element` is a paragraph-level block to translate (its own tests; ancestors are checked by the walk). */
export function isBlock(element: Element): boolean {
  if (!BLOCK_CANDIDATES.has(element.tagName)) return false;
  if (hasBlockChild(element)) return false;
  if (element.tagName === 'DIV' && !directText(element) && element.textContent!.trim() === '') return false;
  return true;
}

/**
 * The paragraph-level blocks under `root` (itself included), in document order, skipping what must
 * not be translated. `deadline` (performance.now()) stops the walk early; it answers where to go on.
 */
export function findBlocks(root: Element, target: TranslateLanguage, limit?: { deadline: number; from?: Element | null }): { blocks: Element[]; next: Element | null } {
  const blocks: Element[] = [];
  if (root.closest(SKIP_SELECTOR)) return { blocks, next: null };
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */, {
    acceptNode(node) {
      const element = node as Element;
      if (element.matches(SKIP_SELECTOR)) return 2; // FILTER_REJECT: nor anything inside
      return 1;
    },
  });
  // Going on from where the last slice stopped: `from` itself was not looked at yet.
  if (limit?.from) walker.currentNode = limit.from;
  let node: Node | null = limit?.from ?? root;
  let count = 0;
  while (node) {
    const element = node as Element;
    if (isBlock(element)) {
      const text = element.textContent ?? '';
      const lang = declaredLanguage(element);
      if (isTranslatableText(text) && !looksLikeTarget(text, target) && !(lang && primary(lang) === primary(target))) blocks.push(element);
    }
    count += 1;
    if (limit && count % 64 === 0 && performance.now() > limit.deadline) {
      const next = walker.nextNode() as Element | null;
      return { blocks, next };
    }
    node = walker.nextNode();
  }
  return { blocks, next: null };
}

// ---- serializing and rebuilding ----------------------------------------------------------------

/** A block's content as text with placeholder tags, and the inline elements they stand for. */
export function serializeBlock(block: Element): Segment {
  const inline: Element[] = [];
  let text = '';
  const walk = (parent: Node) => {
    for (const node of parent.childNodes) {
      if (node.nodeType === 3) {
        text += (node.nodeValue ?? '').replace(/[ \t\r\n\f]+/g, ' ');
        continue;
      }
      if (node.nodeType !== 1) continue;
      const element = node as Element;
      if (element.tagName === 'BR') {
        text += '\n';
        continue;
      }
      if (ATOM_TAGS.has(element.tagName)) {
        const n = inline.push(element) - 1;
        text += `<t${n}>${element.textContent ?? ''}</t${n}>`;
        continue;
      }
      if (element.matches(SKIP_SELECTOR)) continue;
      if (INLINE_TAGS.has(element.tagName)) {
        if (!LETTER.test(element.textContent ?? '')) {
          // Nothing to translate inside (an icon's span): kept out of the segment.
          continue;
        }
        const n = inline.push(element) - 1;
        text += `<t${n}>`;
        walk(element);
        text += `</t${n}>`;
        continue;
      }
      // Other inline elements (images, custom elements): their text, without the element.
      walk(element);
    }
  };
  walk(block);
  return { text: text.replace(/ *\n */g, '\n').replace(/ {2,}/g, ' ').trim(), inline };
}

type Token = { kind: 'text'; text: string } | { kind: 'open' | 'close'; n: number };

function tokenize(translated: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /<(\/?)t(\d{1,3})>/g;
  let last = 0;
  for (let match = pattern.exec(translated); match; match = pattern.exec(translated)) {
    if (match.index > last) tokens.push({ kind: 'text', text: translated.slice(last, match.index) });
    tokens.push({ kind: match[1] ? 'close' : 'open', n: Number(match[2]) });
    last = match.index + match[0].length;
  }
  if (last < translated.length) tokens.push({ kind: 'text', text: translated.slice(last) });
  return tokens;
}

export function stripTags(translated: string): string {
  return translated.replace(/<\/?t\d{1,3}>/g, '');
}

function appendText(parent: Node, text: string): void {
  const doc = parent.ownerDocument ?? (parent as Document);
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (i > 0) parent.appendChild(doc.createElement('br'));
    if (line) parent.appendChild(doc.createTextNode(line));
  });
}

function shallowClone(element: Element): Element {
  const clone = element.cloneNode(false) as Element;
  clone.removeAttribute('id');
  return clone;
}

/**
 * The translation of a block as DOM nodes appended to `into`: the placeholder tags become shallow
 * clones of the original inline elements (deep clones for inline code). A translation whose tags do
 * not nest properly or name unknown elements is put in as plain text.
 */
export function rebuild(into: Element, translated: string, inline: readonly Element[], tagsKept: boolean): void {
  if (tagsKept) {
    const tokens = tokenize(translated);
    const doc = into.ownerDocument;
    const frag = doc.createDocumentFragment();
    const stack: { node: Node; n: number }[] = [{ node: frag, n: -1 }];
    const used = new Set<number>();
    let ok = true;
    for (const token of tokens) {
      const top = stack[stack.length - 1]!;
      if (token.kind === 'text') {
        if (!(top.n >= 0 && ATOM_TAGS.has(inline[top.n]!.tagName))) appendText(top.node, token.text);
      } else if (token.kind === 'open') {
        const original = inline[token.n];
        if (!original || used.has(token.n)) {
          ok = false;
          break;
        }
        used.add(token.n);
        const clone = ATOM_TAGS.has(original.tagName) ? (original.cloneNode(true) as Element) : shallowClone(original);
        top.node.appendChild(clone);
        stack.push({ node: clone, n: token.n });
      } else {
        if (top.n !== token.n) {
          ok = false;
          break;
        }
        stack.pop();
      }
    }
    if (ok && stack.length === 1) {
      into.appendChild(frag);
      return;
    }
  }
  appendText(into, stripTags(translated));
}

// ---- the translator ------------------------------------------------------------------------------

export interface PageTranslatorOptions {
  document: Document;
  targetLanguage: TranslateLanguage;
  display: 'bilingual' | 'replace';
  translate: TranslateBatch;
  /** Requests in flight at once. */
  concurrency?: number;
  /** How far below (and above) the viewport blocks are translated ahead. */
  rootMargin?: string;
  /** A slice of work, in milliseconds, before yielding to the page. */
  sliceMs?: number;
  maxSegments?: number;
  maxChars?: number;
  /** A batch failed (signed out, no points, offline): the engine stops asking. */
  onError?: (error: unknown) => void;
  /**
   * Whether a failure only says "too many requests now" (the server's rate limit): the batch is asked
   * again after a pause (2 s, doubling to 30 s) instead of stopping; after BUSY_RETRIES such pauses in
   * a row it is a failure like any other.
   */
  isBusy?: (error: unknown) => boolean;
  /** A block's translation was put in (the first one is what the bench times). */
  onTranslated?: (block: Element) => void;
}

type Added = { block: Element; node: Element; style?: string | null };

/** Pauses in a row after "too many requests" before the engine gives up (about 90 s in all). */
const BUSY_RETRIES = 6;
const busyPauseMs = (retry: number) => Math.min(30_000, 2000 * 2 ** retry);

const yieldToPage = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
};

export class PageTranslator {
  private readonly doc: Document;
  private readonly options: Required<Omit<PageTranslatorOptions, 'onError' | 'onTranslated' | 'isBusy'>> & Pick<PageTranslatorOptions, 'onError' | 'onTranslated' | 'isBusy'>;
  private readonly added: Added[] = [];
  /** Blocks seen (observed, queued or done): each is translated once. */
  private readonly seen = new WeakSet<Element>();
  private readonly queue: Element[] = [];
  private readonly pendingRoots: Element[] = [];
  private intersection: IntersectionObserver | null = null;
  private mutation: MutationObserver | null = null;
  private inFlight = 0;
  private stopped = false;
  private failed = false;
  /** "Too many requests" pauses in a row (reset by an answer); while `paused`, nothing is sent. */
  private busyRetries = 0;
  private paused = false;
  private flushing = false;
  private scanning = false;
  /** Segments sent, for the tests and the bench. */
  requested = 0;
  translatedCount = 0;

  constructor(options: PageTranslatorOptions) {
    this.doc = options.document;
    this.options = {
      concurrency: 3,
      rootMargin: '0px 0px 600px 0px',
      sliceMs: 8,
      maxSegments: TRANSLATE_MAX_SEGMENTS,
      maxChars: TRANSLATE_MAX_TOTAL_CHARS,
      ...options,
    };
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** Starts watching the page: blocks near the viewport are translated, and those that come into it later. */
  start(): void {
    const view = this.doc.defaultView ?? globalThis;
    const IO = (view as unknown as { IntersectionObserver?: typeof IntersectionObserver }).IntersectionObserver;
    if (IO) {
      this.intersection = new IO((entries) => this.onIntersect(entries), { rootMargin: this.options.rootMargin });
    }
    const MO = (view as unknown as { MutationObserver: typeof MutationObserver }).MutationObserver;
    this.mutation = new MO((records) => this.onMutations(records));
    this.mutation.observe(this.doc.body, { childList: true, subtree: true, characterData: false });
    this.scan(this.doc.body);
  }

  /** Stops, and takes out everything the translator added: the page as it was. */
  restore(): void {
    this.stopped = true;
    this.intersection?.disconnect();
    this.mutation?.disconnect();
    this.intersection = null;
    this.mutation = null;
    for (const { block, node, style } of this.added.splice(0).reverse()) {
      node.remove();
      if (style !== undefined) {
        if (style === null) block.removeAttribute('style');
        else block.setAttribute('style', style);
      }
    }
    this.queue.length = 0;
    this.pendingRoots.length = 0;
  }

  private isOurs(node: Node): boolean {
    const element = node.nodeType === 1 ? (node as Element) : node.parentElement;
    return !!element && (element.tagName.toLowerCase() === TRANSLATION_TAG || element.hasAttribute(TRANSLATION_ATTR) || !!element.closest(`${TRANSLATION_TAG},[${TRANSLATION_ATTR}]`));
  }

  private onMutations(records: MutationRecord[]): void {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1 || this.isOurs(node) || !node.isConnected) continue;
        this.pendingRoots.push(node as Element);
      }
    }
    if (this.pendingRoots.length) this.scan(null);
  }

  /** Finds blocks under `root` (and the roots the page added since) in slices, and watches them. */
  private scan(root: Element | null): void {
    if (root) this.pendingRoots.push(root);
    if (this.scanning) return;
    this.scanning = true;
    void (async () => {
      let from: Element | null = null;
      let current: Element | undefined;
      while (!this.stopped && (from || this.pendingRoots.length)) {
        if (!from) current = this.pendingRoots.shift();
        if (!current) break;
        // A root added inside a translated block (a framework re-rendering its text) belongs to that block.
        const { blocks, next } = findBlocks(current, this.options.targetLanguage, { deadline: performance.now() + this.options.sliceMs, from });
        for (const block of blocks) this.watch(block);
        from = next;
        if (from || this.pendingRoots.length) await yieldToPage();
      }
      this.scanning = false;
    })();
  }

  private watch(block: Element): void {
    if (this.seen.has(block)) return;
    this.seen.add(block);
    if (this.intersection) this.intersection.observe(block);
    else this.enqueue([block]);
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    const near: Element[] = [];
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      this.intersection?.unobserve(entry.target);
      near.push(entry.target);
    }
    if (near.length) this.enqueue(near);
  }

  private enqueue(blocks: Element[]): void {
    this.queue.push(...blocks);
    this.flush();
  }

  /** Sends batches while fewer than `concurrency` are in flight. */
  private flush(): void {
    if (this.flushing || this.stopped || this.failed || this.paused) return;
    this.flushing = true;
    void (async () => {
      try {
        while (!this.stopped && !this.failed && !this.paused && this.queue.length && this.inFlight < this.options.concurrency) {
          // Document order: what is higher on the page first.
          if (this.queue.length > 1) this.queue.sort((a, b) => (a.compareDocumentPosition(b) & 4 ? -1 : 1));
          const batch: { block: Element; segment: Segment }[] = [];
          let chars = 0;
          const deadline = performance.now() + this.options.sliceMs;
          while (this.queue.length && batch.length < this.options.maxSegments) {
            const block = this.queue[0]!;
            if (!block.isConnected) {
              this.queue.shift();
              continue;
            }
            const segment = serializeBlock(block);
            if (segment.text.length > TRANSLATE_MAX_SEGMENT_CHARS || !isTranslatableText(stripTags(segment.text))) {
              this.queue.shift();
              continue;
            }
            if (batch.length && chars + segment.text.length > this.options.maxChars) break;
            this.queue.shift();
            batch.push({ block, segment });
            chars += segment.text.length;
            if (performance.now() > deadline) break;
          }
          if (batch.length) this.send(batch);
          await yieldToPage();
        }
      } finally {
        this.flushing = false;
      }
    })();
  }

  private send(batch: { block: Element; segment: Segment }[]): void {
    this.inFlight += 1;
    this.requested += batch.length;
    this.options
      .translate(batch.map((item) => item.segment.text))
      .then(async (answer) => {
        if (this.stopped) return;
        this.busyRetries = 0;
        await this.apply(batch, answer);
      })
      .catch((error: unknown) => {
        if (this.stopped) return;
        if (this.options.isBusy?.(error) && this.busyRetries < BUSY_RETRIES) return this.pauseAndRetry(batch);
        this.failed = true;
        this.options.onError?.(error);
      })
      .finally(() => {
        this.inFlight -= 1;
        this.flush();
      });
  }

  /** The server asked to slow down: the batch goes back to the front of the queue, and sending pauses. */
  private pauseAndRetry(batch: { block: Element }[]): void {
    this.queue.unshift(...batch.map((item) => item.block));
    if (this.paused) return;
    this.paused = true;
    setTimeout(() => {
      this.paused = false;
      this.flush();
    }, busyPauseMs(this.busyRetries++));
  }

  /** Puts the translations in, a slice at a time. */
  private async apply(batch: { block: Element; segment: Segment }[], answer: { translations: string[]; tagsKept: boolean[] }): Promise<void> {
    let deadline = performance.now() + this.options.sliceMs;
    for (let i = 0; i < batch.length; i += 1) {
      if (this.stopped) return;
      const { block, segment } = batch[i]!;
      const translated = answer.translations[i];
      if (translated && translated.trim() && block.isConnected) this.insert(block, segment, translated, answer.tagsKept[i] ?? false);
      if (performance.now() > deadline) {
        await yieldToPage();
        deadline = performance.now() + this.options.sliceMs;
      }
    }
  }

  private insert(block: Element, segment: Segment, translated: string, tagsKept: boolean): void {
    const doc = this.doc;
    const dir = RTL_LANGUAGES.includes(this.options.targetLanguage) ? 'rtl' : 'ltr';
    if (this.options.display === 'replace') {
      const clone = shallowClone(block);
      clone.setAttribute(TRANSLATION_ATTR, '');
      clone.setAttribute('dir', dir);
      clone.setAttribute('lang', this.options.targetLanguage);
      rebuild(clone, translated, segment.inline, tagsKept);
      const style = block.getAttribute('style');
      // Recorded before the change, so restore() puts back exactly this attribute (or its absence).
      this.added.push({ block, node: clone, style });
      block.setAttribute('style', `${style ? `${style};` : ''}display:none !important`);
      block.after(clone);
    } else {
      const node = doc.createElement(TRANSLATION_TAG);
      node.setAttribute('dir', dir);
      node.setAttribute('lang', this.options.targetLanguage);
      node.setAttribute('style', 'display:block;margin:0.25em 0 0;opacity:0.82;');
      rebuild(node, translated, segment.inline, tagsKept);
      this.added.push({ block, node });
      block.appendChild(node);
    }
    this.translatedCount += 1;
    this.options.onTranslated?.(block);
  }
}
