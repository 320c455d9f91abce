import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../shared/markdown/render.ts';
import { loadKatex } from '../../../shared/markdown/math.ts';

// KaTeX loads on first use (math.ts); these tests are about the typeset result.
beforeAll(async () => {
  await loadKatex();
});

/** The renderer's HTML as a DOM, the way the view will see it. */
function dom(markdown: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = renderMarkdown(markdown);
  return root;
}

describe('math', () => {
  it('renders $…$ inline', () => {
    const root = dom('Energy is $E = mc^2$ here.');
    expect(root.querySelector('p .katex')).not.toBeNull();
    expect(root.textContent).not.toContain('$');
  });

  it('renders $$…$$ as a display block', () => {
    const root = dom('Before\n\n$$\n\\frac{a}{b}\n$$\n\nAfter');
    expect(root.querySelector('.katex-block .katex-display')).not.toBeNull();
    expect(root.querySelectorAll('p').length).toBe(3);
  });

  it('renders \\(…\\) inline', () => {
    const root = dom('Euler: \\(e^{i\\pi} + 1 = 0\\), done.');
    const p = root.querySelector('p')!;
    expect(p.querySelector('.katex')).not.toBeNull();
    expect(p.querySelector('.katex-display')).toBeNull();
    expect(p.textContent).not.toContain('\\(');
  });

  it('renders \\[…\\] as a display block, on one line or several', () => {
    const one = dom('\\[ x^2 + y^2 = z^2 \\]');
    expect(one.querySelector('.katex-block .katex-display')).not.toBeNull();
    const several = dom('Sum:\n\n\\[\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n\\]\n\nNext paragraph');
    expect(several.querySelector('.katex-block .katex-display')).not.toBeNull();
    expect(several.textContent).toContain('Next paragraph');
    expect(several.textContent).not.toContain('\\[');
  });

  it('renders \\[…\\] and $$…$$ inside a paragraph without nesting paragraphs', () => {
    const html = renderMarkdown('so \\[x^2\\] and $$y^2$$ inline');
    expect(html).not.toMatch(/<p[^>]*>(?:(?!<\/p>).)*<p/s);
    const root = dom('so \\[x^2\\] and $$y^2$$ inline');
    expect(root.querySelectorAll('p .katex-display').length).toBe(2);
  });

  it('keeps math delimiters literal in code spans and code blocks', () => {
    const root = dom('`\\(a\\)` and `$b$`\n\n```\n\\[c\\] $d$\n```');
    expect(root.querySelector('.katex')).toBeNull();
    expect(root.querySelector('p code')!.textContent).toBe('\\(a\\)');
    expect(root.querySelector('pre code')!.textContent).toBe('\\[c\\] $d$\n');
  });

  it('leaves currency as text', () => {
    for (const text of ['It costs $5.', 'It costs $5 and $10 a month.', 'Save $5/month (or $50/year)', 'US$5, or $5.99/mo']) {
      const root = dom(text);
      expect(root.querySelector('.katex'), text).toBeNull();
      expect(root.textContent!.trim()).toBe(text);
    }
  });

  it('shows a KaTeX error escaped instead of throwing', () => {
    const root = dom('Bad: $\\frac{1}{<img src=x onerror=alert(1)>$ and \\(\\nosuchcommand\\)');
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelectorAll('.katex-error').length).toBe(2);
    expect(root.textContent).toContain('ParseError');
  });

  it('keeps \\href inert (trust off)', () => {
    const root = dom('$\\href{javascript:alert(1)}{x}$');
    expect(root.querySelector('a')).toBeNull();
  });
});

describe('code fences', () => {
  it('wraps a fence with a language label and a copy button, code escaped', () => {
    const root = dom('```ts\nconst ok = 1 < 2 && "<b>";\n```');
    const block = root.querySelector('.md-code')!;
    expect(block.getAttribute('data-lang')).toBe('ts');
    expect(block.querySelector('.md-code-lang')!.textContent).toBe('ts');
    const button = block.querySelector('button[data-md-copy]')!;
    expect(button.getAttribute('type')).toBe('button');
    expect(button.getAttribute('aria-label')).toBe('Copy code');
    expect(block.querySelector('pre code.language-ts')!.textContent).toBe('const ok = 1 < 2 && "<b>";\n');
    expect(block.querySelector('b')).toBeNull();
  });

  it('labels a fence without language as text and escapes a hostile info string', () => {
    expect(dom('```\nx\n```').querySelector('.md-code-lang')!.textContent).toBe('text');
    const root = dom('```"><img src=x onerror=alert(1)>\nx\n```');
    expect(root.querySelector('img')).toBeNull();
  });

  it('takes the copy button label from the caller', () => {
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown('```py\nx = 1\n```', '复制代码');
    expect(root.querySelector('button')!.getAttribute('aria-label')).toBe('复制代码');
  });
});

describe('links', () => {
  it('opens http(s) and mailto links in a new tab without opener or referrer', () => {
    const root = dom('[site](https://example.com/a?b=1) and mail <mailto:me@example.com> and www.example.org');
    const links = [...root.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a?b=1',
      'mailto:me@example.com',
      'http://www.example.org',
    ]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
  });

  it('drops javascript:, data:, vbscript:, file: and relative targets', () => {
    const root = dom(
      [
        '[a](javascript:alert(1))',
        '[b](JaVaScRiPt:alert(1))',
        '[c](data:text/html;base64,PHNjcmlwdD4=)',
        '[d](vbscript:msgbox)',
        '[e](file:///etc/passwd)',
        '[f](/relative)',
        '<javascript:alert(1)>',
        '![g](javascript:alert(1))',
        '![h](data:image/svg+xml,<svg onload=alert(1)>)',
      ].join('\n\n'),
    );
    expect(root.querySelector('a')).toBeNull();
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain('[a](javascript:alert(1))');
  });
});

describe('raw HTML', () => {
  it('escapes script tags and event handlers, block and inline', () => {
    const root = dom('<script>alert(1)</script>\n\nText <img src=x onerror="alert(1)"> and <b onclick="x()">bold</b>');
    expect(root.querySelector('script, img, b')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('still renders ordinary markdown', () => {
    const root = dom('# Title\n\n- one\n- **two**\n\n| a | b |\n| - | - |\n| 1 | 2 |');
    expect(root.querySelector('h1')!.textContent).toBe('Title');
    expect(root.querySelectorAll('li').length).toBe(2);
    expect(root.querySelector('strong')!.textContent).toBe('two');
    expect(root.querySelectorAll('td').length).toBe(2);
  });
});
