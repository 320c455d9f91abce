import { describe, expect, it } from 'vitest';
import { MAX_READ_MARKDOWN_CHARS, readDocument } from '../../../shared/utils/read-document.ts';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('readDocument (the tab reader)', () => {
  it("reads the article as Markdown (navigation and footer left out), with the page's title and absolute icon", () => {
    const doc = parse(`<!doctype html><html><head><base href="https://example.com/blog/post"><title>Why otters hold hands</title>
      <link rel="shortcut icon" href="/static/icon.png"><script>window.secret = 1</script></head>
      <body><nav><a href="/">Home</a><a href="/shop">Shop</a></nav>
      <main><article><h1>Why otters hold hands</h1>
      <p>Sea otters hold hands while they sleep, so that the current does not carry them apart. This is called rafting.</p>
      <p>They also keep a favourite stone in a pouch of skin under the forearm, and use it to <a href="/tools">crack shellfish</a>.</p>
      <ul><li>Rafts may count more than a hundred otters.</li><li>Mothers carry pups on their bellies.</li></ul></article></main>
      <footer>Copyright Example</footer></body></html>`);
    const before = doc.documentElement.outerHTML;
    const page = readDocument(doc);
    expect(page.title).toBe('Why otters hold hands');
    expect(page.url).toBe(doc.URL);
    expect(page.icon).toBe('https://example.com/static/icon.png');
    expect(page.markdown).toContain('Sea otters hold hands while they sleep');
    expect(page.markdown).toContain('[crack shellfish](https://example.com/tools)');
    expect(page.markdown).toMatch(/^- +Rafts may count more than a hundred otters\.$/m);
    expect(page.markdown).not.toMatch(/Shop|Copyright|secret/);
    // Readability worked on a clone: the live page is as it was.
    expect(doc.documentElement.outerHTML).toBe(before);
  });

  it('falls back to the whole body when there is no article, and to the host without a title', () => {
    const page = readDocument(parse('<html><body><p>Short note.</p></body></html>'));
    expect(page.markdown).toBe('Short note.');
    expect(page.icon).toBe('');
    expect(page.title).toBe(new URL(page.url).hostname);
  });

  it('gives no text for an empty page, and cuts a huge one', () => {
    expect(readDocument(parse('<html><head><title>App</title></head><body><div id="root"></div></body></html>')).markdown).toBe('');
    const huge = readDocument(parse(`<html><body><pre>${'x'.repeat(MAX_READ_MARKDOWN_CHARS + 500)}</pre></body></html>`));
    expect(huge.markdown.length).toBe(MAX_READ_MARKDOWN_CHARS);
  });
});
