import { getSettingListAll, settingValue } from './system.ts';

/** The share of starts that send the monitoring call. */
export const MONITORING_SAMPLE = 0.001;

/**
 * The anonymous monitoring call (docs/api.md#analytics): once in about a thousand starts, a GET to the
 * address the operator set (`monitoring_url`; empty, the default: never), with no cookie, no referrer
 * and nothing that tells who asks. The other starts ask nothing, not even the settings. Never fails
 * the page; answers whether the call was made.
 */
export async function sendMonitoringCall(random: () => number = Math.random): Promise<boolean> {
  if (random() >= MONITORING_SAMPLE) return false;
  try {
    const url = settingValue(await getSettingListAll(), 'monitoring_url');
    if (!url) return false;
    await fetch(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}
