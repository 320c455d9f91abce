import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TranslationsTab } from '../../../admin/content/translations-tab.tsx';
import type { AdminTranslation } from '../../../shared/contracts/translations.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

let entries: AdminTranslation[];
const entry = (key: string, en: string, zh: string): AdminTranslation => ({ key, builtIn: { en, zh }, override: { en: null, zh: null }, updateTime: null });

const server = serveTheseTests(
  fakeApi({
    '/api/admin/Language/GetList': (_req, res, url) => {
      const search = url.searchParams.get('search')?.toLowerCase() ?? '';
      const list = entries.filter((e) => e.key.toLowerCase().includes(search) || e.builtIn.en?.toLowerCase().includes(search));
      return sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/admin/Language/Save': (req, res) => {
      const { key, language, value } = JSON.parse(req.body) as { key: string; language: 'en' | 'zh'; value: string };
      entries = entries.map((e) => (e.key === key ? { ...e, override: { ...e.override, [language]: value }, updateTime: '2026-12-01T00:00:00.000Z' } : e));
      return sendEnvelope(res, { Code: 10000, Data: entries.find((e) => e.key === key) });
    },
    '/api/admin/Language/Reset': (req, res) => {
      const { key, language } = JSON.parse(req.body) as { key: string; language: 'en' | 'zh' };
      entries = entries.map((e) => (e.key === key ? { ...e, override: { ...e.override, [language]: null } } : e));
      return sendEnvelope(res, { Code: 10000, Data: entries.find((e) => e.key === key) });
    },
  }),
);
const calls = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as unknown);

beforeAll(prepareDataTables);
beforeEach(() => {
  entries = [entry('chat.notLoginTip', 'Please Login', '请登录'), entry('chat.sider.deleteConfirm', '“{{title}}” will be deleted.', '将删除“{{title}}”。')];
});

describe('TranslationsTab', () => {
  it('lists the keys with both languages and searches them', async () => {
    await renderInApp(<TranslationsTab />, { apiBase: server.url, user: admin });
    const table = await screen.findByRole('table', { name: 'Translations' });
    expect(await within(table).findByText('chat.notLoginTip')).toBeVisible();
    expect(within(table).getByText('请登录')).toBeVisible();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'deleted');
    await waitFor(() => expect(within(table).queryByText('chat.notLoginTip')).toBeNull());
    expect(within(table).getByText('chat.sider.deleteConfirm')).toBeVisible();
  });

  it('refuses an override that drops a placeholder, with a clear message, without asking the server', async () => {
    await renderInApp(<TranslationsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit chat.sider.deleteConfirm' }));
    const dialog = await screen.findByRole('dialog');
    const english = within(dialog).getByRole('textbox', { name: 'Text in English' });
    await userEvent.clear(english);
    await userEvent.type(english, 'This chat goes away.');
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Save' })[0]!);
    expect(await within(dialog).findByText('Keep the placeholders of the built-in string: it has {{title}}, yours has —.')).toBeVisible();
    expect(calls('/api/admin/Language/Save')).toEqual([]);
  });

  it('saves an override per language, marks it, and resets it to the built-in string', async () => {
    await renderInApp(<TranslationsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit chat.notLoginTip' }));
    const dialog = await screen.findByRole('dialog');
    const chinese = within(dialog).getByRole('textbox', { name: 'Text in Chinese' });
    await userEvent.clear(chinese);
    await userEvent.type(chinese, '请先登录');
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Save' })[1]!);
    await waitFor(() => expect(calls('/api/admin/Language/Save')).toEqual([{ key: 'chat.notLoginTip', language: 'zh', value: '请先登录' }]));
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Reset to built-in' }));
    await waitFor(() => expect(calls('/api/admin/Language/Reset')).toEqual([{ key: 'chat.notLoginTip', language: 'zh' }]));
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Text in Chinese' })).toHaveValue('请登录'));
  });
});
