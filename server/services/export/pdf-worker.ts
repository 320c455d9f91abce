import { parentPort } from 'node:worker_threads';
import { loadPdfFonts } from './pdf-fonts.ts';
import { renderPdf, type PdfJob } from './pdf-render.ts';

/**
 * A PDF worker thread (started by pdf.ts): it reads and parses the fonts once, then makes one PDF
 * per message, one at a time, and answers each with the file's bytes or the failure's text.
 */

export type PdfWorkerAnswer = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

let fonts: ReturnType<typeof loadPdfFonts> | undefined;
let fontError = '';
try {
  fonts = loadPdfFonts();
} catch (err) {
  // Answered to every job: the package with the fonts is missing or broken (docs/deployment.md).
  fontError = `the PDF fonts could not be read: ${err instanceof Error ? err.message : String(err)}`;
}

parentPort!.on('message', async (job: PdfJob) => {
  let answer: PdfWorkerAnswer;
  try {
    if (!fonts) throw new Error(fontError);
    const pdf = await renderPdf(fonts, job);
    answer = { ok: true, bytes: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
  } catch (err) {
    answer = { ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  parentPort!.postMessage(answer);
});
