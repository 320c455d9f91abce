/**
 * The client's one currency formatter: the pricing page, the order history and the console's money
 * and dashboard pages all write amounts with it.
 */

/**
 * An amount in minor units of `currency` (cents, fen) as the reader writes it: 999 usd → "$9.99",
 * 500 jpy → "¥500". '' for no amount; a bare number without a currency; the minor units as they are
 * for a currency code the browser does not know.
 */
export function formatMoney(minor: number | null, currency: string | null, language: string): string {
  if (minor === null) return '';
  if (!currency) return String(minor);
  const locale = language === 'zh' ? 'zh-CN' : 'en-US';
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    return `${minor} ${currency}`;
  }
}
