import dayjs from 'dayjs';
import { formatPrice } from '../../shared/utils/plan-level.ts';

/** An amount in minor units (cents, fen) as the currency writes it (999 usd → "$9.99"); a bare number without a currency. */
export function formatMoney(amount: number | null, currency: string | null, language: string): string {
  if (amount === null) return '';
  return currency ? formatPrice(amount, currency, language) : String(amount);
}

export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

/** Plan levels by number, as the tables name them (the keys of adminMoney.levels). */
const LEVEL_KEYS = ['free', 'standard', 'advanced', 'super'] as const;
export const levelKey = (level: number | null) => `adminMoney.levels.${LEVEL_KEYS[level ?? 0] ?? 'free'}`;

