import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api, type RequestOptions } from '../helpers/api.ts';
import { createAdmin, createUser } from '../helpers/users.ts';

describe('system settings', () => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;

  const get = async (url: string, options: RequestOptions = {}, token?: string) => {
    const res = await api(t.app, token).get(url, options);
    expect(res.statusCode).toBe(200);
    return res;
  };
  const adminPost = async (url: string, payload: unknown, options: RequestOptions = {}) => {
    const res = await api(t.app, adminToken).post(url, payload, options);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const publicList = async () => {
    const body = (await get('/api/System/GetSettingListAll')).json();
    expect(body.Code).toBe(10000);
    return Object.fromEntries((body.Data as { settingKey: string; settingValue: string }[]).map((s) => [s.settingKey, s.settingValue]));
  };

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://chat.example.com/' });
    adminToken = (await createAdmin(t.app)).token;
    userToken = (await createUser(t.app)).token;
  });
  afterAll(() => t.close());

  it('lists the public settings with defaults derived from PUBLIC_URL, cacheable for 5 minutes', async () => {
    const res = await get('/api/System/GetSettingListAll');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.json()).toEqual({
      Code: 10000,
      Msg: '',
      Data: [
        { settingKey: 'product_name', settingValue: 'Tandem' },
        { settingKey: 'login_page_url', settingValue: 'https://chat.example.com/login' },
        { settingKey: 'vip_url', settingValue: 'https://chat.example.com/pricing' },
        { settingKey: 'web_search_provider', settingValue: '' },
        { settingKey: 'extension_ids', settingValue: 'hhnidkcejghlkbldejpjheplacdjkpkf' },
        { settingKey: 'monitoring_url', settingValue: '' },
        { settingKey: 'chrome_download_url', settingValue: 'https://chat.example.com/downloads/tandem-chrome.zip' },
        { settingKey: 'edge_download_url', settingValue: 'https://chat.example.com/downloads/tandem-edge.zip' },
        { settingKey: 'firefox_download_url', settingValue: 'https://chat.example.com/downloads/tandem-firefox.zip' },
        { settingKey: 'chrome_store_url', settingValue: '' },
        { settingKey: 'edge_store_url', settingValue: '' },
        { settingKey: 'firefox_store_url', settingValue: '' },
        { settingKey: 'invite_points', settingValue: '100' },
        { settingKey: 'checkin_points', settingValue: '10' },
        { settingKey: 'checkin_streak_bonus', settingValue: '0' },
      ],
    });
  });

  it('answers one public setting by key, and its bare value', async () => {
    const one = (await get('/api/System/GetSettingByKey?settingKey=vip_url')).json();
    expect(one).toEqual({ Code: 10000, Msg: '', Data: { settingKey: 'vip_url', settingValue: 'https://chat.example.com/pricing' } });
    const value = (await get('/api/System/GetSettingValueByKey?settingKey=login_page_url')).json();
    expect(value.Data).toBe('https://chat.example.com/login');
  });

  it('answers unknown keys as not found and malformed keys as bad input, in the caller language', async () => {
    const unknown = (await get('/api/System/GetSettingByKey?settingKey=no_such_key')).json();
    expect(unknown).toMatchObject({ Code: 10404, Msg: 'There is no setting named no_such_key.', Data: null });
    const bad = (await get('/api/System/GetSettingValueByKey?settingKey=Bad-Key', { lang: 'zh-CN' })).json();
    expect(bad.Code).toBe(10400);
    expect(bad.Msg).toContain('设置键须为');
    const missing = (await get('/api/System/GetSettingByKey')).json();
    expect(missing.Code).toBe(10400);
  });

  it('lets an admin override a setting, which every client then sees, and delete it back to the default', async () => {
    const saved = await adminPost('/api/admin/System/SaveSetting', { settingKey: 'vip_url', settingValue: ' https://pay.example.com/plans ' });
    expect(saved.Code).toBe(10000);
    expect(saved.Data).toMatchObject({ settingKey: 'vip_url', settingValue: 'https://pay.example.com/plans', isDefault: false, public: true });
    expect((await publicList()).vip_url).toBe('https://pay.example.com/plans');
    expect((await get('/api/System/GetSettingValueByKey?settingKey=vip_url')).json().Data).toBe('https://pay.example.com/plans');

    const again = await adminPost('/api/admin/System/SaveSetting', { settingKey: 'vip_url', settingValue: 'http://pay.example.com/v2' });
    expect(again.Data.settingValue).toBe('http://pay.example.com/v2');

    const deleted = await adminPost('/api/admin/System/DeleteSetting', { settingKey: 'vip_url' });
    expect(deleted.Data).toMatchObject({ settingKey: 'vip_url', settingValue: 'https://chat.example.com/pricing', isDefault: true, updateTime: null });
    expect((await publicList()).vip_url).toBe('https://chat.example.com/pricing');
  });

  it('keeps operator-defined keys private: listed to admins only', async () => {
    const saved = await adminPost('/api/admin/System/SaveSetting', { settingKey: 'support_note', settingValue: 'internal' });
    expect(saved.Data).toMatchObject({ settingKey: 'support_note', public: false, isDefault: false, defaultValue: null });
    expect(await publicList()).not.toHaveProperty('support_note');
    expect((await get('/api/System/GetSettingByKey?settingKey=support_note')).json().Code).toBe(10404);

    const list = (await get('/api/admin/System/GetSettingList', {}, adminToken)).json();
    expect(list.Code).toBe(10000);
    const keys = list.Data.map((s: { settingKey: string }) => s.settingKey);
    expect(keys).toEqual(['product_name', 'login_page_url', 'vip_url', 'web_search_provider', 'extension_ids', 'monitoring_url', 'chrome_download_url', 'edge_download_url', 'firefox_download_url', 'chrome_store_url', 'edge_store_url', 'firefox_store_url', 'invite_points', 'invite_daily_cap', 'invite_min_spend', 'require_verified_email_for_invite_reward', 'checkin_points', 'checkin_streak_bonus', 'plan_points_expire', 'translation_model', 'translation_points_per_1k_chars', 'support_note']);
    expect(list.Data[0]).toMatchObject({ isDefault: true, defaultValue: 'Tandem', public: true });

    expect((await adminPost('/api/admin/System/DeleteSetting', { settingKey: 'support_note' })).Data).toBeNull();
    const second = await adminPost('/api/admin/System/DeleteSetting', { settingKey: 'support_note' });
    expect(second.Code).toBe(10404);
  });

  it('keeps extension_ids to the environment: a save is refused and nothing stored overrides it', async () => {
    const refused = await adminPost('/api/admin/System/SaveSetting', { settingKey: 'extension_ids', settingValue: 'abcdefghijklmnopabcdefghijklmnop' });
    expect(refused).toMatchObject({ Code: 10400, Data: null });
    expect(refused.Msg).toContain('EXTENSION_IDS');
    const one = (await get('/api/System/GetSettingByKey?settingKey=extension_ids')).json();
    expect(one.Data).toEqual({ settingKey: 'extension_ids', settingValue: 'hhnidkcejghlkbldejpjheplacdjkpkf' });
  });

  it('validates saved settings: key format, value length, http(s) for _url keys', async () => {
    const cases: [unknown, string][] = [
      [{ settingKey: 'Vip-Url', settingValue: 'x' }, 'settingKey'],
      [{ settingKey: 'x'.repeat(65), settingValue: 'x' }, 'settingKey'],
      [{ settingKey: 'note', settingValue: 'x'.repeat(4001) }, 'settingValue'],
      [{ settingKey: 'vip_url', settingValue: 'javascript:alert(1)' }, 'settingValue'],
      [{ settingKey: 'login_page_url', settingValue: 'not a url' }, 'settingValue'],
      [{ settingKey: 'note' }, 'settingValue'],
    ];
    for (const [payload, field] of cases) {
      const res = await adminPost('/api/admin/System/SaveSetting', payload);
      expect(res.Code, JSON.stringify(payload)).toBe(10400);
      expect(res.Msg).toContain(field);
    }
    const zh = await adminPost('/api/admin/System/SaveSetting', { settingKey: 'vip_url', settingValue: 'ftp://x' }, { lang: 'zh' });
    expect(zh.Msg).toContain('以 _url 结尾的设置必须是');
    expect((await publicList()).vip_url).toBe('https://chat.example.com/pricing');
  });

  it('refuses the admin setting calls to normal users', async () => {
    const res = await api(t.app, userToken).post('/api/admin/System/SaveSetting', { settingKey: 'vip_url', settingValue: 'https://evil.example.com' });
    expect(res.json()).toMatchObject({ Code: 10403, Data: null });
    expect((await publicList()).vip_url).toBe('https://chat.example.com/pricing');
  });
});
