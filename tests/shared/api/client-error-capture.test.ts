import { expect, it, vi } from 'vitest';
import { reportCaughtError } from '../../../shared/utils/caught-errors.ts';

const attached = vi.hoisted(() => ({ reports: [] as unknown[], stops: 0 }));
// The reporter (its scrubbing, batching and sending: client-error-log.test.ts) as what it was given.
vi.mock('../../../shared/api/client-error-log.ts', () => ({
  attachReporter: () => ({ report: (error: unknown) => attached.reports.push(error), stop: () => attached.stops++ }),
}));

const { startErrorReporting } = await import('../../../shared/api/client-error-capture.ts');

it('keeps the errors of the first moments, before the reporter has loaded, and hands them on once it has; stop ends the listening', async () => {
  const stop = startErrorReporting(window, '1.0.0');
  // Thrown before the reporter's module has loaded (it is imported, not part of the entry).
  window.dispatchEvent(new ErrorEvent('error', { error: new Error('at start-up'), message: 'at start-up' }));
  reportCaughtError(new Error('a screen failed'));
  expect(attached.reports).toEqual([]);
  await vi.waitFor(() => expect(attached.reports).toHaveLength(2));
  expect((attached.reports as Error[]).map((e) => e.message)).toEqual(['at start-up', 'a screen failed']);

  const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
  Object.defineProperty(rejection, 'reason', { value: 'later' });
  window.dispatchEvent(rejection);
  expect(attached.reports.at(-1)).toBe('later');

  stop();
  expect(attached.stops).toBe(1);
  window.dispatchEvent(new ErrorEvent('error', { message: 'after stop' }));
  reportCaughtError(new Error('after stop'));
  expect(attached.reports).toHaveLength(3);
});
