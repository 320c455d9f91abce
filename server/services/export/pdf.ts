import { Worker } from 'node:worker_threads';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { MarkdownToPdfBody } from '../../../shared/contracts/export.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { ownerQueue } from '../../core/owner-queue.ts';
import type { PdfJob } from './pdf-render.ts';
import type { PdfWorkerAnswer } from './pdf-worker.ts';

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

const WORKER_ENTRY = new URL('./pdf-worker.boot.mjs', import.meta.url);

type Slot = { worker: Worker; idleTimer?: NodeJS.Timeout };

const idle: Slot[] = [];
let started = 0;
const slotWaiters: ((slot: Slot | null) => void)[] = [];

function startWorker(): Slot {
  started++;
  const worker = new Worker(WORKER_ENTRY, {
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: PDF_LIMITS.workerHeapMb, maxYoungGenerationSizeMb: 48, stackSizeMb: 4 },
  });
  const slot: Slot = { worker };
  // A job listens for its own failure; this keeps one of an idle worker from ending the server.
  worker.on('error', () => {});
  worker.once('exit', () => {
    started--;
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    // A place is free again: the first waiting job starts a worker of its own.
    slotWaiters.shift()?.(null);
  });
  return slot;
}

/** An idle worker, a new one while fewer than the most exist, else the next one freed. */
async function takeWorker(): Promise<Slot> {
  for (;;) {
    const slot = idle.pop();
    if (slot) {
      clearTimeout(slot.idleTimer);
      slot.worker.ref();
      return slot;
    }
    if (started < PDF_LIMITS.maxWorkers) return startWorker();
    const freed = await new Promise<Slot | null>((resolve) => slotWaiters.push(resolve));
    if (freed) return freed;
  }
}

function giveBack(slot: Slot): void {
  const waiter = slotWaiters.shift();
  if (waiter) return waiter(slot);
  // Idle workers do not keep the process alive, and end after a while.
  slot.worker.unref();
  slot.idleTimer = setTimeout(() => void slot.worker.terminate(), PDF_LIMITS.idleMs);
  slot.idleTimer.unref();
  idle.push(slot);
}

/** Runs one job on a worker; a worker that fails it (time, memory, a crash) is ended. */
async function runOnWorker(ctx: AppContext, job: PdfJob): Promise<Uint8Array> {
  const slot = await takeWorker();
  return new Promise((resolve, reject) => {
    const { worker } = slot;
    let settled = false;
    const settle = (outcome: () => void, keep: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep) giveBack(slot);
      else void worker.terminate();
      outcome();
    };
    const tooComplex = () => new AppError(Codes.PayloadTooLarge, 'pdfTooComplex');
    const onMessage = (answer: PdfWorkerAnswer) => {
      if (answer.ok) return settle(() => resolve(answer.bytes), true);
      ctx.log.error({ err: answer.error }, 'pdf export failed');
      settle(() => reject(new AppError(Codes.ServerError, 'pdfFailed')), true);
    };
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash: the document is too much for one worker.
    const onError = (err: Error) => {
      ctx.log.warn({ err }, 'pdf worker ended');
      settle(() => reject(tooComplex()), false);
    };
    const onExit = () => settle(() => reject(tooComplex()), false);
    const timer = setTimeout(() => settle(() => reject(tooComplex()), false), PDF_LIMITS.jobTimeoutMs);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(job);
  });
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
