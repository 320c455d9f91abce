/**
 * Wraps `run` so that calls while it runs make one more run after it, not one each: every caller's
 * promise settles once a run that began after its call has ended.
 */
export function coalesced<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return (...args: A) => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await run(...args);
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
}
