import type { CatalogueModel } from '../../../shared/contracts/model.ts';
import type { VipPackage, VipPackageList } from '../../../shared/contracts/plans.ts';
import type { Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';

/** A package of the public list as the server answers it (prices in minor units). */
export function pkg(vipPackageId: string, level: number, period: 'month' | 'year', price: number, fields: Partial<VipPackage> = {}): VipPackage {
  const name = ['Free', 'Standard', 'Advanced', 'Super'][level]!;
  const monthlyPoints = [0, 5000, 20000, 60000][level]!;
  return {
    vipPackageId,
    name,
    level,
    levelName: name,
    period,
    currency: 'usd',
    price,
    monthlyPoints,
    periodPoints: period === 'year' ? monthlyPoints * 12 : monthlyPoints,
    bestDeal: false,
    sort: level * 10 + (period === 'year' ? 1 : 0),
    ...fields,
  };
}

/** The seeded catalogue (docs/economy.md#plans) in `currency`. */
export function packageList(currency = 'usd', checkoutAvailable = true): VipPackageList {
  const prices: Record<string, number[]> = { usd: [999, 9590, 1999, 19190, 3999, 38390], cny: [6800, 65280, 13800, 132480, 26800, 257280] };
  const p = prices[currency] ?? prices.usd!;
  const list = [
    pkg('free', 0, 'month', 0),
    pkg('standard-month', 1, 'month', p[0]!),
    pkg('standard-year', 1, 'year', p[1]!),
    pkg('advanced-month', 2, 'month', p[2]!),
    pkg('advanced-year', 2, 'year', p[3]!, { bestDeal: true }),
    pkg('super-month', 3, 'month', p[4]!),
    pkg('super-year', 3, 'year', p[5]!),
  ].map((item) => ({ ...item, currency }));
  return { currency, checkoutAvailable, freeDailyPoints: 50, country: null, paymentMethods: checkoutAvailable ? ['card'] : [], list };
}

/**
 * GET /api/AiModel/GetModelListByVipPackageId as the server answers it for the packages of
 * packageList(): the models of `catalogue()` (in its order) whose level the package reaches; 10404
 * for any other id. `catalogue` is read on every request, so a test may change it between renders.
 */
export function packageModelsRoute(catalogue: () => readonly CatalogueModel[]): Route {
  return (_req, res, url) => {
    const id = url.searchParams.get('vipPackageId') ?? '';
    const found = packageList().list.find((p) => p.vipPackageId === id);
    if (!found) return sendEnvelope(res, { Code: 10404, Msg: `There is no plan ${id} on sale. Refresh the plan list and try again.` });
    sendEnvelope(res, { Code: 10000, Data: { vipPackageId: id, level: found.level, list: catalogue().filter((m) => m.minVipLevel <= found.level) } });
  };
}
