import { describe, expect, it } from 'vitest';
import { createStreamCache, renderStreaming } from '../../../shared/markdown/blocks.ts';
import { citationHref, citationSet } from '../../../shared/markdown/citations.ts';
import { renderMarkdown } from '../../../shared/markdown/render.ts';

const SOURCES = [
  { index: 1, title: 'First & best', url: 'https://one.example/a?x=1' },
  { index: 2, title: 'Second', url: 'http://two.example/b' },
  { index: 3, title: 'Sneaky', url: 'javascript:alert(1)' },
];

function dom(markdown: string, citations = SOURCES): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = renderMarkdown(markdown, 'Copy code', citations);
  return root;
}

const links = (root: HTMLElement) => [...root.querySelectorAll<HTMLAnchorElement>('sup.md-cite a')];

describe('citation markers', () => {
  it('turns [n] of a known source into a superscript link that opens safely in a new tab', () => {
    const root = dom('Rust is fast [1] and safe [2].');
    const [one, two] = links(root);
    expect(one.getAttribute('href')).toBe('https://one.example/a?x=1');
    expect(one.getAttribute('target')).toBe('_blank');
    expect(one.getAttribute('rel')).toBe('noopener noreferrer');
    expect(one.getAttribute('title')).toBe('First & best');
    expect(one.textContent).toBe('1');
    expect(one.dataset.citation).toBe('1');
    expect(two.getAttribute('href')).toBe('http://two.example/b');
    expect(root.querySelector('p')!.textContent).toBe('Rust is fast 1 and safe 2.');
  });

  it('links every number of [1, 2] and [1][2]', () => {
    expect(links(dom('Both [1, 2].')).map((a) => a.textContent)).toEqual(['1', '2']);
    expect(links(dom('Both [1][2].')).map((a) => a.textContent)).toEqual(['1', '2']);
  });

  it('keeps markers as text inside code spans, code blocks and math', () => {
    const root = dom('Call `arr[1]` here.\n\n```js\nconst x = a[1];\n```\n\n    indented[2]\n\nand $a[1]$');
    expect(links(root)).toHaveLength(0);
    expect(root.querySelector('p code')!.textContent).toBe('arr[1]');
    expect(root.querySelector('pre code')!.textContent).toContain('a[1]');
  });

  it('leaves unknown numbers, unsafe sources, links and nested brackets alone', () => {
    // [9] cites nothing; [3] is a javascript: address; [1, 9] names an unknown source.
    const root = dom('None [9], unsafe [3], mixed [1, 9], text [one].');
    expect(links(root)).toHaveLength(0);
    expect(root.textContent).toContain('None [9], unsafe [3], mixed [1, 9], text [one].');
    expect(root.innerHTML).not.toContain('javascript:');

    // A real markdown link stays one link, and a marker inside a link's text does not nest an anchor.
    const link = dom('See [1](https://else.example/) and [the docs [2]](https://docs.example/).');
    const anchors = [...link.querySelectorAll('a')];
    expect(anchors.map((a) => a.getAttribute('href'))).toEqual(['https://else.example/', 'https://docs.example/']);
    expect(anchors[1].textContent).toBe('the docs [2]');
  });

  it('does nothing without citations', () => {
    expect(renderMarkdown('Plain [1] text.')).toBe('<p>Plain [1] text.</p>\n');
    expect(links(dom('Plain [1] text.', []))).toHaveLength(0);
  });

  it('escapes titles and addresses', () => {
    const root = dom('Quote [1].', [{ index: 1, title: '"><img src=x onerror=alert(1)>', url: 'https://q.example/"onmouseover="x' }]);
    expect(root.querySelector('img')).toBeNull();
    const [a] = links(root);
    expect(a.getAttribute('title')).toBe('"><img src=x onerror=alert(1)>');
    expect(a.hasAttribute('onmouseover')).toBe(false);
    expect(a.getAttribute('href')).toBe('https://q.example/%22onmouseover=%22x');
  });
});

describe('citationSet', () => {
  it('keeps http(s) sources only, and names the same sources with the same key', () => {
    expect(citationSet(undefined)).toBeUndefined();
    expect(citationSet([])).toBeUndefined();
    expect(citationSet([{ index: 1, title: 'x', url: 'ftp://x' }])).toBeUndefined();
    const a = citationSet(SOURCES)!;
    expect([...a.byIndex.keys()]).toEqual([1, 2]);
    expect(citationSet(SOURCES.map((s) => ({ ...s })))!.key).toBe(a.key);
    expect(citationSet([{ ...SOURCES[0], title: 'Other' }])!.key).not.toBe(a.key);
    expect(citationHref(' https://x.example/a b ')).toBe('https://x.example/a%20b');
    expect(citationHref('/relative')).toBeNull();
  });
});

describe('streaming with citations', () => {
  it('renders markers in streamed blocks, and the same text without sources is not served from their cache', () => {
    const set = citationSet(SOURCES);
    // The second block's line is finished, so the first block is final (and cached by its source).
    const text = 'First claim [1].\n\nSecond claim [2] grows\n';
    const withSources = renderStreaming(text, createStreamCache('Copy code', set));
    expect(withSources[0].html).toContain('<sup class="md-cite">');
    expect(withSources[0].complete).toBe(true);
    expect(withSources[1].html).toContain('data-citation="2"');

    const plain = renderStreaming(text, createStreamCache('Copy code'));
    expect(plain[0].html).toBe('<p>First claim [1].</p>\n');
    expect(plain[1].html).not.toContain('md-cite');

    // And the other way round: the finished block cached without sources is not reused with them.
    const again = renderStreaming(text, createStreamCache('Copy code', citationSet(SOURCES)));
    expect(again[0].html).toContain('md-cite');
  });
});
