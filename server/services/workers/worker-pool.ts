import { Worker } from 'node:worker_threads';

/**
 * A small pool of worker threads for CPU-heavy jobs kept off the event loop (the PDF export, the
 * invite poster): workers stay up between jobs (what they load once, e.g. fonts, is kept), each is
 * bounded in heap, every job in time. At most `maxWorkers` run at once; a job beyond them waits for
 * the next one freed (callers bound how many may wait, e.g. with core/owner-queue.ts). A worker that
 * runs out of time or memory, or crashes, is ended and a fresh one starts for the next job; an idle
 * one ends after `idleMs` and does not keep the process alive.
 *
 * The worker's side: answer each message (one job) with one `WorkerAnswer`.
 */

/** The bounds, read at each use (a test may change them to watch a worker be ended). */
export type WorkerPoolLimits = {
  /** A job taking longer than this is ended with its worker. */
  jobTimeoutMs: number;
  /** A worker's V8 heap; reaching it ends the worker. */
  workerHeapMb: number;
  /** Workers running at once. */
  maxWorkers: number;
  /** An idle worker ends after this long. */
  idleMs: number;
};

/** What a worker answers to one job: its result, or the failure's text. */
export type WorkerAnswer<R> = { ok: true; value: R } | { ok: false; error: string };

/** The worker answered that the job failed (`message`: the failure's text, from the worker). */
export class WorkerJobFailed extends Error {
  override name = 'WorkerJobFailed';
}

/** The worker was ended under the job: out of time, out of heap, or a crash (`cause`: its error, if any). */
export class WorkerEnded extends Error {
  override name = 'WorkerEnded';
}

type Slot = { worker: Worker; idleTimer?: NodeJS.Timeout };

export type WorkerPool<J, R> = {
  /** Runs `job` on a worker: its result; rejects with WorkerJobFailed or WorkerEnded. */
  run(job: J): Promise<R>;
};

/** A pool of workers started from `entry` (a plain .mjs module: see export/pdf-worker.boot.mjs). */
export function workerPool<J, R>(entry: URL, limits: WorkerPoolLimits): WorkerPool<J, R> {
  const idle: Slot[] = [];
  let started = 0;
  const slotWaiters: ((slot: Slot | null) => void)[] = [];

  function startWorker(): Slot {
    started++;
    const worker = new Worker(entry, {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.workerHeapMb, maxYoungGenerationSizeMb: 48, stackSizeMb: 4 },
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
      if (started < limits.maxWorkers) return startWorker();
      const freed = await new Promise<Slot | null>((resolve) => slotWaiters.push(resolve));
      if (freed) return freed;
    }
  }

  function giveBack(slot: Slot): void {
    const waiter = slotWaiters.shift();
    if (waiter) return waiter(slot);
    // Idle workers do not keep the process alive, and end after a while.
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void slot.worker.terminate(), limits.idleMs);
    slot.idleTimer.unref();
    idle.push(slot);
  }

  /** Runs one job on a worker; a worker that fails it (time, memory, a crash) is ended. */
  async function run(job: J): Promise<R> {
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
      const onMessage = (answer: WorkerAnswer<R>) => {
        if (answer.ok) return settle(() => resolve(answer.value), true);
        settle(() => reject(new WorkerJobFailed(answer.error)), true);
      };
      // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or a crash.
      const onError = (err: Error) => settle(() => reject(new WorkerEnded('the worker failed', { cause: err })), false);
      const onExit = () => settle(() => reject(new WorkerEnded('the worker exited')), false);
      const timer = setTimeout(() => settle(() => reject(new WorkerEnded('the job ran out of time')), false), limits.jobTimeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(job);
    });
  }

  return { run };
}

/** The text of a failure inside a worker, for its answer. */
export const failureText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));
