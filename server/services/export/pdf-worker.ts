import { parentPort } from 'node:worker_threads';
import { loadPdfFonts } from './pdf-fonts.ts';
import { renderPdf, type PdfJob } from './pdf-render.ts';
import { failureText, type WorkerAnswer } from '../workers/worker-pool.ts';

/**
 * A PDF worker thread (started by pdf.ts, from the pool of services/workers/worker-pool.ts): it
 * reads and parses the fonts once, then makes one PDF per message, one at a time, and answers each
 * with the file's bytes or the failure's text.
 */

let fonts: ReturnType<typeof loadPdfFonts> | undefined;
let fontError = '';
try {
  fonts = loadPdfFonts();
} catch (err) {
  // Answered to every job: the package with the fonts is missing or broken (docs/deployment.md).
  fontError = `the PDF fonts could not be read: ${err instanceof Error ? err.message : String(err)}`;
}

parentPort!.on('message', async (job: PdfJob) => {
  let answer: WorkerAnswer<Uint8Array>;
  try {
    if (!fonts) throw new Error(fontError);
    const pdf = await renderPdf(fonts, job);
    answer = { ok: true, value: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
  } catch (err) {
    answer = { ok: false, error: failureText(err) };
  }
  parentPort!.postMessage(answer);
});
