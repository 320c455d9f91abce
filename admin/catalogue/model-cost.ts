import type { TFunction } from 'i18next';
import type { AdminModel } from '../../shared/contracts/model.ts';

/** What a model costs, as the catalogue's rows say it: per message, or a hold and its prices per 1,000 tokens. */
export function modelCostLabel(t: TFunction, m: Pick<AdminModel, 'pointsCost' | 'tokenPrice'>): string {
  if (!m.tokenPrice) return t('adminModels.pointsPerMessage', { count: m.pointsCost });
  return t('adminModels.tokenPriceLabel', { hold: m.pointsCost, input: m.tokenPrice.inputPer1k, output: m.tokenPrice.outputPer1k });
}
