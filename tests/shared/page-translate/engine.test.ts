import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRANSLATE_MAX_SEGMENTS, TRANSLATE_MAX_TOTAL_CHARS } from '../../../shared/contracts/translate.ts';
import { findBlocks, PageTranslator, rebuild, serializeBlock, TRANSLATION_TAG } from '../../../shared/utils/page-translate/engine.ts';
import { isAlwaysTranslated } from '../../../shared/utils/page-translate/protocol.ts';
import { intersectAll } from '../../helpers/render-app.tsx';

/** A documentation page as sites write them: prose, inline code, a code block, a table, a formula, a form. */
const DOCS = `
<header><nav><a href="/">Home</a> <a href="/guide">Guide</a></nav></header>
<main>
  <h1 id="title">Getting started</h1>
  <p id="intro">Install the package with <code>npm install tandem</code>, then read <a href="https://example.com/guide" class="ext">the <strong>full</strong> guide</a>.</p>
  <pre><code>const answer = translate("hello");</code></pre>
  <ul><li id="li1">Works <em>offline</em> once installed.</li><li id="li2">Fast on long pages.<ul><li id="nested">Even nested ones.</li></ul></li></ul>
  <table><thead><tr><th id="th1">Option</th><th>Default</th></tr></thead>
    <tbody><tr><td id="td1">Keeps the original layout</td><td>42</td></tr></tbody></table>
  <p id="formula">The energy is <span class="katex"><span class="katex-mathml">E=mc^2</span></span> exactly.</p>
  <div class="katex-display"><span>x squared plus y squared</span></div>
  <blockquote id="quote">Simplicity is prerequisite for reliability.</blockquote>
  <figure><img src="/a.png" alt=""><figcaption id="caption">A diagram of the pipeline.</figcaption></figure>
  <dl><dt id="dt">Segment</dt><dd id="dd">One paragraph sent for translation.</dd></dl>
  <div id="card">A card with words directly in a div.</div>
  <div class="wrapper"><div id="inner">Inner text of a wrapper.</div></div>
  <p translate="no" id="brand">Tandem Pro Max</p>
  <p class="notranslate" id="nt">Do not translate me</p>
  <p aria-hidden="true" id="hiddenaria">Hidden from readers</p>
  <p hidden id="hidden">Hidden paragraph</p>
  <div contenteditable="true"><p id="editable">Draft being written</p></div>
  <form><label for="q">Search the docs</label><input id="q" value="query text"><textarea>Some typed words</textarea><select><option>Option one</option></select></form>
  <p id="numbers">1,234.56 — 78%</p>
  <p id="url">https://example.com/some/path</p>
  <p id="mail">someone@example.com</p>
  <address id="addr">1 Infinite Loop, Cupertino</address>
  <p id="zh">这是一段已经是中文的文字。</p>
  <p lang="fr" id="fr">Bonjour tout le monde.</p>
  <script>var words = "not text";</script><style>p { color: red }</style><noscript>Enable scripts please</noscript>
</main>`;

function page(html: string): Document {
  const doc = document.implementation.createHTMLDocument('test');
  doc.body.innerHTML = html;
  return doc;
}

const ids = (blocks: Element[]) => blocks.map((b) => b.id || b.tagName.toLowerCase());

afterEach(() => vi.useRealTimers());

describe('finding the blocks to translate', () => {
  it('takes paragraph-level blocks and leaves code, formulas, fields, marked and hidden content, and text without words', () => {
    const doc = page(DOCS);
    const { blocks } = findBlocks(doc.body, 'zh-Hans');
    expect(ids(blocks)).toEqual(['title', 'intro', 'li1', 'nested', 'th1', 'th', 'td1', 'formula', 'quote', 'caption', 'dt', 'dd', 'card', 'inner', 'fr']);
    // The nav's links are inline in a header: not a block of their own, and the header has block-less text only through them.
    expect(blocks.some((b) => b.closest('pre, form, [contenteditable]'))).toBe(false);
  });

  it('skips what is already in the target language (by script for Chinese, by the page’s lang attribute otherwise)', () => {
    const doc = page(DOCS);
    expect(ids(findBlocks(doc.body, 'en').blocks)).toContain('zh');
    expect(ids(findBlocks(doc.body, 'zh-Hans').blocks)).not.toContain('zh');
    expect(ids(findBlocks(doc.body, 'fr').blocks)).not.toContain('fr');
  });
});

describe('placeholder tags', () => {
  it('serializes links, emphasis and inline code as numbered tags, skipping formulas', () => {
    const doc = page(DOCS);
    expect(serializeBlock(doc.getElementById('intro')!).text).toBe(
      'Install the package with <t0>npm install tandem</t0>, then read <t1>the <t2>full</t2> guide</t1>.',
    );
    expect(serializeBlock(doc.getElementById('formula')!).text).toBe('The energy is exactly.');
  });

  it('rebuilds the translation around clones of the original elements: links keep their href, code stays as it was', () => {
    const doc = page(DOCS);
    const { inline } = serializeBlock(doc.getElementById('intro')!);
    const into = doc.createElement('div');
    rebuild(into, '用 <t0>npm install tandem</t0> 安装，然后阅读<t1><t2>完整</t2>指南</t1>。', inline, true);
    expect(into.innerHTML).toBe('用 <code>npm install tandem</code> 安装，然后阅读<a href="https://example.com/guide" class="ext"><strong>完整</strong>指南</a>。');
    // The model's words inside inline code are not used: the original code is put back.
    const changed = doc.createElement('div');
    rebuild(changed, 'Mit <t0>npm installieren tandem</t0> installieren', inline, true);
    expect(changed.querySelector('code')!.textContent).toBe('npm install tandem');
  });

  it('puts plain text in when the tags were not kept or do not nest, and never parses HTML', () => {
    const doc = page(DOCS);
    const { inline } = serializeBlock(doc.getElementById('intro')!);
    const plain = doc.createElement('div');
    rebuild(plain, 'Lire <t1>le guide</t1>', inline, false);
    expect(plain.innerHTML).toBe('Lire le guide');
    const crossed = doc.createElement('div');
    rebuild(crossed, '<t1>a <t2>b</t1> c</t2>', inline, true);
    expect(crossed.innerHTML).toBe('a b c');
    const unknown = doc.createElement('div');
    rebuild(unknown, '<t9>x</t9> <img src=x onerror=alert(1)>', inline, true);
    expect(unknown.querySelector('img')).toBeNull();
    expect(unknown.textContent).toBe('x <img src=x onerror=alert(1)>');
  });
});

/** What the server's fake model answers: "[target] segment", tags kept. */
function fakeServer(target: string, log: { sizes: number[]; chars: number[]; inFlight: number; maxInFlight: number }) {
  return async (segments: string[]) => {
    log.sizes.push(segments.length);
    log.chars.push(segments.reduce((n, s) => n + s.length, 0));
    log.inFlight += 1;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.inFlight -= 1;
    return { translations: segments.map((s) => `[${target}] ${s}`), tagsKept: segments.map(() => true) };
  };
}
const newLog = () => ({ sizes: [] as number[], chars: [] as number[], inFlight: 0, maxInFlight: 0 });

describe('translating a page and showing the original', () => {
  it('puts each translation under its paragraph, keeping links, and restores the body byte for byte', async () => {
    const doc = page(DOCS);
    const before = doc.body.outerHTML;
    const log = newLog();
    const translator = new PageTranslator({ document: doc, targetLanguage: 'zh-Hans', display: 'bilingual', translate: fakeServer('zh-Hans', log) });
    translator.start();
    // Nothing is asked for until the blocks come near the viewport.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(log.sizes).toEqual([]);
    await vi.waitFor(() => {
      intersectAll();
      expect(translator.translatedCount).toBe(15);
    });
    const intro = doc.getElementById('intro')!;
    const added = intro.querySelector(TRANSLATION_TAG)!;
    expect(added.textContent).toBe('[zh-Hans] Install the package with npm install tandem, then read the full guide.');
    expect(added.querySelector('a')!.getAttribute('href')).toBe('https://example.com/guide');
    expect(added.getAttribute('dir')).toBe('ltr');
    expect(doc.querySelector('pre')!.querySelector(TRANSLATION_TAG)).toBeNull();
    expect(doc.querySelector('form')!.querySelector(TRANSLATION_TAG)).toBeNull();
    translator.restore();
    expect(doc.body.outerHTML).toBe(before);
  });

  it('replace mode hides the original (kept) and shows the translation in its place; restore puts the style attribute back exactly', async () => {
    const doc = page('<p id="a" style="color: red">First paragraph here.</p><p id="b">Second <a href="/x">link</a> paragraph.</p><table><tr><td id="c">A cell of words</td></tr></table>');
    const before = doc.body.outerHTML;
    const translator = new PageTranslator({ document: doc, targetLanguage: 'de', display: 'replace', translate: fakeServer('de', newLog()) });
    translator.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(translator.translatedCount).toBe(3);
    });
    const a = doc.getElementById('a')!;
    expect(a.getAttribute('style')).toContain('display:none');
    expect(a.nextElementSibling!.textContent).toBe('[de] First paragraph here.');
    expect(a.nextElementSibling!.getAttribute('style')).toBe('color: red');
    expect(doc.querySelectorAll('#b').length).toBe(1);
    expect(doc.querySelector('td + td')!.textContent).toBe('[de] A cell of words');
    expect(doc.getElementById('b')!.nextElementSibling!.querySelector('a')!.getAttribute('href')).toBe('/x');
    translator.restore();
    expect(doc.body.outerHTML).toBe(before);
  });

  it('writes a translation into Arabic or Hebrew right to left, and into English left to right on a right-to-left page', async () => {
    const doc = page('<p id="en">The otters are back.</p>');
    const ar = new PageTranslator({ document: doc, targetLanguage: 'ar', display: 'bilingual', translate: fakeServer('ar', newLog()) });
    ar.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(ar.translatedCount).toBe(1);
    });
    expect(doc.querySelector(TRANSLATION_TAG)!.getAttribute('dir')).toBe('rtl');
    ar.restore();

    const rtl = page('<div dir="rtl"><p id="he">הלוטרות חזרו לחוף.</p></div>');
    const en = new PageTranslator({ document: rtl, targetLanguage: 'en', display: 'bilingual', translate: fakeServer('en', newLog()) });
    en.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(en.translatedCount).toBe(1);
    });
    expect(rtl.querySelector(TRANSLATION_TAG)!.getAttribute('dir')).toBe('ltr');
    expect(rtl.querySelector(TRANSLATION_TAG)!.getAttribute('lang')).toBe('en');
  });

  it('sends batches within the contract’s limits, at most three at a time', async () => {
    const long = 'This is a fairly long sentence about kelp forests and the otters that keep them healthy. '.repeat(3);
    const doc = page(Array.from({ length: 300 }, (_, i) => `<p>${i} ${long}</p>`).join(''));
    const log = newLog();
    const translator = new PageTranslator({ document: doc, targetLanguage: 'fr', display: 'bilingual', translate: fakeServer('fr', log) });
    translator.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(translator.translatedCount).toBe(300);
    }, { timeout: 10_000 });
    expect(log.sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(Math.max(...log.sizes)).toBeLessThanOrEqual(TRANSLATE_MAX_SEGMENTS);
    expect(Math.max(...log.chars)).toBeLessThanOrEqual(TRANSLATE_MAX_TOTAL_CHARS);
    expect(log.sizes.length).toBeGreaterThan(1);
    expect(log.maxInFlight).toBeLessThanOrEqual(3);
    expect(log.maxInFlight).toBeGreaterThan(1);
  });

  it('picks up content the page adds later, without translating its own insertions again', async () => {
    const doc = page('<main id="feed"><p>First post of the feed.</p></main>');
    const before = doc.body.outerHTML;
    const log = newLog();
    const translator = new PageTranslator({ document: doc, targetLanguage: 'ja', display: 'bilingual', translate: fakeServer('ja', log) });
    translator.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(translator.translatedCount).toBe(1);
    });
    const more = doc.createElement('article');
    more.innerHTML = '<h2>Loaded later</h2><p>A post the page added after <em>scrolling</em>.</p>';
    doc.getElementById('feed')!.append(more);
    await vi.waitFor(() => {
      intersectAll();
      expect(translator.translatedCount).toBe(3);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(translator.requested).toBe(3);
    expect(more.querySelector('p > tandem-translation')!.innerHTML).toBe('[ja] A post the page added after <em>scrolling</em>.');
    more.remove();
    translator.restore();
    expect(doc.body.outerHTML).toBe(before);
  });

  it('stops asking after a refusal (signed out) and reports it once', async () => {
    const doc = page(Array.from({ length: 200 }, (_, i) => `<p>Paragraph number ${i} with words.</p>`).join(''));
    const errors: unknown[] = [];
    let calls = 0;
    const translator = new PageTranslator({
      document: doc,
      targetLanguage: 'en',
      display: 'bilingual',
      maxSegments: 10,
      concurrency: 1,
      translate: async () => {
        calls += 1;
        throw new Error('signedOut');
      },
      onError: (error) => errors.push(error),
    });
    translator.start();
    await vi.waitFor(() => {
      intersectAll();
      expect(errors).toHaveLength(1);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
    expect(doc.querySelector(TRANSLATION_TAG)).toBeNull();
  });
});

describe('the server asking to slow down', () => {
  it('waits and asks again after "too many requests" (2 s, doubling), and gives up only after six pauses in a row', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const doc = page('<p id="a">First paragraph with words.</p><p id="b">Second paragraph with words.</p>');
    const busy = new Error('busy');
    const errors: unknown[] = [];
    let refusals = 2;
    const calls: number[] = [];
    const translator = new PageTranslator({
      document: doc,
      targetLanguage: 'fr',
      display: 'bilingual',
      concurrency: 1,
      translate: async (segments) => {
        calls.push(Date.now());
        if (refusals-- > 0) throw busy;
        return { translations: segments.map((seg) => `[fr] ${seg}`), tagsKept: segments.map(() => true) };
      },
      isBusy: (error) => error === busy,
      onError: (error) => errors.push(error),
    });
    translator.start();
    intersectAll();
    // (vi.waitFor would move the fake clock on: the clock moves only here.)
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toHaveLength(1);
    // Refused: nothing more until the pause ends.
    await vi.advanceTimersByTimeAsync(1850);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(calls).toHaveLength(2);
    // Refused again: a pause twice as long.
    await vi.advanceTimersByTimeAsync(3800);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toHaveLength(3);
    expect(translator.translatedCount).toBe(2);
    expect(errors).toEqual([]);
    expect(doc.getElementById('b')!.querySelector(TRANSLATION_TAG)!.textContent).toBe('[fr] Second paragraph with words.');

    // Refused every time: after six pauses it is a failure, reported once.
    const always = new PageTranslator({
      document: page('<p>Only paragraph with words.</p>'),
      targetLanguage: 'fr',
      display: 'bilingual',
      translate: async () => {
        throw busy;
      },
      isBusy: (error) => error === busy,
      onError: (error) => errors.push(error),
    });
    always.start();
    intersectAll();
    await vi.advanceTimersByTimeAsync(2000 + 4000 + 8000 + 16000 + 30000 - 1000);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(30000 + 2000);
    expect(errors).toEqual([busy]);
  });
});

describe('sites always translated', () => {
  it('reads the stored preferences without decoding them (the every-page content script)', () => {
    const raw = { v: 1, value: { alwaysSites: ['news.example.com', 'both.example.com'], neverSites: ['both.example.com'] } };
    expect(isAlwaysTranslated(raw, 'news.example.com')).toBe(true);
    expect(isAlwaysTranslated(raw, 'both.example.com')).toBe(false);
    expect(isAlwaysTranslated(raw, 'other.example.com')).toBe(false);
    expect(isAlwaysTranslated(undefined, 'news.example.com')).toBe(false);
  });
});
