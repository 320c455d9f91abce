import { createRequire } from 'node:module';
import path from 'node:path';
import mammoth from 'mammoth';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { checkArchiveBudget } from './archive-guard.ts';

/**
 * The text of a PDF or DOCX, as the model reads it. Runs in the extraction worker
 * (extraction-worker.ts), never on the server's main thread: one crafted file cannot stall it.
 */

/** A PDF with more pages, or taking longer to read, is refused. */
const MAX_PDF_PAGES = 2000;
const PDF_READ_MS = 30_000;

const refuse = (key: MessageKey, params?: Record<string, string | number>) => new AppError(Codes.UploadRefused, key, params);

// ---- PDF ----

const requireHere = createRequire(import.meta.url);
/** pdf.js's own data files, from its npm package: nothing is fetched from the network. */
const pdfjsDir = path.dirname(requireHere.resolve('pdfjs-dist/package.json'));
const pdfjsData = (folder: string) => `${path.join(pdfjsDir, folder)}${path.sep}`;

type TextItem = { str?: string; hasEOL?: boolean };

/**
 * Whether a PDF's pages hold (almost) no text: no page has any, or there are fewer letters than
 * pages (and under 20 in all): page numbers or a scanner's stamp over pictures of text.
 */
export function looksScanned(pages: readonly string[]): boolean {
  if (!pages.some(Boolean)) return true;
  const letters = pages.join('').match(/\p{L}/gu)?.length ?? 0;
  return letters < pages.length && letters < 20;
}

/** The text of each page, under a "--- Page N ---" line, so the model can cite pages. */
export async function pdfText(bytes: Uint8Array, fileName: string): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js takes the buffer over (detaches it): it gets a copy.
    data: new Uint8Array(bytes),
    standardFontDataUrl: pdfjsData('standard_fonts'),
    cMapUrl: pdfjsData('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsData('wasm'),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch {
    // Damaged, not a PDF after all, or encrypted with a password.
    await task.destroy();
    throw refuse('fileUnreadable', { name: fileName });
  }
  try {
    if (doc.numPages > MAX_PDF_PAGES) throw refuse('fileTooComplex', { name: fileName });
    const deadline = Date.now() + PDF_READ_MS;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (Date.now() > deadline) throw refuse('fileTooComplex', { name: fileName });
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      page.cleanup();
      pages.push(text);
    }
    // A scanned PDF (pictures of pages, perhaps with page numbers or a stray mark drawn as text) has
    // no text layer worth reading: '' tells the caller so, and nothing empty is attached.
    if (looksScanned(pages)) return '';
    return pages.map((text, i) => `--- Page ${i + 1} ---\n${text}`).join('\n\n');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse('fileUnreadable', { name: fileName });
  } finally {
    await doc.destroy();
  }
}

// ---- DOCX ----

export async function docxText(bytes: Uint8Array, fileName: string): Promise<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await checkArchiveBudget(buffer, fileName);
  try {
    const { value } = await mammoth.extractRawText({ buffer });
    return value.replace(/\n{3,}/g, '\n\n').trim();
  } catch {
    throw refuse('fileUnreadable', { name: fileName });
  }
}

