import type { PdfFonts } from './pdf-fonts.ts';
import { fillLines, piecesOf, type Line, type TextStyle } from './pdf-layout.ts';
import type { Run } from './pdf-markdown.ts';
import type { PdfWriter, Struct } from './pdf-writer.ts';

/** What the PDF export's block drawers share: the page, the fonts, the body type, lines of runs. */

export const BODY_SIZE = 10.5;

/** Where a block is drawn: its left edge and width, and how deep it is nested (lists, quotes). */
export type Frame = { x: number; width: number; depth: number };

export type Painter = { writer: PdfWriter; fonts: PdfFonts };

/** `runs` in lines of `width`. */
export function linesOf(p: Painter, runs: readonly Run[], width: number, style: TextStyle): Line[] {
  return fillLines(piecesOf(p.fonts, p.writer.measure, runs, style), width, p.writer.measure, style);
}

/**
 * Lines drawn one under another inside `element`, each moved to a new page when it does not fit;
 * `keepWithNext` asks for that much room below the first line too (a heading keeps a line of what follows).
 */
export function drawLines(p: Painter, lines: readonly Line[], x: number, element: Struct, opts: { color?: string; keepWithNext?: number } = {}): void {
  const links = new Map<number, Struct>();
  lines.forEach((line, i) => {
    const height = p.writer.lineHeight(line);
    p.writer.ensure(i === 0 ? height + (opts.keepWithNext ?? 0) : height);
    p.writer.shadeInlineCode(line, x);
    p.writer.drawLine(line, x, element, { color: opts.color, links });
  });
}
