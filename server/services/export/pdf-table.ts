import type { Line } from './pdf-layout.ts';
import { BODY_SIZE, linesOf, type Frame, type Painter } from './pdf-lines.ts';
import type { Run } from './pdf-markdown.ts';
import { COLORS, type Struct } from './pdf-writer.ts';

/**
 * A Markdown table as a simple grid: columns as wide as their content when the page allows, else
 * shared out so narrow columns keep their width; header cells bold on a shade. A row taller than
 * what is left of the page goes on over the next one, line by line.
 */

const PAD = 4;
const SIZE = BODY_SIZE * 0.95;
const MIN_COLUMN = 12;

/** Widths that fill `available`: a column narrower than an equal share keeps its own width. */
function columnWidths(natural: readonly number[], available: number): number[] {
  if (natural.reduce((a, b) => a + b, 0) <= available) return [...natural];
  const widths = natural.map(() => 0);
  let open = natural.map((_, i) => i);
  let left = available;
  while (open.length) {
    const share = left / open.length;
    const small = open.filter((i) => natural[i]! <= share);
    if (!small.length) {
      for (const i of open) widths[i] = share;
      break;
    }
    for (const i of small) {
      widths[i] = natural[i]!;
      left -= natural[i]!;
    }
    open = open.filter((i) => natural[i]! > share);
  }
  return widths.map((w) => Math.max(1, w));
}

type Row = { header: boolean; cells: Run[][] };

export function drawTable(p: Painter, rows: readonly Row[], frame: Frame, parent: Struct): void {
  const columns = Math.max(0, ...rows.map((r) => r.cells.length));
  if (!columns) return;
  const cellsOf = (row: Row) => Array.from({ length: columns }, (_, c) => row.cells[c] ?? []);
  const natural = Array.from({ length: columns }, () => MIN_COLUMN);
  for (const row of rows) {
    cellsOf(row).forEach((runs, c) => {
      for (const line of linesOf(p, runs, Number.POSITIVE_INFINITY, { size: SIZE, bold: row.header })) natural[c] = Math.max(natural[c]!, line.width);
    });
  }
  const widths = columnWidths(natural, Math.max(columns, frame.width - columns * 2 * PAD));
  const edges = [frame.x];
  for (const w of widths) edges.push(edges.at(-1)! + w + 2 * PAD);
  const table = p.writer.doc.struct('Table');
  parent.add(table);
  for (const row of rows) drawRow(p, row.header, cellsOf(row), { widths, edges, table });
  table.end();
}

type Grid = { widths: number[]; edges: number[]; table: Struct };

function drawRow(p: Painter, header: boolean, cells: Run[][], grid: Grid): void {
  const { writer } = p;
  const doc = writer.doc;
  const tr = doc.struct('TR');
  grid.table.add(tr);
  const lines = cells.map((runs, c) => linesOf(p, runs, grid.widths[c]!, { size: SIZE, bold: header }));
  const elements = cells.map(() => {
    const cell = doc.struct(header ? 'TH' : 'TD');
    tr.add(cell);
    return cell;
  });
  const links = cells.map(() => new Map<number, Struct>());
  const bands = Math.max(1, ...lines.map((l) => l.length));
  const bandHeight = (k: number) => Math.max(...lines.map((l) => (l[k] ? writer.lineHeight(l[k]) : 0)), writer.lineHeight({ size: SIZE }));
  writer.ensure(bandHeight(0) + 2 * PAD);
  let top = writer.y;
  const border = () => drawBorders(p, grid.edges, top, writer.y);
  for (let k = 0; k < bands; k++) {
    const height = bandHeight(k) + (k === 0 ? PAD : 0) + (k === bands - 1 ? PAD : 0);
    if (!writer.fits(height)) {
      border();
      writer.newPage();
      top = writer.y;
    }
    const bandTop = writer.y;
    if (header) writer.artifact((d) => d.rect(grid.edges[0]!, bandTop, grid.edges.at(-1)! - grid.edges[0]!, height).fill(COLORS.shade));
    const textTop = bandTop + (k === 0 ? PAD : 0);
    lines.forEach((cellLines, c) => {
      const line: Line | undefined = cellLines[k];
      if (!line) return;
      writer.y = textTop;
      writer.shadeInlineCode(line, grid.edges[c]! + PAD);
      writer.drawLine(line, grid.edges[c]! + PAD, elements[c]!, { links: links[c] });
    });
    writer.y = bandTop + height;
  }
  border();
  for (const cell of elements) cell.end();
  tr.end();
}

/** A row's cell borders from `top` to `bottom` on this page. */
function drawBorders(p: Painter, edges: readonly number[], top: number, bottom: number): void {
  if (bottom <= top) return;
  p.writer.artifact((doc) => {
    doc.lineWidth(0.5).strokeColor(COLORS.rule);
    doc.moveTo(edges[0]!, top).lineTo(edges.at(-1)!, top).moveTo(edges[0]!, bottom).lineTo(edges.at(-1)!, bottom);
    for (const x of edges) doc.moveTo(x, top).lineTo(x, bottom);
    doc.stroke();
  });
}
