import { describe, expect, it } from 'vitest';
import { morphHtml } from '../../../components/ui/morph-html.ts';

function element(html: string): HTMLDivElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

describe('morphHtml', () => {
  it('ends with exactly the wanted HTML', () => {
    const cases: Array<[string, string]> = [
      ['<p>a</p>', '<p>ab</p>'],
      ['<p>a</p><p>b</p>', '<p>a</p>'],
      ['<p>a</p>', '<ul><li>a</li></ul>'],
      ['<p class="x" title="t">a</p>', '<p class="y">a</p>'],
      ['<p>a <em>b</em></p>', '<p>a <strong>b</strong> c</p>'],
      ['', '<pre><code>x\n</code></pre>'],
      ['<p>x</p>', ''],
    ];
    for (const [from, to] of cases) {
      const div = element(from);
      morphHtml(div, to);
      expect(div.innerHTML).toBe(element(to).innerHTML);
    }
  });

  it('keeps nodes that did not change', () => {
    const div = element('<p>Intro <span class="katex">x</span> and more</p><p>last</p>');
    const paragraph = div.querySelector('p')!;
    const formula = div.querySelector('.katex')!;
    morphHtml(div, '<p>Intro <span class="katex">x</span> and more text</p><p>last line</p><p>new</p>');
    expect(div.querySelector('p')).toBe(paragraph);
    expect(div.querySelector('.katex')).toBe(formula);
    expect(div.querySelectorAll('p')).toHaveLength(3);
    expect(div.textContent).toBe('Intro x and more textlast linenew');
  });
});
