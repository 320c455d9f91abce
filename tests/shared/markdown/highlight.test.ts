import { describe, expect, it } from 'vitest';
import { highlightCode, peekHighlighted, resolveLanguage } from '../../../shared/markdown/highlight.ts';

/** A token in the light scheme's colour, with the dark scheme's beside it (markdown-view.css picks). */
const colouredSpan = /<span style="color:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}">/;

describe('highlightCode', () => {
  it('colours TypeScript and Python through their aliases', async () => {
    const ts = await highlightCode('const answer: number = 42;\n', 'ts');
    expect(ts).toMatch(/^<pre class="shiki shiki-themes github-light-default github-dark-default"/);
    expect(ts).toMatch(colouredSpan);
    expect(ts).toContain('answer');
    const py = await highlightCode('def f(x):\n    return x * 2\n', 'py');
    expect(py).toMatch(colouredSpan);
    expect(py).toMatch(/>def</);
  });

  it('escapes the code it colours', async () => {
    const html = await highlightCode('const s = "<img src=x onerror=alert(1)>";', 'typescript');
    const root = document.createElement('div');
    root.innerHTML = html;
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toBe('const s = "<img src=x onerror=alert(1)>";');
  });

  it('leaves unknown languages plain and escaped', async () => {
    expect(resolveLanguage('brainfudge')).toBeUndefined();
    const html = await highlightCode('a < b', 'brainfudge');
    expect(html).toBe('<pre class="md-code-plain"><code class="language-brainfudge">a &lt; b</code></pre>');
    expect(html).not.toMatch(colouredSpan);
  });

  it('remembers results for a synchronous look-up', async () => {
    const code = 'echo "cached"\n';
    expect(peekHighlighted(code, 'sh')).toBeUndefined();
    const html = await highlightCode(code, 'sh');
    expect(peekHighlighted(code, 'bash')).toBe(html);
    expect(peekHighlighted(code, 'zsh')).toBe(html);
  });
});
