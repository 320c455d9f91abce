import PDFDocument from 'pdfkit';
import { COURIER, type FontName, type PdfFonts } from './pdf-fonts.ts';
import type { Line, Measure, Placed } from './pdf-layout.ts';

/**
 * The page the PDF export draws on: an A4 pdfkit document, tagged (a structure tree that screen
 * readers follow, the document's language and title), with a cursor that moves down the page and
 * starts a new page when a line does not fit. Text goes inside structure elements; backgrounds,
 * rules and page numbers are artifacts, which assistive technology skips.
 */

export type Struct = PDFKit.PDFStructureElement;

const MM = 72 / 25.4;
const MARGIN = { top: 20 * MM, bottom: 22 * MM, x: 20 * MM };
export const COLORS = { text: '#1f2328', muted: '#59636e', link: '#0969da', shade: '#f3f4f6', rule: '#d0d7de' } as const;

/** A line box is this many times its largest type; the baseline sits this far down it. */
const LEADING = 1.5;
const BASELINE = 1.12;

export type PdfMeta = { title: string; lang: string };

export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  readonly root: Struct;
  readonly left = MARGIN.x;
  readonly width: number;
  private readonly top = MARGIN.top;
  private readonly bottom: number;
  y = MARGIN.top;
  /** Called before a page ends, to close what is drawn beside the text there (a quote's bar). */
  readonly onPageEnd = new Set<() => void>();
  private readonly widths = new Map<string, number>();
  private readonly chunks: Buffer[] = [];
  private pages = 0;

  constructor(fonts: PdfFonts, meta: PdfMeta) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN.top, bottom: MARGIN.bottom, left: MARGIN.x, right: MARGIN.x },
      tagged: true,
      lang: meta.lang,
      displayTitle: true,
      pdfVersion: '1.7',
      // No Helvetica: every font is chosen below.
      font: null as unknown as string,
      info: { Title: meta.title, Creator: 'Tandem', Producer: 'Tandem' },
    });
    // pdfkit takes a parsed fontkit font as well as a file: the worker parses each once.
    this.doc.registerFont('sans', fonts.regular as unknown as Buffer);
    this.doc.registerFont('sans-bold', fonts.bold as unknown as Buffer);
    this.width = this.doc.page.width - 2 * MARGIN.x;
    this.bottom = this.doc.page.height - MARGIN.bottom;
    // The file is read as it is written: pages leave memory as they end.
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
  }

  private use(font: FontName, size: number) {
    this.doc.font(font === 'mono' || font === 'mono-bold' ? COURIER[font] : font).fontSize(size);
  }

  /** Width of `text` in points, remembered per font (widths scale with the size). */
  readonly measure: Measure = (font, size, text) => {
    const key = `${font}\u0000${text}`;
    let unit = this.widths.get(key);
    if (unit === undefined) {
      this.use(font, 100);
      unit = this.doc.widthOfString(text) / 100;
      this.widths.set(key, unit);
    }
    return unit * size;
  };

  lineHeight = (line: Pick<Line, 'size'>, leading = LEADING) => line.size * leading;

  /** Room for `height` more points on this page, else a new page. */
  ensure(height: number): void {
    if (this.y + height > this.bottom && this.y > this.top) this.newPage();
  }

  /** Whether `height` fits on the rest of this page. */
  fits = (height: number) => this.y + height <= this.bottom;

  /** Whether the cursor is at the top of a page. */
  atTop = () => this.y <= this.top;

  newPage(): void {
    this.endPage();
    this.doc.addPage();
    this.y = this.top;
  }

  /**
   * What a page gets as it ends: what is drawn beside its text, and its number at the foot, as a
   * pagination artifact. Pages are written out as they end (not kept for a "of N": a long chat's
   * pages would all stay in memory).
   */
  private endPage(): void {
    for (const end of this.onPageEnd) end();
    const label = String(++this.pages);
    this.doc.markContent('Artifact', { type: 'Pagination' });
    this.use('sans', 8);
    const width = this.doc.widthOfString(label);
    this.doc.fillColor(COLORS.muted).text(label, (this.doc.page.width - width) / 2, this.doc.page.height - MARGIN.bottom / 2, { lineBreak: false, baseline: 'alphabetic' });
    this.doc.endMarkedContent();
  }

  pageTop = () => this.top;

  /** Draws outside the structure (a background, a rule): assistive technology skips it. */
  artifact(draw: (doc: PDFKit.PDFDocument) => void): void {
    this.doc.markContent('Artifact', { type: 'Layout' });
    this.doc.save();
    draw(this.doc);
    this.doc.restore();
    this.doc.endMarkedContent();
  }

  /** The shaded backgrounds of a line's inline code, at `x`, with its top at the cursor. */
  shadeInlineCode(line: Line, x: number, leading = LEADING): void {
    const shaded = line.pieces.filter((p) => p.style.code);
    if (!shaded.length) return;
    const height = this.lineHeight(line, leading);
    this.artifact((doc) => {
      for (const p of shaded) doc.rect(x + p.x - 1, this.y + height * 0.14, p.width + 2, height * 0.76).fill(COLORS.shade);
    });
  }

  /**
   * Draws one line's text at `x` with its top at the cursor, inside `owner` (the block's structure
   * element); the pieces of a link go inside a Link element of `links` (one per link run), with a
   * clickable annotation over them. The cursor moves below the line.
   */
  drawLine(line: Line, x: number, owner: Struct, opts: { color?: string; leading?: number; links?: Map<number, Struct> } = {}): void {
    const leading = opts.leading ?? LEADING;
    const height = this.lineHeight(line, leading);
    const baseline = this.y + line.size * (leading / 2 + BASELINE - LEADING / 2);
    for (const group of fragments(line.pieces, (a, b) => a.style.link === b.style.link && (!a.style.link || a.run === b.run))) {
      const first = group[0]!;
      const link = first.style.link;
      const target = link && opts.links ? linkElement(this.doc, owner, opts.links, first.run) : owner;
      target.add(() => {
        for (const span of fragments(group, sameLook)) this.drawSpan(span, x, baseline, opts.color);
        if (link) {
          const last = group.at(-1)!;
          this.doc.link(x + first.x, this.y, last.x + last.width - first.x, height, link, target === owner ? {} : ({ structParent: target } as object));
        }
      });
    }
    this.y += height;
  }

  /** Pieces of one look drawn as one string from the first one's place (spaces included: they read as text). */
  private drawSpan(span: Placed[], x: number, baseline: number, color?: string): void {
    const first = span[0]!;
    const text = span.map((p) => p.text).join('');
    if (text.trim() === '') return;
    const width = span.at(-1)!.x + span.at(-1)!.width - first.x;
    this.use(first.font, first.size);
    const fill = first.style.link ? COLORS.link : (color ?? COLORS.text);
    this.doc.fillColor(fill).text(text, x + first.x, baseline, { lineBreak: false, baseline: 'alphabetic', oblique: first.style.italic ? 12 : false });
    const rules = [first.style.link ? baseline + first.size * 0.14 : undefined, first.style.strike ? baseline - first.size * 0.3 : undefined];
    for (const at of rules) {
      if (at === undefined) continue;
      this.doc.save().lineWidth(Math.max(0.5, first.size / 20)).strokeColor(fill).moveTo(x + first.x, at).lineTo(x + first.x + width, at).stroke().restore();
    }
  }

  /** The finished file, once the last page has its number. */
  async finish(): Promise<Buffer> {
    this.endPage();
    this.root.end();
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
    this.doc.end();
    return done;
  }
}

/** Pieces in runs of neighbours that `same` puts together, in order. */
function fragments(pieces: readonly Placed[], same: (a: Placed, b: Placed) => boolean): Placed[][] {
  const groups: Placed[][] = [];
  for (const piece of pieces) {
    const last = groups.at(-1);
    if (last && same(last[0]!, piece)) last.push(piece);
    else groups.push([piece]);
  }
  return groups;
}

/** Drawn alike: the same font, size and style. */
const sameLook = (a: Placed, b: Placed) =>
  a.font === b.font && a.size === b.size && !!a.style.italic === !!b.style.italic && !!a.style.strike === !!b.style.strike && a.style.link === b.style.link;

/** The Link element of a link run, made (inside `owner`) when the run is first drawn. */
function linkElement(doc: PDFKit.PDFDocument, owner: Struct, links: Map<number, Struct>, run: number): Struct {
  let element = links.get(run);
  if (!element) {
    element = doc.struct('Link');
    owner.add(element);
    links.set(run, element);
  }
  return element;
}
