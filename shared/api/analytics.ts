import { z } from 'zod';
import { AnalyticsForwardedSchema, AnalyticsStatusSchema, type AnalyticsPayload, type AnalyticsStatus } from '../contracts/analytics.ts';
import { loadPersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';
import { getDriverId } from './driver-id.ts';
import { apiGet, apiPost, getApiBase } from './request.ts';
import { UNTRACKED_PAGE } from './tracking.ts';

/**
 * Analytics through the server (docs/api.md#analytics): nothing is sent unless the operator set it up
 * (GetGoogleAnalytics) AND the user turned on "Share anonymous usage statistics" in Settings (off
 * until they do). The server forwards the event to the provider; the browser never talks to it.
 */

export const analyticsConsentPersisted = definePersisted<boolean>({
  key: 'tandem.analyticsConsent',
  version: 1,
  schema: z.boolean(),
  fallback: false,
});

let status: { base: string; answer: Promise<AnalyticsStatus> } | undefined;

/** Whether the server has analytics on; asked once per page and server (a failure is asked again next time). */
export function getAnalyticsStatus(): Promise<AnalyticsStatus> {
  const base = getApiBase();
  if (status?.base === base) return status.answer;
  const entry = { base, answer: apiGet('/api/Browser/GetGoogleAnalytics', undefined, { data: AnalyticsStatusSchema, track: false }) };
  status = entry;
  entry.answer.catch(() => {
    if (status === entry) status = undefined;
  });
  return entry.answer;
}

/** The spec's analytics payload for a page view: the address without its query string or fragment. */
export async function analyticsPayload(path: string): Promise<AnalyticsPayload> {
  return {
    page_referer: document.referrer ? document.referrer.split(/[?#]/, 1)[0] : null,
    current_url: `${window.location.origin}${path.split(/[?#]/, 1)[0]}`,
    screen_width: window.screen?.width ?? null,
    screen_height: window.screen?.height ?? null,
    platform_user_agent: navigator.userAgent,
    platform_language: navigator.language.slice(0, 35),
    browser_id: await getDriverId(),
  };
}

/** Sends a page view when the user agreed and the server has analytics on; never fails the page. Returns whether it was sent. */
export async function sendAnalyticsPageView(path: string): Promise<boolean> {
  if (path === UNTRACKED_PAGE) return false;
  try {
    if (!(await loadPersisted(analyticsConsentPersisted))) return false;
    if (!(await getAnalyticsStatus()).enabled) return false;
    const answer = await apiPost('/api/Browser/AddGoogleAnalytics', { event: 'page_view', consent: true, payload: await analyticsPayload(path) }, { data: AnalyticsForwardedSchema, track: false });
    return answer.forwarded;
  } catch {
    return false;
  }
}
