/**
 * Errors the app caught itself and showed a way out of (the screens' error boundary): the error log's
 * reporter (shared/api/client-error-log.ts) listens here, so generic pieces report without making an
 * API call themselves.
 */
const listeners = new Set<(error: unknown) => void>();

export function onCaughtError(listener: (error: unknown) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportCaughtError(error: unknown): void {
  for (const listener of listeners) listener(error);
}
