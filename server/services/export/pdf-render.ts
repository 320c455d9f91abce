import type { Language } from '../../../shared/contracts/common.ts';
import { drawBlocks } from './pdf-blocks.ts';
import type { PdfFonts } from './pdf-fonts.ts';
import { drawLines, linesOf } from './pdf-lines.ts';
import { parseMarkdown } from './pdf-markdown.ts';
import { PdfWriter } from './pdf-writer.ts';

/** One PDF to make: the Markdown, its title, its language, and the word for an image in that language. */
export type PdfJob = { markdown: string; title: string; lang: Language; imageLabel: string };

const TITLE_SIZE = 20;

/** The language tag screen readers read the document in. */
const PDF_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN' };

/**
 * A Markdown document as an A4, tagged PDF: the title at the top of the first page (H1), then the
 * document's blocks, page numbers at the foot of each page.
 */
export async function renderPdf(fonts: PdfFonts, job: PdfJob): Promise<Buffer> {
  const writer = new PdfWriter(fonts, { title: job.title, lang: PDF_LANG[job.lang] });
  const painter = { writer, fonts };
  const frame = { x: writer.left, width: writer.width, depth: 0 };
  if (job.title.trim()) {
    const heading = writer.doc.struct('H1');
    writer.root.add(heading);
    drawLines(painter, linesOf(painter, [{ text: job.title.replace(/\s+/g, ' ').trim() }], frame.width, { size: TITLE_SIZE, bold: true }), frame.x, heading);
    heading.end();
    writer.y += 10;
  }
  drawBlocks(painter, parseMarkdown(job.markdown, job.imageLabel), frame, writer.root);
  return writer.finish();
}
