import type { Language } from '../../../shared/contracts/common.ts';
import { VIP_LEVEL_NAMES } from '../../../shared/contracts/model.ts';
import { VipPeriodSchema, type VipDateType, type VipLevelItem, type VipPeriod } from '../../../shared/contracts/plans.ts';
import { t, type MessageKey } from '../../core/i18n.ts';
import { periodMonths } from './plans.ts';

/**
 * The plan levels and billing periods the server knows, named in the caller's language: derived from
 * the levels the catalogue uses (VIP_LEVEL_NAMES, 0 Free to 3 Super) and the periods a package is sold
 * for (VipPeriodSchema), so a new level or period shows up here with no table to keep in step.
 */

const LEVEL_KEYS: Record<(typeof VIP_LEVEL_NAMES)[number], MessageKey> = {
  Free: 'vipLevelFree',
  Standard: 'vipLevelStandard',
  Advanced: 'vipLevelAdvanced',
  Super: 'vipLevelSuper',
};

const PERIOD_KEYS: Record<VipPeriod, MessageKey> = { month: 'vipPeriodMonth', year: 'vipPeriodYear' };

/** Levels 0 to 3, lowest first. */
export function listVipLevels(lang: Language): VipLevelItem[] {
  return VIP_LEVEL_NAMES.map((name, level) => ({ level, name: t(lang, LEVEL_KEYS[name]) }));
}

/** The billing periods, shortest first, with the months each covers. */
export function listVipDateTypes(lang: Language): VipDateType[] {
  return VipPeriodSchema.options.map((period) => ({ period, months: periodMonths(period), name: t(lang, PERIOD_KEYS[period]) }));
}
