import type { PageViewPayload, RequestTimeEntry } from '../contracts/tracking.ts';
import { getDriverId } from './driver-id.ts';
import { apiPost, apiUrl, observeRequests, type RequestRecord } from './request.ts';

/** Request-time tracking constants. */
export const TRACKING_BATCH_SIZE = 10;
export const TRACKING_MIN_DURATION_MS = 100;
export const TRACKING_RETRIES = 3;
export const TRACKING_RETRY_BASE_MS = 500;

export const ADD_REQUEST_TIME_PATH = '/api/System/AddRequestTime';
export const ADD_BROWSER_PATH = '/api/Browser/AddBrowser';

export interface RequestTrackerOptions {
  /** Sends one batch; a rejection is retried. */
  send: (entries: RequestTimeEntry[]) => Promise<unknown>;
  /** Hands entries to the browser to send after the page is gone; false when it refused. */
  beacon: (entries: RequestTimeEntry[]) => boolean;
  /** What the beacon refused (or a browser without one) leaves by instead: image requests. */
  fallback?: (entries: RequestTimeEntry[]) => void;
  batchSize?: number;
  minDurationMs?: number;
  retries?: number;
  retryBaseMs?: number;
}

export interface RequestTracker {
  record(record: RequestRecord): void;
  /** Sends everything not yet delivered by beacon (queued entries and batches waiting to retry). */
  flushByBeacon(): void;
  /** Stops retries; entries not yet sent are dropped. */
  stop(): void;
}

export function toEntry(record: RequestRecord): RequestTimeEntry {
  return {
    RequestId: record.requestId,
    ClientRequestTime: record.startedAt,
    ClientResponseTime: record.endedAt,
    ClientResponseErrMsg: record.error ?? null,
  };
}

/**
 * Request-time tracking: requests of 100 ms or more are kept and sent in batches of 10;
 * a failed batch is retried up to 3 times, 500 ms after the first failure and twice as long after
 * each next one, then dropped (timings are not worth more traffic).
 */
export function createRequestTracker(options: RequestTrackerOptions): RequestTracker {
  const batchSize = options.batchSize ?? TRACKING_BATCH_SIZE;
  const minDurationMs = options.minDurationMs ?? TRACKING_MIN_DURATION_MS;
  const retries = options.retries ?? TRACKING_RETRIES;
  const retryBaseMs = options.retryBaseMs ?? TRACKING_RETRY_BASE_MS;
  let queue: RequestTimeEntry[] = [];
  /** Batches waiting for their next attempt, with the timer that will make it. */
  const waiting = new Map<RequestTimeEntry[], ReturnType<typeof setTimeout>>();

  const attempt = (batch: RequestTimeEntry[], failures: number) => {
    options.send(batch).catch(() => {
      if (failures >= retries) return;
      const timer = setTimeout(() => {
        waiting.delete(batch);
        attempt(batch, failures + 1);
      }, retryBaseMs * 2 ** failures);
      waiting.set(batch, timer);
    });
  };

  return {
    record(record) {
      if (record.endedAt - record.startedAt < minDurationMs) return;
      queue.push(toEntry(record));
      while (queue.length >= batchSize) attempt(queue.splice(0, batchSize), 0);
    },
    flushByBeacon() {
      const pending = [...waiting.keys()].flat().concat(queue);
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      queue = [];
      // The server takes a bounded list per call; beacons are small anyway.
      for (let i = 0; i < pending.length; i += batchSize) {
        const batch = pending.slice(i, i + batchSize);
        if (!options.beacon(batch)) options.fallback?.(batch);
      }
    },
    stop() {
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      queue = [];
    },
  };
}

/** A beacon carries no headers, so the body is text/plain JSON, which the server parses. */
export function sendTrackingBeacon(entries: RequestTimeEntry[]): boolean {
  if (typeof navigator.sendBeacon !== 'function') return false;
  const body = new Blob([JSON.stringify(entries)], { type: 'text/plain' });
  return navigator.sendBeacon(apiUrl(ADD_REQUEST_TIME_PATH), body);
}

/** The event type of a request-time entry sent through AddBrowser's GET form (the image fallback). */
export const REQUEST_TIME_EVENT = 'requestTime';

/**
 * The spec's image fallback on unload (product spec §7): where the browser has no beacon or refused
 * it, each entry leaves as an image request, which a page being unloaded still sends, to the GET form
 * of AddBrowser (one record per request: eventType plus the entry's fields as query parameters).
 */
export function sendTrackingImages(entries: RequestTimeEntry[]): void {
  if (typeof Image !== 'function') return;
  for (const entry of entries) {
    const query: Record<string, string> = {
      eventType: REQUEST_TIME_EVENT,
      RequestId: entry.RequestId,
      ClientRequestTime: String(entry.ClientRequestTime),
      ClientResponseTime: String(entry.ClientResponseTime),
      ...(entry.ClientResponseErrMsg ? { ClientResponseErrMsg: entry.ClientResponseErrMsg } : {}),
    };
    new Image().src = apiUrl(ADD_BROWSER_PATH, query);
  }
}

/**
 * Starts tracking this page's calls: the request helper reports every finished call, batches go
 * to AddRequestTime, and what is left when the page is hidden for good leaves by beacon (or, without
 * one, by image requests: sendTrackingImages). Returns the stop.
 */
export function startRequestTracking(target: Window = window): () => void {
  const tracker = createRequestTracker({
    send: (entries) => apiPost(ADD_REQUEST_TIME_PATH, entries, { track: false }),
    beacon: sendTrackingBeacon,
    fallback: sendTrackingImages,
  });
  const unobserve = observeRequests((record) => tracker.record(record));
  const onPageHide = () => tracker.flushByBeacon();
  target.addEventListener('pagehide', onPageHide);
  return () => {
    unobserve();
    target.removeEventListener('pagehide', onPageHide);
    tracker.stop();
  };
}

/** The path whose views are not recorded. */
export const UNTRACKED_PAGE = '/user-vip';

/**
 * Posts a page-view browser record (every navigation except /user-vip). Failures are
 * logged, never shown: a lost page view must not disturb the user.
 */
export async function recordPageView(path: string, extra: Pick<PageViewPayload, 'clientFrom' | 'inviteCode'> = {}): Promise<void> {
  if (path === UNTRACKED_PAGE) return;
  try {
    const payload: PageViewPayload = {
      platformUserAgent: navigator.userAgent,
      platformDeviceId: await getDriverId(),
      currentUrl: window.location.href,
      platformBrowserLanguage: navigator.language,
      referer: document.referrer,
      ...extra,
    };
    await apiPost(ADD_BROWSER_PATH, [{ event: { eventType: 'pageView' }, payload }], { track: false });
  } catch (error) {
    console.error('page view not recorded', error);
  }
}
