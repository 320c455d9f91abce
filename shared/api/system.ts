import { SettingListSchema, type Setting } from '../contracts/system.ts';
import { apiGet, getApiBase } from './request.ts';

/** GetSettingListAll is cached for 5 minutes. */
export const SETTINGS_CACHE_MS = 5 * 60_000;

let cached: { base: string; at: number; settings: Promise<Setting[]> } | undefined;

/**
 * The public system settings (login_page_url, vip_url, ...). Callers within 5 minutes share one
 * answer (and one request while it is in flight); a failure is not kept, so the next call retries,
 * and a change of server (setApiBase) starts afresh.
 */
export function getSettingListAll(now: number = Date.now()): Promise<Setting[]> {
  const base = getApiBase();
  if (cached && cached.base === base && now - cached.at < SETTINGS_CACHE_MS) return cached.settings;
  const entry = {
    base,
    at: now,
    settings: apiGet('/api/System/GetSettingListAll', undefined, { data: SettingListSchema }),
  };
  cached = entry;
  entry.settings.catch(() => {
    if (cached === entry) cached = undefined;
  });
  return entry.settings;
}

/** The value of one setting, or undefined when the server does not list it. */
export function settingValue(settings: readonly Setting[], key: string): string | undefined {
  return settings.find((s) => s.settingKey === key)?.settingValue;
}
