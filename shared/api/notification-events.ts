import { Codes } from '../contracts/envelope.ts';
import { UnreadEventSchema } from '../contracts/notifications.ts';
import { adoptRenewedToken, apiUrl, requestHeaders } from './request.ts';
import { sseEvents } from './sse.ts';

/**
 * The live unread count (GET /api/UserNotification/Events, docs/api.md#notification-events), read
 * with fetch (an EventSource cannot send the Authorization header) and the SSE reader. The server
 * sends the count when the stream opens, on every change and as a heartbeat every 25 s.
 */

export interface UnreadStreamTiming {
  /** The first wait before opening again after a failure; it doubles with each failure in a row. */
  firstRetryMs: number;
  /** The longest wait (and the wait after a refusal for too many open streams). */
  maxRetryMs: number;
  /** A stream that sends nothing this long (the server beats every 25 s) is taken as dropped. */
  silenceMs: number;
}

export const UNREAD_STREAM_TIMING: UnreadStreamTiming = { firstRetryMs: 1_000, maxRetryMs: 60_000, silenceMs: 70_000 };

export interface FollowUnreadOptions {
  /** The login the stream is opened with. */
  token: string;
  /** Each count the server sends (repeats included: the heartbeat). */
  onCount: (unread: number) => void;
  /** True while a stream is open and sending; false once it dropped, or when one could not be opened. */
  onLive?: (live: boolean) => void;
  /** Stops following (a logout, the page going away). */
  signal: AbortSignal;
  timing?: UnreadStreamTiming;
}

/**
 * How one stream ended: `ended` after it sent counts (opened again at once), `failed` (the network,
 * the server's fault: opened again with backoff), `busy` (too many streams of this user: the longest
 * wait), `stop` (no login, or a server without the stream: never opened again).
 */
type Outcome = 'ended' | 'failed' | 'busy' | 'stop';

/** Opens one stream and reads it to its end. */
async function readOnce(options: FollowUnreadOptions, timing: UnreadStreamTiming): Promise<Outcome> {
  const connection = new AbortController();
  const stopConnection = () => connection.abort();
  options.signal.addEventListener('abort', stopConnection, { once: true });
  let silence: ReturnType<typeof setTimeout> | undefined;
  const listen = () => {
    clearTimeout(silence);
    silence = setTimeout(stopConnection, timing.silenceMs);
  };
  let received = false;
  try {
    const headers = await requestHeaders(options.token);
    headers.set('Accept', 'text/event-stream');
    listen();
    const response = await fetch(apiUrl('/api/UserNotification/Events'), { headers, signal: connection.signal });
    await adoptRenewedToken(response);
    if (!response.ok) return 'failed';
    if (!response.headers.get('Content-Type')?.includes('text/event-stream') || !response.body) {
      // A refusal comes as an envelope.
      const code = ((await response.json().catch(() => null)) as { Code?: unknown } | null)?.Code;
      if (code === Codes.RateLimited) return 'busy';
      return code === Codes.NotLoggedIn || code === Codes.Forbidden || code === Codes.NotFound ? 'stop' : 'failed';
    }
    for await (const event of sseEvents(response.body)) {
      listen();
      let parsed: ReturnType<typeof UnreadEventSchema.safeParse>;
      try {
        parsed = UnreadEventSchema.safeParse(JSON.parse(event));
      } catch {
        continue;
      }
      if (!parsed.success) continue;
      if (!received) options.onLive?.(true);
      received = true;
      options.onCount(parsed.data.unread);
    }
    return received ? 'ended' : 'failed';
  } catch {
    return received ? 'ended' : 'failed';
  } finally {
    clearTimeout(silence);
    options.signal.removeEventListener('abort', stopConnection);
    connection.abort();
    if (received) options.onLive?.(false);
  }
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Follows the user's unread count until `signal` aborts: opens the stream, and opens it again when
 * it ends or drops, after a short pause when it had been sending, else after a wait that doubles
 * with each failure in a row (up to `maxRetryMs`, with jitter so clients do not come back together
 * after a restart). Stops for good when the server refuses the login or has no stream.
 */
export async function followUnreadCount(options: FollowUnreadOptions): Promise<void> {
  const timing = options.timing ?? UNREAD_STREAM_TIMING;
  let failures = 0;
  while (!options.signal.aborted) {
    const outcome = await readOnce(options, timing);
    // One that sent counts said so as it ended (readOnce); one that never opened says it here.
    if (outcome !== 'ended' && !options.signal.aborted) options.onLive?.(false);
    if (outcome === 'stop' || options.signal.aborted) return;
    failures = outcome === 'ended' ? 0 : failures + 1;
    const base = outcome === 'busy' ? timing.maxRetryMs : outcome === 'ended' ? timing.firstRetryMs : Math.min(timing.maxRetryMs, timing.firstRetryMs * 2 ** (failures - 1));
    await wait(base * (0.5 + Math.random() / 2), options.signal);
  }
}
