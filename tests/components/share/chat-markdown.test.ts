import { describe, expect, it } from 'vitest';
import { chatToMarkdown, fileNameFor } from '../../../components/share/chat-markdown.ts';
import { fullTurn } from './export-turns.ts';

const labels = { you: 'You', attachments: 'Attachments', sources: 'Sources', exported: 'Exported on' };

describe('chatToMarkdown', () => {
  it('keeps math and code as their source, lists attachments and sources, and drops product tags', () => {
    const text = chatToMarkdown(
      'Physics\nnotes',
      [
        fullTurn({ chatMediaId: 'b', mediaType: 'html', title: 'Wiki', url: 'https://en.wikipedia.org/wiki/Mass', icon: '' }, {
          inputMessage: 'Explain $E=mc^2$',
          outputMessage: 'It is $$E=mc^2$$\n\n```python\nprint("hi")\n```<tandem>internal</tandem> See [1].',
        }),
      ],
      labels,
      '2026-11-25 10:00',
    );
    expect(text).toBe(
      [
        '# Physics notes',
        '_Exported on 2026-11-25 10:00_',
        '## You',
        'Explain $E=mc^2$',
        '**Attachments**\n\n- paper.pdf\n- [Wiki](https://en.wikipedia.org/wiki/Mass)\n- An article (https://example.com/a)',
        '## Basic',
        'It is $$E=mc^2$$\n\n```python\nprint("hi")\n``` See [1].',
        '**Sources**\n\n1. [Source one](https://example.com/1)',
      ].join('\n\n') + '\n',
    );
    expect(text).not.toContain('selected words');
  });

  it('leaves the title line out when asked (the PDF export sends the title apart)', () => {
    const text = chatToMarkdown('Physics', [fullTurn({ chatMediaId: 'b', mediaType: 'image', title: '', url: '', icon: '' }, { inputMessage: 'Why?', outputMessage: 'Because.', citations: [] })], labels, '2026-11-25 10:00', { heading: false });
    expect(text).toBe(['_Exported on 2026-11-25 10:00_', '## You', 'Why?', '**Attachments**\n\n- paper.pdf\n- image\n- An article (https://example.com/a)', '## Basic', 'Because.'].join('\n\n') + '\n');
  });
});

describe('fileNameFor', () => {
  it('drops characters file systems refuse and control characters, and is never empty', () => {
    expect(fileNameFor('a/b:c*?"<>|d\u0000e\n', 'md')).toBe('a b c d e.md');
    expect(fileNameFor('   ', 'md')).toBe('chat.md');
    expect(fileNameFor('量子纠缠', 'md')).toBe('量子纠缠.md');
  });

  it('ends without the "…" of a title cut short, or dots', () => {
    expect(fileNameFor('Plan a three-day trip to Kyoto in spring with a b…', 'pdf')).toBe('Plan a three-day trip to Kyoto in spring with a b.pdf');
    expect(fileNameFor('Wait... ', 'md')).toBe('Wait.md');
    expect(fileNameFor('…', 'md')).toBe('chat.md');
  });
});
