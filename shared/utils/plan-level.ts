/**
 * How a plan level looks wherever it shows (the sidebar's plan card, the pricing and subscription
 * pages): 0 Free, 1 Standard, 2 Advanced, 3 Super (docs/economy.md#plans).
 */

/** The names the server gives levels unless an operator renamed a plan (English: the catalogue's defaults). */
const DEFAULT_LEVEL_NAMES = ['Free', 'Standard', 'Advanced', 'Super'];

/**
 * A plan's name as the reader sees it: the level's name in the reader's language (plans.level.N)
 * when the server sent the default English name or none; a name an operator chose is theirs, as is.
 */
export function planName(level: number | null | undefined, name: string | null | undefined, translate: (key: string) => string): string {
  const tier = planTier(level);
  const given = name?.trim() ?? '';
  return given === '' || given === DEFAULT_LEVEL_NAMES[tier] ? translate(`plans.level.${tier}`) : given;
}

/**
 * A plan the server names without its level (a notification's parameter): a level's default English
 * name in the reader's language, a name an operator chose as it is.
 */
export function planNameAlone(name: string, translate: (key: string) => string): string {
  const tier = DEFAULT_LEVEL_NAMES.indexOf(name.trim());
  return tier < 0 ? name : translate(`plans.level.${tier}`);
}

/** The colour of each paid level; free plans are grey. */
export const PLAN_LEVEL_COLORS: Readonly<Record<number, string>> = { 1: '#3b82f6', 2: '#7b7ddb', 3: '#f59f00' };
export const FREE_PLAN_COLOR = '#868e96';

/** A level as the UI shows it: 0 for none, else 1 to 3. */
export function planTier(level: number | null | undefined): number {
  if (!level || level < 1) return 0;
  return Math.min(3, Math.floor(level));
}

export function planColor(level: number | null | undefined): string {
  const tier = planTier(level);
  return tier === 0 ? FREE_PLAN_COLOR : PLAN_LEVEL_COLORS[tier]!;
}

/** A date as YYYY-MM-DD in the reader's time zone; '' for what is not a date. */
export function planDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
