import type { Config } from '../config.ts';

/** One GA4 Measurement Protocol event, as the server forwards it. */
export type Ga4Event = { name: string; params: Record<string, string | number> };

export type Ga4Hit = {
  clientId: string;
  events: Ga4Event[];
  /** device fields the Measurement Protocol reads (language, screen_resolution). */
  device?: Record<string, string>;
};

/** Whether analytics is set up: both the measurement id and the API secret. */
export const analyticsConfigured = (config: Pick<Config, 'GA_MEASUREMENT_ID' | 'GA_API_SECRET'>) => !!config.GA_MEASUREMENT_ID && !!config.GA_API_SECRET;

/**
 * Sends one hit to GA4's Measurement Protocol (GA_ENDPOINT). Throws when the provider cannot be
 * reached in time or refuses it; the API secret travels only here, in the query as GA4 wants it.
 */
export async function sendGa4(config: Pick<Config, 'GA_MEASUREMENT_ID' | 'GA_API_SECRET' | 'GA_ENDPOINT'>, hit: Ga4Hit): Promise<void> {
  if (!analyticsConfigured(config)) throw new Error('analytics is not configured');
  const url = new URL(config.GA_ENDPOINT);
  url.searchParams.set('measurement_id', config.GA_MEASUREMENT_ID!);
  url.searchParams.set('api_secret', config.GA_API_SECRET!);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: hit.clientId,
      // Only what the user agreed to: measurement, never advertising.
      consent: { ad_user_data: 'DENIED', ad_personalization: 'DENIED' },
      ...(hit.device ? { device: hit.device } : {}),
      events: hit.events,
    }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`the analytics provider answered HTTP ${res.status}`);
  await res.body?.cancel();
}
