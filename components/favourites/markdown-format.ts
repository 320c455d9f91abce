/** The editor toolbar's actions on Markdown source. */
export type MarkdownFormat = 'bold' | 'italic' | 'heading' | 'code' | 'codeBlock' | 'link' | 'list' | 'numbered' | 'quote';

export interface Edit {
  text: string;
  /** The selection after the edit. */
  start: number;
  end: number;
}

const WRAPS: Partial<Record<MarkdownFormat, [string, string, string]>> = {
  // before, after, placeholder when nothing is selected
  bold: ['**', '**', 'bold'],
  italic: ['_', '_', 'italic'],
  code: ['`', '`', 'code'],
  codeBlock: ['```\n', '\n```', 'code'],
  link: ['[', '](https://)', 'link'],
};

const LINE_PREFIXES: Partial<Record<MarkdownFormat, (n: number) => string>> = {
  heading: () => '## ',
  list: () => '- ',
  numbered: (n) => `${n + 1}. `,
  quote: () => '> ',
};

/**
 * Applies `format` to the selection [start, end) of `text`: wraps it (bold, italic, code, code block,
 * link), or prefixes each of its lines (heading, lists, quote). Wrapping an empty selection inserts a
 * placeholder and selects it, so the user types over it.
 */
export function applyMarkdownFormat(text: string, start: number, end: number, format: MarkdownFormat): Edit {
  const wrap = WRAPS[format];
  if (wrap) {
    const [before, after, placeholder] = wrap;
    const inner = text.slice(start, end) || placeholder;
    const next = text.slice(0, start) + before + inner + after + text.slice(end);
    // A link with text selected puts the caret on its address; otherwise the inner text is selected.
    if (format === 'link' && end > start) {
      const urlStart = start + before.length + inner.length + 2;
      return { text: next, start: urlStart, end: urlStart + 'https://'.length };
    }
    return { text: next, start: start + before.length, end: start + before.length + inner.length };
  }
  const prefix = LINE_PREFIXES[format]!;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nextBreak = text.indexOf('\n', Math.max(end - (end > start ? 1 : 0), start));
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split('\n');
  const block = lines.map((line, n) => prefix(n) + line).join('\n');
  const next = text.slice(0, lineStart) + block + text.slice(lineEnd);
  return { text: next, start: lineStart + prefix(0).length, end: lineStart + block.length };
}
