import { onCaughtError } from '../utils/caught-errors.ts';

/** Errors kept while the reporter loads; more are dropped (a page failing that fast repeats itself). */
const EARLY_ERRORS = 20;

/**
 * A surface's uncaught errors (window errors, unhandled rejections, screens the error boundary caught),
 * listened for from start-up. The reporter that scrubs, batches and sends them
 * (shared/api/client-error-log.ts, docs/api.md#client-error-log) is loaded once the app has started,
 * outside the first screen's bundle: errors caught before it is there wait in a short queue.
 */
export function startErrorReporting(target: Window, version: string | null): () => void {
  const early: unknown[] = [];
  let deliver = (error: unknown) => {
    if (early.length < EARLY_ERRORS) early.push(error);
  };
  const take = (error: unknown) => deliver(error);
  const onError = (event: ErrorEvent) => take(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => take(event.reason);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  const stopCaught = onCaughtError(take);
  let stopped = false;
  let stopReporter: (() => void) | undefined;
  import('./client-error-log.ts').then(
    ({ attachReporter }) => {
      if (stopped) return;
      const reporter = attachReporter(target, version);
      stopReporter = reporter.stop;
      deliver = reporter.report;
      for (const error of early.splice(0)) reporter.report(error);
    },
    // The reporter's chunk did not load (offline, an extension update under way): errors go unreported.
    () => undefined,
  );
  return () => {
    stopped = true;
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
    stopCaught();
    stopReporter?.();
  };
}
