import { afterEach, expect, it, vi } from 'vitest';
import type { Setting } from '../../../shared/contracts/system.ts';

const settings = vi.hoisted(() => ({ list: [] as Setting[], asked: 0 }));
vi.mock('../../../shared/api/system.ts', async (original) => ({
  ...(await original<typeof import('../../../shared/api/system.ts')>()),
  getSettingListAll: () => {
    settings.asked++;
    return Promise.resolve(settings.list);
  },
}));

const { MONITORING_SAMPLE, sendMonitoringCall } = await import('../../../shared/api/monitoring.ts');

afterEach(() => {
  vi.unstubAllGlobals();
  settings.asked = 0;
});

const setting = (settingValue: string): Setting => ({ settingKey: 'monitoring_url', settingValue }) as Setting;

it('asks nothing on the starts outside the sample', async () => {
  const fetch = vi.fn();
  vi.stubGlobal('fetch', fetch);
  settings.list = [setting('https://cdn.example.test/ping.gif')];
  expect(await sendMonitoringCall(() => MONITORING_SAMPLE)).toBe(false);
  expect(await sendMonitoringCall(() => 0.5)).toBe(false);
  expect(fetch).not.toHaveBeenCalled();
  expect(settings.asked).toBe(0);
});

it('in the sample, calls the address the operator set, anonymously; without one, nothing', async () => {
  const fetch = vi.fn(() => Promise.resolve(new Response(null)));
  vi.stubGlobal('fetch', fetch);
  settings.list = [setting('')];
  expect(await sendMonitoringCall(() => 0)).toBe(false);
  expect(fetch).not.toHaveBeenCalled();

  settings.list = [setting('https://cdn.example.test/ping.gif')];
  expect(await sendMonitoringCall(() => MONITORING_SAMPLE / 2)).toBe(true);
  expect(fetch).toHaveBeenCalledWith('https://cdn.example.test/ping.gif', expect.objectContaining({ method: 'GET', credentials: 'omit', referrerPolicy: 'no-referrer', mode: 'no-cors' }));

  // A failed call never fails the page.
  vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))));
  expect(await sendMonitoringCall(() => 0)).toBe(false);
});
