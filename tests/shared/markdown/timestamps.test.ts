import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../shared/markdown/render.ts';

describe('video timestamps in answers', () => {
  it('marks [mm:ss] and [h:mm:ss] with their seconds', () => {
    const html = renderMarkdown('- [01:05] The otter picks a stone.\n- At [1:02:03] it sleeps.');
    expect(html).toContain('<span class="md-time" data-md-seconds="65">[01:05]</span> The otter picks a stone.');
    expect(html).toContain('<span class="md-time" data-md-seconds="3723">[1:02:03]</span>');
  });

  it('leaves links, code, citations and non-times alone', () => {
    expect(renderMarkdown('[01:05](https://example.com/)')).toContain('<a href="https://example.com/"');
    expect(renderMarkdown('[01:05](https://example.com/)')).not.toContain('md-time');
    expect(renderMarkdown('`[01:05]`')).not.toContain('md-time');
    expect(renderMarkdown('[1:75] and [12] and [a:bc]')).not.toContain('md-time');
    const cited = renderMarkdown('Fact [1] at [00:10].', undefined, [{ index: 1, title: 'Src', url: 'https://example.com/' }]);
    expect(cited).toContain('data-citation="1"');
    expect(cited).toContain('data-md-seconds="10"');
  });
});
