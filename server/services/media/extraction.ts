import { Worker } from 'node:worker_threads';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { ownerQueue } from '../../core/owner-queue.ts';

/**
 * Reading the text of a PDF or DOCX happens in a worker thread of its own, bounded in heap and
 * time, so one crafted file can neither stall the server nor exhaust its memory; the worker ends
 * with the job and takes its memory with it. Jobs run one at a time per user, a few at a time
 * overall, and beyond a bounded queue a new one is refused as busy. docs/security.md#files-and-archives.
 */

export type ExtractionJob = { kind: 'pdf' | 'docx'; bytes: Uint8Array; fileName: string };
export type ExtractionResult = { ok: true; text: string } | { ok: false; key: MessageKey; params?: Record<string, string | number> };

/** A job taking longer than this (the PDF reader gives up at 30 s itself) is ended. */
const JOB_TIMEOUT_MS = 40_000;
/** The worker's V8 heap; reaching it ends the worker (too complex). */
const WORKER_HEAP_MB = 192;
/** Workers running at once, and jobs waiting (all users) before new ones are refused. */
const MAX_RUNNING = 2;
const MAX_WAITING = 16;

/** The worker runs TypeScript like the server; its entry registers the loader (see the file). */
const WORKER_ENTRY = new URL('./extraction-worker.boot.mjs', import.meta.url);

const tooComplex = (fileName: string) => new AppError(Codes.UploadRefused, 'fileTooComplex', { name: fileName });

/** Runs one job in a fresh worker; its refusals come back as AppErrors. */
function runInWorker(job: ExtractionJob): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_ENTRY, {
      workerData: job,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(tooComplex(job.fileName))), JOB_TIMEOUT_MS);
    worker.once('message', (result: ExtractionResult) =>
      settle(() => (result.ok ? resolve(result.text) : reject(new AppError(Codes.UploadRefused, result.key, result.params)))),
    );
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash of the reader: the file is too much for it.
    worker.once('error', () => settle(() => reject(tooComplex(job.fileName))));
    worker.once('exit', () => settle(() => reject(new AppError(Codes.UploadRefused, 'fileUnreadable', { name: job.fileName }))));
  });
}

let running = 0;
const slotWaiters: (() => void)[] = [];
/** One job at a time per user, and a bound on all users' (the worker slots and those waiting). */
const queued = ownerQueue(() => MAX_RUNNING + MAX_WAITING, 'extractionBusy');

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((r) => slotWaiters.push(r));
  running++;
  try {
    return await work();
  } finally {
    running--;
    slotWaiters.shift()?.();
  }
}

/** The text of a PDF or DOCX upload of `owner` (a user id); refusals are AppErrors in the user's language. */
export async function extractDocumentText(owner: string, kind: ExtractionJob['kind'], bytes: Uint8Array, fileName: string): Promise<string> {
  return queued(owner, () => withSlot(() => runInWorker({ kind, bytes, fileName })));
}
