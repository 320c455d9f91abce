import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientErrorReportInput } from '../../../shared/contracts/client-error-log.ts';
import { browserOf, createErrorReporter, describeError, surfaceOf } from '../../../shared/api/client-error-log.ts';
import { scrubText } from '../../../shared/utils/scrub.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A reporter whose batches are collected; time is the fake timers'. */
function collecting(options: Partial<Parameters<typeof createErrorReporter>[0]> = {}) {
  const batches: ClientErrorReportInput[][] = [];
  const reporter = createErrorReporter({
    send: (reports) => {
      batches.push(reports);
      return Promise.resolve();
    },
    surface: 'sidepanel',
    version: '1.2.3',
    browser: 'Chrome 131',
    location: () => 'chrome-extension://abc/sidepanel.html?token=secret#/chat/1',
    ...options,
  });
  return { batches, reporter };
}

const boom = (message: string, file = 'chat.js') => {
  const error = new TypeError(message);
  error.stack = `TypeError: ${message}\n    at render (chrome-extension://abc/chunks/${file}:1:2)`;
  return error;
};

describe('client error reporter', () => {
  it('sends the errors of a moment in one batch, each once with how often it was seen, path without query', async () => {
    vi.useFakeTimers();
    const { batches, reporter } = collecting();
    reporter.report(boom('a is undefined'));
    reporter.report(boom('a is undefined'));
    reporter.report(boom('b is undefined', 'other.js'));
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([
      expect.objectContaining({ message: 'TypeError: a is undefined', surface: 'sidepanel', version: '1.2.3', browser: 'Chrome 131', path: '/sidepanel.html', count: 2 }),
      expect.objectContaining({ message: 'TypeError: b is undefined', count: 1 }),
    ]);
  });

  it('sends the same error at most once a minute (repeats counted into its next report), and at most 10 reports a minute in all', async () => {
    vi.useFakeTimers();
    const { batches, reporter } = collecting();
    reporter.report(boom('loop'));
    await vi.advanceTimersByTimeAsync(2000);
    for (let i = 0; i < 5; i++) reporter.report(boom('loop'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(batches.flat()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    reporter.report(boom('loop'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(batches.flat().map((r) => r.count)).toEqual([1, 6]);

    for (let i = 0; i < 30; i++) reporter.report(boom(`distinct ${i}`));
    await vi.advanceTimersByTimeAsync(2000);
    // 1 sent within the last minute, so 9 more.
    expect(batches.flat().filter((r) => r.message.includes('distinct'))).toHaveLength(9);
  });

  it('scrubs e-mail addresses, tokens and addresses’ query strings, and cuts long texts', () => {
    const error = new Error('Failed for ann@example.com token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig at https://x.example/p?key=secret#frag');
    error.stack = `Error: x\n${'    at f (https://x.example/a.js?t=secret:1:1)\n'.repeat(500)}`;
    const { message, stack } = describeError(error);
    expect(message).toBe('Error: Failed for [email] token [token] at https://x.example/p');
    expect(stack).not.toContain('secret');
    expect(stack!.length).toBeLessThanOrEqual(4000);
    expect(describeError('x'.repeat(2000)).message).toHaveLength(500);
    expect(describeError({ reason: 'odd' }).message).toBe('{"reason":"odd"}');
    expect(scrubText('Bearer abc.def-ghi')).toBe('Bearer [token]');
  });

  it('names the surface and the browser without the rest of the user agent', () => {
    expect(surfaceOf({ pathname: '/sidepanel.html', protocol: 'chrome-extension:' })).toBe('sidepanel');
    expect(surfaceOf({ pathname: '/popup.html', protocol: 'chrome-extension:' })).toBe('popup');
    expect(surfaceOf({ pathname: '/admin/users', protocol: 'https:' })).toBe('admin');
    expect(surfaceOf({ pathname: '/pricing', protocol: 'https:' })).toBe('web');
    expect(browserOf('Mozilla/5.0 (X11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge 131');
    expect(browserOf('Mozilla/5.0 (X11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome 131');
    expect(browserOf('Mozilla/5.0 (X11; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox 128');
    expect(browserOf('curl/8')).toBe('Unknown');
  });

  it('never throws nor retries when the report fails', async () => {
    vi.useFakeTimers();
    const send = vi.fn(() => Promise.reject(new Error('offline')));
    const reporter = createErrorReporter({ send, surface: 'web' });
    reporter.report(new Error('x'));
    reporter.flush();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
