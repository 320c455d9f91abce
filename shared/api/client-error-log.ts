import { CLIENT_ERROR_LIMITS, type ClientErrorReportInput, type ClientErrorSurface } from '../contracts/client-error-log.ts';
import { pathOnly, scrubText } from '../utils/scrub.ts';
import { apiPost } from './request.ts';

/**
 * The client error log (docs/api.md#client-error-log): every surface reports its uncaught errors
 * (window errors, unhandled promise rejections, screens the error boundary caught; listened for by
 * shared/api/client-error-capture.ts, which loads this module after start-up), scrubbed of
 * personal data, in small batches, each distinct error at most once a minute, and at most
 * CLIENT_ERRORS_PER_MINUTE reports a minute in all: a page in an error loop costs little.
 */

export const ADD_CLIENT_ERROR_PATH = '/api/Log/AddClientError';
export const CLIENT_ERRORS_PER_MINUTE = 10;
/** Errors seen within this long go in one batch. */
export const CLIENT_ERROR_BATCH_MS = 2000;
const MINUTE_MS = 60_000;

export interface ErrorReporterOptions {
  send: (reports: ClientErrorReportInput[]) => Promise<unknown>;
  surface: ClientErrorSurface;
  version?: string | null;
  browser?: string | null;
  /** The page's address (its path alone is sent). */
  location?: () => string;
  now?: () => number;
  perMinute?: number;
  batchMs?: number;
}

export interface ErrorReporter {
  report(error: unknown): void;
  /** Sends what waits now. */
  flush(): void;
  stop(): void;
}

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The message and stack of anything thrown, scrubbed and cut to the server's limits. */
export function describeError(error: unknown): { message: string; stack: string | null } {
  const raw =
    error instanceof Error ? `${error.name && !error.message.startsWith(error.name) ? `${error.name}: ` : ''}${error.message}` : typeof error === 'string' ? error : safeJson(error);
  const stack = error instanceof Error && error.stack ? cut(scrubText(error.stack), CLIENT_ERROR_LIMITS.stack) : null;
  return { message: cut(scrubText(raw || 'Error'), CLIENT_ERROR_LIMITS.message), stack };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const now = options.now ?? Date.now;
  const perMinute = options.perMinute ?? CLIENT_ERRORS_PER_MINUTE;
  const batchMs = options.batchMs ?? CLIENT_ERROR_BATCH_MS;
  const pending = new Map<string, ClientErrorReportInput & { count: number }>();
  /** When each distinct error was last sent, and how often it was seen since. */
  const sent = new Map<string, { at: number; since: number }>();
  let window: number[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || pending.size === 0) return;
    const batch = [...pending.values()].slice(0, CLIENT_ERROR_LIMITS.perCall);
    pending.clear();
    // A failed report is not retried: error reports must never add to a failing page's traffic.
    options.send(batch).catch(() => undefined);
  };

  return {
    report(error) {
      if (stopped) return;
      const { message, stack } = describeError(error);
      const key = `${message}\n${stack?.split('\n')[1] ?? ''}`;
      const queued = pending.get(key);
      if (queued) {
        queued.count++;
        return;
      }
      const t = now();
      const last = sent.get(key);
      if (last && t - last.at < MINUTE_MS) {
        last.since++;
        return;
      }
      window = window.filter((at) => t - at < MINUTE_MS);
      if (window.length >= perMinute) return;
      window.push(t);
      sent.set(key, { at: t, since: 0 });
      pending.set(key, {
        message,
        stack,
        surface: options.surface,
        version: options.version ?? null,
        browser: options.browser ?? null,
        path: options.location ? cut(pathOnly(options.location()), CLIENT_ERROR_LIMITS.path) : null,
        count: 1 + (last?.since ?? 0),
      });
      if (pending.size >= CLIENT_ERROR_LIMITS.perCall) flush();
      else timer ??= setTimeout(flush, batchMs);
    },
    flush,
    stop() {
      if (timer) clearTimeout(timer);
      stopped = true;
    },
  };
}

/** Which surface this page is, from its address: the extension's pages by file, the console by path. */
export function surfaceOf(location: Pick<Location, 'pathname' | 'protocol'>): ClientErrorSurface {
  if (location.pathname.endsWith('/sidepanel.html')) return 'sidepanel';
  if (location.pathname.endsWith('/popup.html')) return 'popup';
  if (location.pathname === '/admin' || location.pathname.startsWith('/admin/')) return 'admin';
  return 'web';
}

/** The browser's name and major version (Chrome, Edge, Firefox, Safari; else Unknown), nothing more of the user agent. */
export function browserOf(userAgent: string): string {
  const found = [/Edg\/(\d+)/, /Firefox\/(\d+)/, /Chrome\/(\d+)/, /Version\/(\d+).*Safari/].map((re) => re.exec(userAgent));
  const names = ['Edge', 'Firefox', 'Chrome', 'Safari'];
  const i = found.findIndex(Boolean);
  return i < 0 ? 'Unknown' : `${names[i]} ${found[i]![1]}`;
}

/**
 * The reporter of one surface, fed by the capture that listens from start-up
 * (shared/api/client-error-capture.ts, which loads this module once the app has started); its batch
 * is sent when the page is hidden.
 */
export function attachReporter(target: Window, version: string | null): { report: (error: unknown) => void; stop: () => void } {
  const reporter = createErrorReporter({
    send: (reports) => apiPost(ADD_CLIENT_ERROR_PATH, reports, { track: false }),
    surface: surfaceOf(target.location),
    version,
    browser: browserOf(target.navigator.userAgent),
    location: () => target.location.href,
  });
  const onHide = () => reporter.flush();
  target.addEventListener('pagehide', onHide);
  return {
    report: (error) => reporter.report(error),
    stop() {
      target.removeEventListener('pagehide', onHide);
      reporter.stop();
    },
  };
}
