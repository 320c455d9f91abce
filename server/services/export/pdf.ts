import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { MarkdownToPdfBody } from '../../../shared/contracts/export.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { ownerQueue } from '../../core/owner-queue.ts';
import type { PdfJob } from './pdf-render.ts';
import { WorkerEnded, WorkerJobFailed, workerPool } from '../workers/worker-pool.ts';

/**
 * Markdown made into a PDF off the event loop (docs/api.md#markdown-to-pdf): in worker threads that
 * stay up between jobs (the 20 MB of fonts are read and parsed once per worker), each bounded in
 * heap, every job in time. At most two run at once, a user's jobs one after another, and beyond a
 * bounded queue a new one is refused as busy. A worker that runs out of time or memory is ended
 * and a fresh one starts for the next job; an idle one ends after a while.
 */

/** The bounds, read at each use (a test shortens the time limit to watch a worker be ended). */
export const PDF_LIMITS = {
  /** A job taking longer than this (2 MB of Markdown takes 15 to 30 s on one core) is ended with its worker. */
  jobTimeoutMs: 90_000,
  /** A worker's V8 heap; reaching it ends the worker (too complex). */
  workerHeapMb: 512,
  /** Workers running at once, and jobs waiting (all users) before new ones are refused. */
  maxWorkers: 2,
  maxWaiting: 8,
  /** An idle worker ends after this long (its fonts go with it). */
  idleMs: 120_000,
};

const pool = workerPool<PdfJob, Uint8Array>(new URL('./pdf-worker.boot.mjs', import.meta.url), PDF_LIMITS);

/** Runs one job on a worker of the pool (services/workers/worker-pool.ts); a worker that fails it (time, memory, a crash) is ended. */
async function runOnWorker(ctx: AppContext, job: PdfJob): Promise<Uint8Array> {
  try {
    return await pool.run(job);
  } catch (err) {
    if (err instanceof WorkerJobFailed) {
      ctx.log.error({ err: err.message }, 'pdf export failed');
      throw new AppError(Codes.ServerError, 'pdfFailed');
    }
    // Out of time, out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash: the document is too much for one worker.
    if (err instanceof WorkerEnded && err.cause) ctx.log.warn({ err: err.cause }, 'pdf worker ended');
    throw new AppError(Codes.PayloadTooLarge, 'pdfTooComplex');
  }
}

/** One PDF at a time per user (a user's next waits for their last); refused as busy past the workers and those waiting. */
const queuedPdf = ownerQueue(() => PDF_LIMITS.maxWorkers + PDF_LIMITS.maxWaiting, 'pdfBusy');

/** A file name for the download: no path, no control or reserved characters, ending in .pdf. */
export function pdfFileName(name: string): string {
  const base = Array.from(name, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.pdf$/i, '')
    .replace(/[\s.…]+$/u, '');
  return `${Array.from(base).slice(0, 120).join('') || 'document'}.pdf`;
}

/**
 * `body`'s Markdown as a PDF for `owner` (a user id), in `lang` unless the body names one. Refusals
 * are AppErrors in the caller's language: busy (10429), too long or complex to make in time (10413).
 */
export async function markdownToPdf(ctx: AppContext, owner: string, body: MarkdownToPdfBody, lang: Language): Promise<{ bytes: Uint8Array; fileName: string }> {
  const docLang = body.lang ?? lang;
  const title = (body.title ?? '').replace(/\s+/g, ' ').trim();
  const job: PdfJob = { markdown: body.markdown, title, lang: docLang, imageLabel: t(docLang, 'pdfImage') };
  const bytes = await queuedPdf(owner, () => runOnWorker(ctx, job));
  return { bytes, fileName: pdfFileName(body.fileName ?? title) };
}
