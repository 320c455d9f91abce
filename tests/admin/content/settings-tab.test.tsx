import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { SettingsTab } from '../../../admin/content/settings-tab.tsx';
import { settingKind, settingProblem } from '../../../admin/content/setting-rules.ts';
import type { AdminSetting } from '../../../shared/contracts/system.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const setting = (settingKey: string, valueType: AdminSetting['valueType'], defaultValue: string | null, fields: Partial<AdminSetting> = {}): AdminSetting => ({
  settingKey,
  settingValue: defaultValue ?? '',
  isDefault: true,
  public: true,
  description: `What ${settingKey} does.`,
  descriptionZh: '',
  valueType,
  min: null,
  max: null,
  readOnly: false,
  defaultValue,
  updateTime: null,
  ...fields,
});

let settings: AdminSetting[];

const server = serveTheseTests(
  fakeApi({
    '/api/admin/System/GetSettingList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: settings }),
    '/api/admin/System/SaveSetting': (req, res) => {
      const { settingKey, settingValue } = JSON.parse(req.body) as { settingKey: string; settingValue: string };
      settings = settings.map((s) => (s.settingKey === settingKey ? { ...s, settingValue, isDefault: false, updateTime: '2026-11-25T10:00:00.000Z' } : s));
      return sendEnvelope(res, { Code: 10000, Data: settings.find((s) => s.settingKey === settingKey) });
    },
    '/api/admin/AiModel/GetList': (_req, res) =>
      sendEnvelope(res, {
        Code: 10000,
        Data: {
          total: 2,
          list: [
            { aiModelId: 'basic-model', name: 'Basic', online: true },
            { aiModelId: 'old-model', name: 'Old', online: false },
          ],
        },
      }),
    '/api/admin/System/DeleteSetting': (req, res) => {
      const { settingKey } = JSON.parse(req.body) as { settingKey: string };
      settings = settings.map((s) => (s.settingKey === settingKey ? { ...s, settingValue: s.defaultValue ?? '', isDefault: true, updateTime: null } : s));
      return sendEnvelope(res, { Code: 10000, Data: settings.find((s) => s.settingKey === settingKey) });
    },
  }),
);
const saved = () => server.requests.filter((r) => r.url === '/api/admin/System/SaveSetting').map((r) => JSON.parse(r.body) as unknown);

beforeEach(() => {
  settings = [
    setting('product_name', 'text', 'Tandem'),
    setting('vip_url', 'url', 'http://localhost/pricing'),
    setting('invite_points', 'integer', '100', { min: 0, max: 1_000_000 }),
    setting('plan_points_expire', 'boolean', 'false', { public: false }),
    setting('extension_ids', 'list', 'abc,def', { readOnly: true }),
    setting('translation_model', 'model', '', { public: false }),
  ];
});

const rowOf = async (key: string) => (await screen.findByText(key, { selector: 'p' })).closest('tr')!;

describe('settingProblem', () => {
  it('applies the rules of each kind of setting, as the server does', () => {
    const url = setting('vip_url', 'url', 'http://x/p');
    const number = setting('checkin_points', 'integer', '10', { min: 1, max: 1000 });
    const flag = setting('plan_points_expire', 'boolean', 'false');
    const text = setting('product_name', 'text', 'Tandem');
    const list = setting('allowed_ids', 'list', '');
    expect([url, number, flag, text, list].map(settingKind)).toEqual(['url', 'integer', 'boolean', 'text', 'list']);
    expect(settingProblem(url, 'javascript:alert(1)')).toBe('url');
    expect(settingProblem(url, '')).toBe('url');
    expect(settingProblem(url, 'https://example.com/plans')).toBeNull();
    expect(settingProblem(number, '12.5')).toBe('integer');
    expect(settingProblem(number, '-3')).toBe('integer');
    expect(settingProblem(number, '0')).toBe('range');
    expect(settingProblem(number, '1001')).toBe('range');
    expect(settingProblem(number, '250')).toBeNull();
    expect(settingProblem(list, 'a,,b')).toBe('list');
    expect(settingProblem(list, 'a, b')).toBeNull();
    expect(settingProblem(flag, 'yes')).toBe('boolean');
    expect(settingProblem(text, 'x'.repeat(4001))).toBe('tooLong');
    expect(settingProblem(text, 'a\u0000b')).toBe('invalidCharacters');
    expect(settingProblem(text, 'Tandem Pro')).toBeNull();
  });
});

describe('SettingsTab', () => {
  it('shows every key with its description, and refuses a bad value without asking the server', async () => {
    await renderInApp(<SettingsTab />, { apiBase: server.url, user: admin });
    const row = await rowOf('vip_url');
    expect(row).toHaveTextContent('What vip_url does.');
    const input = within(row).getByRole('textbox', { name: 'vip_url' });
    await userEvent.clear(input);
    await userEvent.type(input, 'not an address');
    await userEvent.click(within(row).getByRole('button', { name: 'Save vip_url' }));
    expect(await within(row).findByText('An http(s) address. To go back to the default, use Reset.')).toBeVisible();
    expect(saved()).toEqual([]);

    const points = within(await rowOf('invite_points')).getByRole('textbox', { name: 'invite_points' });
    await userEvent.clear(points);
    await userEvent.type(points, 'ten');
    await userEvent.click(screen.getByRole('button', { name: 'Save invite_points' }));
    expect(await screen.findByText('A whole number (digits only).')).toBeVisible();
    expect(saved()).toEqual([]);
  });

  it('shows a setting the environment sets, without a way to change it', async () => {
    await renderInApp(<SettingsTab />, { apiBase: server.url, user: admin });
    const row = await rowOf('extension_ids');
    expect(row).toHaveTextContent('From the environment');
    expect(within(row).getByRole('textbox', { name: 'extension_ids' })).toHaveAttribute('readonly');
    expect(within(row).queryByRole('button')).toBeNull();
  });

  it('saves a valid value, then offers to reset it to the default', async () => {
    await renderInApp(<SettingsTab />, { apiBase: server.url, user: admin });
    const input = within(await rowOf('vip_url')).getByRole('textbox', { name: 'vip_url' });
    await userEvent.clear(input);
    await userEvent.type(input, 'https://example.com/plans');
    await userEvent.click(screen.getByRole('button', { name: 'Save vip_url' }));
    await waitFor(() => expect(saved()).toEqual([{ settingKey: 'vip_url', settingValue: 'https://example.com/plans' }]));
    await userEvent.click(await screen.findByRole('button', { name: 'Reset vip_url' }));
    await waitFor(() => expect(within(screen.getByText('vip_url', { selector: 'p' }).closest('tr')!).getByRole('textbox', { name: 'vip_url' })).toHaveValue('http://localhost/pricing'));

    await userEvent.click(within(await rowOf('plan_points_expire')).getByRole('switch', { name: 'plan_points_expire' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save plan_points_expire' }));
    await waitFor(() => expect(saved()).toContainEqual({ settingKey: 'plan_points_expire', settingValue: 'true' }));
  });

  it('shows a model setting (translation_model) by the catalogue model it names, automatic when empty', async () => {
    await renderInApp(<SettingsTab />, { apiBase: server.url, user: admin });
    const select = within(await rowOf('translation_model')).getByRole('combobox', { name: 'translation_model' });
    expect(select).toHaveValue('Automatic: the cheapest basic model');
    await waitFor(() => expect(select).toBeEnabled());
  });
});
