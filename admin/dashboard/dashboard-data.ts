import type { StatsDay, StatsModel, StatsModelDay } from '../../shared/contracts/admin-stats.ts';

/**
 * What the dashboard does with the figures the server aggregated: the range the page asks for, and
 * the shapes the charts draw (one row per day, one column per model). No figure is computed here.
 */

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a date in the browser's own time zone (the zone the dashboard asks the server for). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Midnight UTC of a YYYY-MM-DD day, in milliseconds: day arithmetic free of the browser's zone. */
function utcMs(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** The day `days` after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  return new Date(utcMs(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMs(to) - utcMs(from)) / DAY_MS) + 1;
}

export type DayRange = { from: string; to: string };

/** The last `days` days ending today (today included). */
export function lastDays(days: number, today: Date = new Date()): DayRange {
  const to = localDay(today);
  return { from: addDays(to, -(days - 1)), to };
}

/** The browser's time zone, so that "today" on the dashboard is the operator's today. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export type RangeProblem = { field: 'from' | 'to'; key: 'required' | 'fromAfterTo' | 'tooLong' };

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a range typed into the two date fields, or null when the server may be asked. */
export function rangeProblem(range: DayRange, maxDays: number): RangeProblem | null {
  if (!DAY_PATTERN.test(range.from)) return { field: 'from', key: 'required' };
  if (!DAY_PATTERN.test(range.to)) return { field: 'to', key: 'required' };
  if (range.from > range.to) return { field: 'from', key: 'fromAfterTo' };
  if (daysBetween(range.from, range.to) > maxDays) return { field: 'from', key: 'tooLong' };
  return null;
}

/** Mantine's palette, one colour per model in the order the models are listed. */
const PALETTE = ['blue.6', 'teal.6', 'violet.6', 'orange.6', 'pink.6', 'cyan.6', 'lime.7', 'grape.6', 'yellow.7', 'indigo.6', 'red.6', 'green.7'];

export type ChartSeries = { name: string; label: string; color: string };
export type ChartRow = { day: string } & Record<string, string | number>;

/**
 * Rows for a stacked chart per day and model. Series keys are `m0`, `m1`...: a model id may hold a
 * dot, which the chart library would read as a path. Every day of the range has a row (zeros where
 * a model answered nothing), in the order of `days`; models keep the server's order (most used first).
 */
export function perModelRows(
  days: readonly Pick<StatsDay, 'day'>[],
  modelDays: readonly StatsModelDay[],
  models: readonly Pick<StatsModel, 'aiModelId' | 'modelName'>[],
  metric: 'messages' | 'tokens',
): { rows: ChartRow[]; series: ChartSeries[] } {
  const keyOf = new Map<string, string>();
  const series: ChartSeries[] = [];
  const seriesFor = (aiModelId: string, name: string) => {
    let key = keyOf.get(aiModelId);
    if (key === undefined) {
      key = `m${series.length}`;
      keyOf.set(aiModelId, key);
      series.push({ name: key, label: name, color: PALETTE[series.length % PALETTE.length]! });
    }
    return key;
  };
  for (const model of models) seriesFor(model.aiModelId, model.modelName);
  // A model seen on a day but missing from the totals (not expected) still gets a series.
  for (const entry of modelDays) seriesFor(entry.aiModelId, entry.aiModelId);

  const byDay = new Map<string, ChartRow>();
  for (const { day } of days) {
    const row: ChartRow = { day };
    for (const s of series) row[s.name] = 0;
    byDay.set(day, row);
  }
  for (const entry of modelDays) {
    const row = byDay.get(entry.day);
    if (!row) continue;
    const key = keyOf.get(entry.aiModelId)!;
    const value = metric === 'messages' ? entry.messages : entry.inputTokens + entry.outputTokens;
    row[key] = (row[key] as number) + value;
  }
  return { rows: [...byDay.values()], series };
}

/** The share of attempts that failed, 0..1 (null when nothing was attempted). */
export function errorRate(messages: number, errors: number): number | null {
  const attempts = messages + errors;
  return attempts === 0 ? null : errors / attempts;
}
