import dayjs from 'dayjs';

/** An amount in minor units (cents, fen) as the currency writes it: 999 usd → "$9.99". */
export function formatMoney(amount: number | null, currency: string | null, language: string): string {
  if (amount === null) return '';
  if (!currency) return String(amount);
  try {
    const format = new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    return `${amount} ${currency}`;
  }
}

export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');
export const formatDay = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '');

/** Plan levels by number, as the tables name them (the keys of adminMoney.levels). */
export const LEVEL_KEYS = ['free', 'standard', 'advanced', 'super'] as const;
export const levelKey = (level: number | null) => `adminMoney.levels.${LEVEL_KEYS[level ?? 0] ?? 'free'}`;

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
