import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import moneyZh from '../../../locales/features/admin-money.zh.json';
import type { AdminVipPackage } from '../../../shared/contracts/plans.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderMoneyPage } from './render-money-page.tsx';
import { testModel } from '../../helpers/models.ts';

/** The console's plans tab: what each package unlocks (GetModelListByVipPackageId), a count and the names. */

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const pkg = (vipPackageId: string, level: number, online = true): AdminVipPackage => ({
  vipPackageId,
  name: ['Free', 'Standard', 'Advanced', 'Super'][level]!,
  level,
  period: 'month',
  prices: { usd: 999 * level },
  stripePriceIds: {},
  monthlyPoints: 1000 * level,
  bestDeal: false,
  online,
  sort: level * 10,
  createTime: '2026-11-01T00:00:00.000Z',
  updateTime: '2026-11-01T00:00:00.000Z',
});

const CATALOGUE = [testModel('mini', 0, { name: 'Mini' }), testModel('std', 1, { name: 'Std Writer' }), testModel('pro', 2, { name: 'Pro' }), testModel('ultra', 3, { name: 'Ultra' })];
const PACKAGES = [pkg('standard-month', 1), pkg('retired-advanced', 2, false), pkg('super-month', 3), pkg('broken', 1)];

const server = serveTheseTests(
  fakeApi({
    '/api/admin/Vip/GetPackageList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: PACKAGES }),
    // As the server answers an operator: packages not on sale too. 'broken' fails (a package deleted meanwhile).
    '/api/AiModel/GetModelListByVipPackageId': (_req, res, url) => {
      const id = url.searchParams.get('vipPackageId');
      const found = PACKAGES.find((p) => p.vipPackageId === id);
      if (!found || id === 'broken') return sendEnvelope(res, { Code: 10404, Msg: `There is no plan ${id} on sale.` });
      sendEnvelope(res, { Code: 10000, Data: { vipPackageId: id, level: found.level, list: CATALOGUE.filter((m) => m.minVipLevel <= found.level) } });
    },
  }),
);


/** The row of the package whose id the table shows. */
const row = (id: string) => screen.getByText(id).closest('tr')!;
const modelsOf = (id: string) => within(row(id)).queryByTestId('package-models');

describe('the plans tab: what each package unlocks', () => {
  it('shows per package how many models it unlocks and their names, offline packages too', async () => {
    await renderMoneyPage('/admin/money/plans', { apiBase: server.url, user: admin });
    const table = await screen.findByRole('table', { name: 'Plans and prices' });
    expect(within(table).getByRole('columnheader', { name: 'Models' })).toBeInTheDocument();
    await waitFor(() => expect(within(row('super-month')).queryByTestId('package-model-count')).toHaveTextContent('4 models'));
    expect(within(row('super-month')).getByTestId('package-model-names')).toHaveTextContent('Mini, Std Writer, Pro, Ultra');
    await waitFor(() => expect(within(row('standard-month')).queryByTestId('package-model-count')).toHaveTextContent('2 models'));
    expect(within(row('standard-month')).getByTestId('package-model-names')).toHaveTextContent('Mini, Std Writer');
    // Not on sale, still shown to the operator who may put it back.
    await waitFor(() => expect(within(row('retired-advanced')).queryByTestId('package-model-names')).toHaveTextContent('Mini, Std Writer, Pro'));
    expect(within(row('retired-advanced')).getByTestId('package-model-count')).toHaveTextContent('3 models');
    // A list that cannot be read says so in its row, and no other row is held up.
    await waitFor(() => expect(modelsOf('broken')).toHaveTextContent("Couldn't load the models."));
    const asked = server.requests.filter((r) => r.url.startsWith('/api/AiModel/GetModelListByVipPackageId')).map((r) => new URL(r.url, 'http://x').searchParams.get('vipPackageId'));
    expect([...new Set(asked)].sort()).toEqual(['broken', 'retired-advanced', 'standard-month', 'super-month']);
  });

  it('in Chinese: the count and the names', async () => {
    await renderMoneyPage('/admin/money/plans', { apiBase: server.url, user: admin });
    // As admin/main.tsx does: the console's Chinese strings join the shared bundle when it comes.
    const addMoneyZh = (language: string) => language === 'zh' && i18next.addResourceBundle('zh', 'translation', moneyZh, true, false);
    i18next.on('languageChanged', addMoneyZh);
    try {
      await setLanguage('zh');
    } finally {
      i18next.off('languageChanged', addMoneyZh);
    }
    await waitFor(() => expect(within(row('super-month')).queryByTestId('package-model-count')).toHaveTextContent('4 个模型'));
    expect(within(row('super-month')).getByTestId('package-model-names')).toHaveTextContent('Mini、Std Writer、Pro、Ultra');
    expect(screen.getByRole('columnheader', { name: '可用模型' })).toBeInTheDocument();
    await waitFor(() => expect(modelsOf('broken')).toHaveTextContent('无法加载模型。'));
  });
});
