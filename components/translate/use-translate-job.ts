import { useCallback, useEffect, useRef, useState } from 'react';
import { newTranslateRequestId, transTextKeyed } from '../../shared/api/translate.ts';
import type { TranslateLanguage } from '../../shared/contracts/translate.ts';
import { errorMessage } from '../ui/error-message.ts';
import { BATCH_LIMITS, batchText, CONCURRENCY, makeBatches, splitDocument, type Batch, type DocumentKind, type Piece } from './document.ts';

/** A batch's state: waiting its turn, sent, translated, failed (with the server's message), or stopped by the user. */
export type BatchStatus = { status: 'waiting' | 'running' | 'done' | 'stopped' } | { status: 'failed'; error: string };

/** One translation of the page: the source cut into pieces and batches, and what has come back so far. */
export interface TranslateJob {
  target: TranslateLanguage;
  pieces: Piece[];
  batches: Batch[];
  /** Each batch's idempotency key: sent again when the batch is (a retry, a resume), so it is never charged twice. */
  requestIds: string[];
  states: BatchStatus[];
  translations: ReadonlyMap<number, string>;
  detectedLanguage: string | null;
  /** Points charged so far, and the balance the last answer gave. */
  cost: number;
  balance: number | null;
}

/** How far a job is: batches translated of all, and whether any is still sent or waiting to be. */
export function jobProgress(job: TranslateJob): { done: number; total: number; running: boolean } {
  const done = job.states.filter((s) => s.status === 'done').length;
  return { done, total: job.batches.length, running: job.states.some((s) => s.status === 'running' || s.status === 'waiting') };
}

/** The whole translation once every batch is in; null before. */
export function jobOutput(job: TranslateJob): string | null {
  if (job.states.some((s) => s.status !== 'done')) return null;
  return job.batches.map((batch) => batchText(job.pieces, batch, job.translations)).join('');
}

/**
 * The page's translation run: the text is cut into paragraphs (document.ts), sent in batches within
 * the contract's limits, CONCURRENCY requests in flight, each batch's answer filled in as it comes
 * (the page shows them in order). A failed batch keeps its error and can be sent again alone; stop
 * aborts what is in flight and `resume` sends what is not translated yet. Nothing translated is lost.
 */
export function useTranslateJob() {
  const [job, setJob] = useState<TranslateJob | null>(null);
  const jobRef = useRef<TranslateJob | null>(null);
  const controller = useRef<AbortController | null>(null);

  const update = useCallback((change: (job: TranslateJob) => TranslateJob, of: TranslateJob) => {
    // Answers of a job the user has cleared or replaced are dropped.
    if (jobRef.current?.pieces !== of.pieces) return;
    jobRef.current = change(jobRef.current);
    setJob(jobRef.current);
  }, []);

  const setState = useCallback(
    (of: TranslateJob, index: number, state: BatchStatus) => update((j) => ({ ...j, states: j.states.map((s, i) => (i === index ? state : s)) }), of),
    [update],
  );

  const send = useCallback(
    async (of: TranslateJob, indices: number[]) => {
      const abort = controller.current ?? new AbortController();
      controller.current = abort;
      for (const index of indices) setState(of, index, { status: 'waiting' });
      const queue = [...indices];
      const worker = async () => {
        for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
          if (abort.signal.aborted) {
            setState(of, index, { status: 'stopped' });
            continue;
          }
          setState(of, index, { status: 'running' });
          const batch = of.batches[index]!;
          try {
            const segments = batch.segments.map((i) => of.pieces[i]!.text);
            const result = await transTextKeyed({ segments, targetLanguage: of.target }, abort.signal, of.requestIds[index]);
            update((j) => {
              const translations = new Map(j.translations);
              batch.segments.forEach((piece, k) => translations.set(piece, result.translations[k] ?? ''));
              return {
                ...j,
                translations,
                states: j.states.map((s, i) => (i === index ? { status: 'done' } : s)),
                detectedLanguage: j.detectedLanguage ?? result.detectedLanguage,
                cost: j.cost + result.cost,
                balance: result.balance,
              };
            }, of);
          } catch (error) {
            setState(of, index, abort.signal.aborted ? { status: 'stopped' } : { status: 'failed', error: errorMessage(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
      if (controller.current === abort && !jobRef.current?.states.some((s) => s.status === 'running' || s.status === 'waiting')) controller.current = null;
    },
    [setState, update],
  );

  /** Translates `source` into `target` from the start (a job before is dropped). */
  const start = useCallback(
    (source: string, kind: DocumentKind, target: TranslateLanguage) => {
      controller.current?.abort();
      controller.current = null;
      const pieces = splitDocument(source, kind);
      const batches = makeBatches(pieces, BATCH_LIMITS);
      const next: TranslateJob = {
        target,
        pieces,
        batches,
        requestIds: batches.map(() => newTranslateRequestId()),
        states: batches.map(() => ({ status: 'waiting' })),
        translations: new Map(),
        detectedLanguage: null,
        cost: 0,
        balance: null,
      };
      jobRef.current = next;
      setJob(next);
      void send(next, batches.map((_, i) => i));
    },
    [send],
  );

  /** Sends one batch again (after its failure). */
  const retry = useCallback(
    (index: number) => {
      const of = jobRef.current;
      if (of) void send(of, [index]);
    },
    [send],
  );

  /** Sends every batch not translated yet (after a stop). */
  const resume = useCallback(() => {
    const of = jobRef.current;
    if (!of) return;
    void send(
      of,
      of.states.flatMap((s, i) => (s.status === 'stopped' || s.status === 'failed' ? [i] : [])),
    );
  }, [send]);

  /** Aborts the requests in flight; the batches not translated are marked stopped. */
  const stop = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
  }, []);

  /** Drops the job (Clear). */
  const clear = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    jobRef.current = null;
    setJob(null);
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  return { job, start, retry, resume, stop, clear };
}
