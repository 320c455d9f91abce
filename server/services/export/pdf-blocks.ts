import type { TextStyle } from './pdf-layout.ts';
import { BODY_SIZE, drawLines, linesOf, type Frame, type Painter } from './pdf-lines.ts';
import type { Block, Run } from './pdf-markdown.ts';
import { drawTable } from './pdf-table.ts';
import { COLORS, type Struct } from './pdf-writer.ts';

/**
 * The blocks of the PDF export drawn down the pages, each as the structure element a screen reader
 * expects (H1–H6, P, L/LI/Lbl/LBody, BlockQuote, Code, Formula, Table): paragraphs and headings in
 * their type, lists with their markers, quotes with a bar, code and math in monospace (code on a
 * light background), tables as a grid, rules as a line.
 */

const HEADING_SIZES = [18, 15, 13, 11.5, BODY_SIZE, BODY_SIZE];
const CODE_LEADING = 1.35;
const GAP = 6;
/** Nested lists and quotes indent this much, up to MAX_INDENTS levels (deeper ones line up with the last). */
const INDENT = 18;
const MAX_INDENTS = 8;

function textBlock(p: Painter, type: string, runs: readonly Run[], frame: Frame, parent: Struct, style: TextStyle, keepWithNext = 0): void {
  const element = p.writer.doc.struct(type);
  parent.add(element);
  drawLines(p, linesOf(p, runs, frame.width, style), frame.x, element, { keepWithNext, color: type === 'H6' ? COLORS.muted : undefined });
  element.end();
}

/** Monospaced lines (code, math) on an optional shaded background, wrapped to the frame. */
function preBlock(p: Painter, element: Struct, text: string, frame: Frame, shaded: boolean): void {
  const pad = shaded ? 6 : 0;
  const width = frame.width - 2 * pad;
  const lines = text.split('\n').flatMap((source) => linesOf(p, [{ text: source }], width, { size: BODY_SIZE, pre: true }));
  lines.forEach((line, i) => {
    const height = p.writer.lineHeight(line, CODE_LEADING);
    const top = i === 0 ? pad : 0;
    const bottom = i === lines.length - 1 ? pad : 0;
    p.writer.ensure(top + height + bottom);
    if (shaded) {
      const y = p.writer.y;
      p.writer.artifact((doc) => doc.rect(frame.x, y, frame.width, top + height + bottom).fill(COLORS.shade));
    }
    p.writer.y += top;
    p.writer.drawLine(line, frame.x + pad, element, { leading: CODE_LEADING });
    p.writer.y += bottom;
  });
}

function drawList(p: Painter, block: Extract<Block, { kind: 'list' }>, frame: Frame, parent: Struct): void {
  const list = p.writer.doc.struct('L');
  parent.add(list);
  const indent = frame.depth < MAX_INDENTS ? INDENT : 0;
  const inner = { x: frame.x + indent, width: frame.width - indent, depth: frame.depth + 1 };
  const bullets = ['\u2022', '\u25e6', '\u25aa'];
  block.items.forEach((blocks, i) => {
    const item = p.writer.doc.struct('LI');
    list.add(item);
    const marker = block.ordered ? `${block.start + i}.` : bullets[frame.depth % bullets.length]!;
    const [line] = linesOf(p, [{ text: marker }], INDENT * 4, { size: BODY_SIZE });
    p.writer.ensure(p.writer.lineHeight(line!));
    const label = p.writer.doc.struct('Lbl');
    item.add(label);
    const top = p.writer.y;
    p.writer.drawLine(line!, inner.x - line!.width - 5, label);
    label.end();
    p.writer.y = top;
    const body = p.writer.doc.struct('LBody');
    item.add(body);
    drawBlocks(p, blocks, inner, body, { tight: true });
    body.end();
    item.end();
    if (i < block.items.length - 1) p.writer.y += 2;
  });
  list.end();
}

function drawQuote(p: Painter, blocks: readonly Block[], frame: Frame, parent: Struct): void {
  const quote = p.writer.doc.struct('BlockQuote');
  parent.add(quote);
  const indent = frame.depth < MAX_INDENTS ? 12 : 0;
  let from = p.writer.y;
  const bar = () => {
    const to = p.writer.y;
    if (to > from) p.writer.artifact((doc) => doc.rect(frame.x, from, 2.5, to - from).fill(COLORS.rule));
  };
  const onPageEnd = () => {
    bar();
    from = p.writer.pageTop();
  };
  p.writer.onPageEnd.add(onPageEnd);
  drawBlocks(p, blocks, { x: frame.x + indent, width: frame.width - indent, depth: frame.depth + 1 }, quote, { color: COLORS.muted });
  p.writer.onPageEnd.delete(onPageEnd);
  bar();
  quote.end();
}

function drawRule(p: Painter, frame: Frame): void {
  p.writer.ensure(GAP * 2);
  const y = p.writer.y + GAP;
  p.writer.artifact((doc) => doc.moveTo(frame.x, y).lineTo(frame.x + frame.width, y).lineWidth(0.75).strokeColor(COLORS.rule).stroke());
  p.writer.y += GAP * 2;
}

/** Draws `blocks` in `frame` inside `parent`, one after another with a gap (a small one in a tight list). */
export function drawBlocks(p: Painter, blocks: readonly Block[], frame: Frame, parent: Struct, opts: { tight?: boolean; color?: string } = {}): void {
  const doc = p.writer.doc;
  blocks.forEach((block, i) => {
    if (i > 0) p.writer.y += opts.tight ? 2 : GAP;
    switch (block.kind) {
      case 'heading': {
        if (i > 0 && !p.writer.atTop()) p.writer.y += GAP;
        const size = HEADING_SIZES[block.level - 1] ?? BODY_SIZE;
        // A heading is never the last line of a page: it keeps a line of what follows.
        textBlock(p, `H${block.level}`, block.runs, frame, parent, { size, bold: true }, BODY_SIZE * 1.5);
        break;
      }
      case 'paragraph':
        if (opts.color) {
          const element = doc.struct('P');
          parent.add(element);
          drawLines(p, linesOf(p, block.runs, frame.width, { size: BODY_SIZE }), frame.x, element, { color: opts.color });
          element.end();
        } else textBlock(p, 'P', block.runs, frame, parent, { size: BODY_SIZE });
        break;
      case 'list':
        drawList(p, block, frame, parent);
        break;
      case 'quote':
        drawQuote(p, block.blocks, frame, parent);
        break;
      case 'code':
      case 'math': {
        const element = block.kind === 'code' ? doc.struct('Code') : doc.struct('Formula', { alt: block.text });
        parent.add(element);
        preBlock(p, element, block.text, block.kind === 'math' ? { ...frame, x: frame.x + INDENT, width: frame.width - INDENT } : frame, block.kind === 'code');
        element.end();
        break;
      }
      case 'table':
        drawTable(p, block.rows, frame, parent);
        break;
      case 'rule':
        drawRule(p, frame);
        break;
    }
  });
}
