import { describe, expect, it } from 'vitest';
import { buildChatPdfDocument, type PdfLabels } from '../../../components/share/chat-pdf-document.ts';
import { fullTurn, message } from './export-turns.ts';

const labels: PdfLabels = { you: 'You', attachments: 'Attachments', sources: 'Sources', exported: 'Exported on', image: 'Image from {host}' };

const texts = (root: Element, selector: string) => Array.from(root.querySelectorAll(selector), (el) => el.textContent);

describe('buildChatPdfDocument', () => {
  it('puts the title and date on top, then each turn labelled, with attachments by name and sources', async () => {
    const progress: number[] = [];
    const root = await buildChatPdfDocument(
      document,
      'Physics\nnotes',
      [
        fullTurn({ chatMediaId: 'b', mediaType: 'image', title: '', url: '/api/Chat/GetChatMedia?y', icon: '' }, {
          inputMessage: 'Explain $E=mc^2$\nin two lines',
          outputMessage: 'It is $$E=mc^2$$ and 京都的春天<tandem>internal</tandem> [1]',
        }),
        message({ inputMessage: '', modelName: null, outputMessage: '' }),
      ],
      labels,
      '2026-11-25 10:00',
      (n) => progress.push(n),
    );
    expect(progress).toEqual([1, 2]);
    // One unit for the head, one per turn: the pages are cut around them.
    expect(Array.from(root.children, (el) => el.className)).toEqual(['chat-pdf-head', 'chat-pdf-turn', 'chat-pdf-turn']);
    expect(texts(root, '.chat-pdf-title')).toEqual(['Physics notes']);
    expect(texts(root, '.chat-pdf-date')).toEqual(['Exported on 2026-11-25 10:00']);
    const [first, second] = Array.from(root.querySelectorAll('.chat-pdf-turn'));
    expect(texts(first!, '.chat-pdf-label')).toEqual(['You', 'Attachments', 'Basic', 'Sources']);
    // The question as typed (its line break kept by CSS), never rendered as Markdown.
    expect(texts(first!, '.chat-pdf-question')).toEqual(['Explain $E=mc^2$\nin two lines']);
    expect(texts(first!, '.chat-pdf-attachments li')).toEqual(['paper.pdf', 'image', 'An article · https://example.com/a']);
    expect(first!.textContent).not.toContain('selected words');
    expect(texts(first!, '.chat-pdf-sources li')).toEqual(['Source one — https://example.com/1']);
    const answer = first!.querySelector('.chat-pdf-assistant .md-view')!;
    expect(answer.textContent).toContain('京都的春天');
    expect(answer.textContent).not.toContain('internal');
    // Math typeset by KaTeX, not left as its source; the marker links to its source, as in the app.
    expect(answer.querySelector('.katex')).not.toBeNull();
    expect(answer.querySelector('.math-pending')).toBeNull();
    expect(answer.querySelector('a.md-cite-link')?.getAttribute('href')).toBe('https://example.com/1');
    // A turn with nothing in it still reads as a turn.
    expect(texts(second!, '.chat-pdf-label')).toEqual(['You', 'AI']);
    expect(texts(second!, '.chat-pdf-question')).toEqual(['…']);
  });

  it('highlights code as the app does, keeps unknown languages plain, and shows images as their host', async () => {
    const root = await buildChatPdfDocument(
      document,
      'Code',
      [message({ outputMessage: '```python\nprint("hi")\n```\n\n```nosuchlang\nplain text\n```\n\n![a cat](https://images.example.com/cat.png)' })],
      labels,
      'now',
    );
    const blocks = root.querySelectorAll('.md-code');
    expect(Array.from(blocks, (b) => b.getAttribute('data-lang'))).toEqual(['python', 'nosuchlang']);
    expect(blocks[0]!.querySelector('pre.shiki span[style*="color"]')).not.toBeNull();
    expect(blocks[1]!.querySelector('pre.md-code-plain')?.textContent).toBe('plain text\n');
    expect(root.querySelector('.md-image')?.textContent).toBe('Image from images.example.com');
    expect(root.querySelector('img')).toBeNull();
  });
});
