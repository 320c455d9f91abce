import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../core/errors.ts';
import { docxText, pdfText } from './document-text.ts';
import type { ExtractionJob, ExtractionResult } from './extraction.ts';

/** One extraction job, in a worker thread of its own (started by extraction.ts), answered once. */
async function run(job: ExtractionJob): Promise<ExtractionResult> {
  try {
    const text = job.kind === 'pdf' ? await pdfText(job.bytes, job.fileName) : await docxText(job.bytes, job.fileName);
    return { ok: true, text };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, key: err.key, params: err.params };
    return { ok: false, key: 'fileUnreadable', params: { name: job.fileName } };
  }
}

parentPort!.postMessage(await run(workerData as ExtractionJob));
