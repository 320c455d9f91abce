import { sql, type SQL } from 'drizzle-orm';
import { STATS_MAX_DAYS, type Dashboard, type StatsQuery } from '../../../shared/contracts/admin-stats.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sqlStateOf } from '../../core/db-errors.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { aiDeployments, aiModels } from '../../db/schema/models.ts';
import { pointLedger } from '../../db/schema/points.ts';
import { stripeSubscriptions } from '../../db/schema/plans.ts';
import { activeUsersHourly, pointsHourly, statsWatermarks, upstreamFailures, usageHourly } from '../../db/schema/usage.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { messageModelSql, pointsGrantedSql, pointsSpentSql } from '../system/usage-rollup.ts';

/**
 * The operator's dashboard (docs/admin-stats.md). Every figure is aggregated by PostgreSQL; each
 * panel is one statement (timed one by one in bench/admin-stats). Message and points figures read
 * the hourly rollups up to their watermark and the rows after it live (usage-rollup.ts), so they
 * are exact whenever the rollups last ran. Days are calendar days in the operator's time zone.
 */

/**
 * A resolved range: local midnight of `from` to local midnight after `to`, as SQL, and whether the
 * hourly rollups can serve it (every day boundary falls on a whole UTC hour). A zone with a half- or
 * quarter-hour offset (Asia/Kolkata, Asia/Kathmandu) is read from the rows alone: exact, slower.
 */
export type StatsRange = {
  from: string;
  to: string;
  timeZone: string;
  days: string[];
  start: SQL;
  end: SQL;
  useRollups: boolean;
  /** The watermarks as last read (withWatermarks): a hint for the planner, never above the real ones. */
  marks?: { usage: Date; points: Date };
};

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

function todayIn(timeZone: string): string {
  // en-CA formats a date as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** Whether the zone's offset is a whole number of hours all through the range (sampled twice a day). */
function wholeHourOffsets(timeZone: string, from: string, to: string): boolean {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  for (let t = Date.parse(`${from}T00:00:00Z`) - DAY_MS; t <= Date.parse(`${to}T00:00:00Z`) + 2 * DAY_MS; t += DAY_MS / 2) {
    const name = format.formatToParts(new Date(t)).find((p) => p.type === 'timeZoneName')?.value ?? '';
    // 'GMT' alone, or GMT±HH:MM.
    const minutes = /GMT[+-]\d{2}:(\d{2})/.exec(name)?.[1];
    if (minutes && minutes !== '00') return false;
  }
  return true;
}

/** A real calendar day in the years the database and the dashboard handle (2026-02-30 is not). */
const isDay = (day: string) => day >= '1970-01-01' && day <= '9999-12-30' && addDays(day, 0) === day;

export function resolveRange(query: StatsQuery): StatsRange {
  // The zone's canonical name (Intl accepts 'asia/shanghai'), as the database knows it.
  const timeZone = new Intl.DateTimeFormat('en', { timeZone: query.timeZone }).resolvedOptions().timeZone;
  const to = query.to ?? todayIn(timeZone);
  const from = query.from ?? addDays(to, -29);
  if (!isDay(from) || !isDay(to)) throw new AppError(Codes.BadRequest, 'statsDayInvalid');
  if (from > to) throw new AppError(Codes.BadRequest, 'statsRangeReversed');
  const count = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  if (count > STATS_MAX_DAYS) throw new AppError(Codes.BadRequest, 'statsRangeTooLong', { max: STATS_MAX_DAYS });
  const days = Array.from({ length: count }, (_, i) => addDays(from, i));
  return {
    from,
    to,
    timeZone,
    days,
    start: localMidnight(from, timeZone),
    end: localMidnight(addDays(to, 1), timeZone),
    useRollups: wholeHourOffsets(timeZone, from, to),
  };
}

const localMidnight = (day: string, timeZone: string) => sql`(${day}::date::timestamp at time zone ${timeZone})`;
/** The local calendar day of a timestamptz, as YYYY-MM-DD text. */
const dayOf = (column: SQL | unknown, timeZone: string) => sql`to_char((${column} at time zone ${timeZone})::date, 'YYYY-MM-DD')`;

/**
 * Rows read live: at or after the rollup's watermark, read in the statement itself (so the rollup and
 * the rows it has not folded are seen in one snapshot, even while a fold commits). The watermark read
 * before (`marks`) is repeated as a literal: watermarks only move forward, so it changes nothing, but
 * it lets the planner see that few rows follow it and take the finished_at / created_at index.
 */
function afterWatermark(r: StatsRange, name: 'usage' | 'points', column: unknown): SQL {
  if (!r.useRollups) return sql`true`;
  const exact = sql`${column} >= coalesce((select watermark from ${statsWatermarks} where name = ${name}), 'epoch'::timestamptz)`;
  return r.marks ? sql`${column} >= ${r.marks[name]} and ${exact}` : exact;
}

/** The range with the watermarks as they are now (one small read per dashboard). */
export async function withWatermarks(db: Db, r: StatsRange): Promise<StatsRange> {
  if (!r.useRollups) return r;
  const rows = await rowsOf<{ name: string; ms: number }>(db, sql`select name, (extract(epoch from watermark) * 1000)::float8 as ms from ${statsWatermarks}`);
  const at = (name: string) => new Date(Number(rows.find((x) => x.name === name)?.ms ?? 0));
  return { ...r, marks: { usage: at('usage'), points: at('points') } };
}

const num = (v: unknown) => Number(v ?? 0);

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as Rows<T>).rows;

/**
 * Answers per (local day, model, deployment) in the range: the rollup's hours before the watermark,
 * finished answers after it. `pick` chooses the columns; the caller groups.
 */
function usageRows(r: StatsRange): SQL {
  const m = chatMessages;
  const live = sql`
    select ${m.createdAt} as at, ${messageModelSql} as ai_model_id, coalesce(${m.deploymentId}, '') as deployment_id, 1 as messages,
      case when ${m.tokensEstimated} then 1 else 0 end as estimated_messages, coalesce(${m.inputTokens}, 0)::bigint as input_tokens,
      coalesce(${m.outputTokens}, 0)::bigint as output_tokens, coalesce(${m.firstTokenMs}, 0)::bigint as first_token_ms_sum,
      case when ${m.firstTokenMs} is null then 0 else 1 end as first_token_count
    from ${m} where ${m.finishedAt} is not null and ${afterWatermark(r, 'usage', m.finishedAt)} and ${m.createdAt} >= ${r.start} and ${m.createdAt} < ${r.end}`;
  if (!r.useRollups) return live;
  const u = usageHourly;
  return sql`
    select ${u.hour} as at, ${u.aiModelId} as ai_model_id, ${u.deploymentId} as deployment_id, ${u.messages} as messages,
      ${u.estimatedMessages} as estimated_messages, ${u.inputTokens} as input_tokens, ${u.outputTokens} as output_tokens,
      ${u.firstTokenMsSum} as first_token_ms_sum, ${u.firstTokenCount} as first_token_count
    from ${u} where ${u.hour} >= ${r.start} and ${u.hour} < ${r.end}
    union all ${live}`;
}

type UsageSums = { messages: number; inputTokens: number; outputTokens: number };
export type UsagePanel = {
  byDay: Map<string, UsageSums>;
  total: UsageSums;
  modelDays: Dashboard['modelDays'];
  models: Dashboard['models'];
};

/** Messages, tokens and time to first token: per day, per day and model, per model, in all. */
export async function usagePanel(db: Db, r: StatsRange): Promise<UsagePanel> {
  const rows = await rowsOf<{
    day: string | null;
    ai_model_id: string | null;
    g_day: number;
    g_model: number;
    messages: number;
    estimated: number;
    input_tokens: number;
    output_tokens: number;
    ttft_sum: number;
    ttft_count: number;
    model_name: string | null;
  }>(
    db,
    // Hours (or rows) are first summed per local day and model, in one pass; the grouping sets then
    // work on those few rows. The day is computed once, by position: the same expression written
    // twice would carry the time zone as two parameters, which PostgreSQL cannot tell are the same.
    sql`with x as (${usageRows(r)}),
      y as (
        select (x.at at time zone ${r.timeZone})::date as day, x.ai_model_id, sum(x.messages) as messages, sum(x.estimated_messages) as estimated,
          sum(x.input_tokens) as input_tokens, sum(x.output_tokens) as output_tokens,
          sum(x.first_token_ms_sum) as ttft_sum, sum(x.first_token_count) as ttft_count
        from x group by 1, 2
      ),
      g as (
        select to_char(y.day, 'YYYY-MM-DD') as day, y.ai_model_id, grouping(y.day) as g_day, grouping(y.ai_model_id) as g_model,
          sum(y.messages)::float8 as messages, sum(y.estimated)::float8 as estimated,
          sum(y.input_tokens)::float8 as input_tokens, sum(y.output_tokens)::float8 as output_tokens,
          sum(y.ttft_sum)::float8 as ttft_sum, sum(y.ttft_count)::float8 as ttft_count
        from y
        group by grouping sets ((y.day), (y.day, y.ai_model_id), (y.ai_model_id), ())
      )
      select g.*, ${aiModels.name} as model_name from g left join ${aiModels} on ${aiModels.id} = g.ai_model_id`,
  );
  const sums = (x: (typeof rows)[number]): UsageSums => ({ messages: num(x.messages), inputTokens: num(x.input_tokens), outputTokens: num(x.output_tokens) });
  const panel: UsagePanel = { byDay: new Map(), total: { messages: 0, inputTokens: 0, outputTokens: 0 }, modelDays: [], models: [] };
  for (const x of rows) {
    const [byDay, byModel] = [num(x.g_day) === 0, num(x.g_model) === 0];
    if (byDay && byModel) panel.modelDays.push({ day: x.day!, aiModelId: x.ai_model_id!, ...sums(x) });
    else if (byDay) panel.byDay.set(x.day!, sums(x));
    else if (byModel) {
      const count = num(x.ttft_count);
      panel.models.push({
        aiModelId: x.ai_model_id!,
        modelName: x.model_name ?? x.ai_model_id!,
        ...sums(x),
        estimatedMessages: num(x.estimated),
        avgFirstTokenMs: count ? Math.round(num(x.ttft_sum) / count) : null,
      });
    } else panel.total = sums(x);
  }
  panel.modelDays.sort((a, b) => a.day.localeCompare(b.day) || a.aiModelId.localeCompare(b.aiModelId));
  panel.models.sort((a, b) => b.messages - a.messages || a.aiModelId.localeCompare(b.aiModelId));
  return panel;
}

/** Answers, failed attempts and failovers per deployment. */
export async function deploymentsPanel(db: Db, r: StatsRange): Promise<Dashboard['deployments']> {
  const f = upstreamFailures;
  const d = aiDeployments;
  const rows = await rowsOf<{
    deployment_id: string;
    ai_model_id: string | null;
    provider: string | null;
    upstream_model_id: string | null;
    messages: number;
    errors: number;
    failovers: number;
  }>(
    db,
    sql`with x as (${usageRows(r)}),
      u as (select x.deployment_id, max(x.ai_model_id) as ai_model_id, sum(x.messages)::float8 as messages from x where x.deployment_id <> '' group by 1),
      fl as (
        select ${f.deploymentId} as deployment_id, max(${f.aiModelId}) as ai_model_id, count(*)::float8 as errors,
          (count(*) filter (where ${f.failedOver}))::float8 as failovers
        from ${f} where ${f.createdAt} >= ${r.start} and ${f.createdAt} < ${r.end} group by 1
      )
      select coalesce(u.deployment_id, fl.deployment_id) as deployment_id, coalesce(${d.aiModelId}, u.ai_model_id, fl.ai_model_id) as ai_model_id,
        ${d.provider} as provider, ${d.upstreamModelId} as upstream_model_id,
        coalesce(u.messages, 0) as messages, coalesce(fl.errors, 0) as errors, coalesce(fl.failovers, 0) as failovers
      from u full join fl on fl.deployment_id = u.deployment_id
      left join ${d} on ${d.id} = coalesce(u.deployment_id, fl.deployment_id)
      order by 1`,
  );
  return rows.map((x) => ({
    deploymentId: x.deployment_id,
    aiModelId: x.ai_model_id,
    provider: x.provider,
    upstreamModelId: x.upstream_model_id,
    messages: num(x.messages),
    errors: num(x.errors),
    failovers: num(x.failovers),
  }));
}

/** Distinct users who sent a message on `to`, in the 7 days and in the 30 days ending on it. */
export async function activeUsersPanel(db: Db, r: StatsRange): Promise<Dashboard['activeUsers']> {
  const monthStart = localMidnight(addDays(r.to, -29), r.timeZone);
  const weekStart = localMidnight(addDays(r.to, -6), r.timeZone);
  const dayStart = localMidnight(r.to, r.timeZone);
  const m = chatMessages;
  const a = activeUsersHourly;
  const live = sql`select ${m.createdAt} as at, ${m.userId} as user_id from ${m} where ${m.finishedAt} is not null and ${afterWatermark(r, 'usage', m.finishedAt)} and ${m.createdAt} >= ${monthStart} and ${m.createdAt} < ${r.end}`;
  const rolled = r.useRollups ? sql`select ${a.hour} as at, ${a.userId} as user_id from ${a} where ${a.hour} >= ${monthStart} and ${a.hour} < ${r.end} union all ` : sql``;
  // Each user's last hour, then three counts over those: one hashed pass, where three distinct
  // counts would each sort every user-hour of the month (bench/admin-stats: 175 ms against 35).
  const [row] = await rowsOf<{ day: number; week: number; month: number }>(
    db,
    sql`select (count(*) filter (where y.last >= ${dayStart}))::float8 as day,
        (count(*) filter (where y.last >= ${weekStart}))::float8 as week,
        count(*)::float8 as month
      from (select x.user_id, max(x.at) as last from (${rolled}${live}) x group by x.user_id) y`,
  );
  return { day: num(row?.day), week: num(row?.week), month: num(row?.month) };
}

/** Accounts created per day, and in all. */
export async function signUpsPanel(db: Db, r: StatsRange): Promise<{ byDay: Map<string, number>; total: number }> {
  const rows = await rowsOf<{ day: string | null; sign_ups: number }>(
    db,
    sql`select y.day, count(*)::float8 as sign_ups
      from (select ${dayOf(users.createdAt, r.timeZone)} as day from ${users} where ${users.createdAt} >= ${r.start} and ${users.createdAt} < ${r.end}) y
      group by grouping sets ((y.day), ())`,
  );
  const byDay = new Map<string, number>();
  let total = 0;
  for (const x of rows) {
    if (x.day === null) total = num(x.sign_ups);
    else byDay.set(x.day, num(x.sign_ups));
  }
  return { byDay, total };
}

/** Points spent and granted per day, and in all (rollup before the watermark, ledger after it). */
export async function pointsPanel(db: Db, r: StatsRange): Promise<{ byDay: Map<string, { spent: number; granted: number }>; total: { spent: number; granted: number } }> {
  const l = pointLedger;
  const p = pointsHourly;
  const live = sql`select ${l.createdAt} as at, ${pointsSpentSql} as spent, ${pointsGrantedSql} as granted from ${l}
    where ${afterWatermark(r, 'points', l.createdAt)} and ${l.createdAt} >= ${r.start} and ${l.createdAt} < ${r.end}`;
  const rolled = r.useRollups ? sql`select ${p.hour} as at, ${p.spent} as spent, ${p.granted} as granted from ${p} where ${p.hour} >= ${r.start} and ${p.hour} < ${r.end} union all ` : sql``;
  const rows = await rowsOf<{ day: string | null; spent: number; granted: number }>(
    db,
    sql`select y.day, sum(y.spent)::float8 as spent, sum(y.granted)::float8 as granted
      from (select ${dayOf(sql`x.at`, r.timeZone)} as day, x.spent, x.granted from (${rolled}${live}) x) y
      group by grouping sets ((y.day), ())`,
  );
  const byDay = new Map<string, { spent: number; granted: number }>();
  let total = { spent: 0, granted: 0 };
  for (const x of rows) {
    const v = { spent: num(x.spent), granted: num(x.granted) };
    if (x.day === null) total = v;
    else byDay.set(x.day, v);
  }
  return { byDay, total };
}

/** Paid orders (not refunded) created in the range: per currency, per day and currency. */
export async function revenuePanel(db: Db, r: StatsRange): Promise<{ revenue: Dashboard['revenue']; revenueDays: Dashboard['revenueDays'] }> {
  const o = vipOrders;
  const rows = await rowsOf<{ day: string | null; currency: string; amount: number; orders: number }>(
    db,
    sql`select y.day, y.currency, sum(y.amount)::float8 as amount, count(*)::float8 as orders
      from (
        select ${dayOf(o.createdAt, r.timeZone)} as day, lower(${o.currency}) as currency, ${o.amount} as amount from ${o}
        where ${o.amount} is not null and ${o.currency} is not null and ${o.refundedAt} is null and ${o.createdAt} >= ${r.start} and ${o.createdAt} < ${r.end}
      ) y
      group by grouping sets ((y.day, y.currency), (y.currency)) order by y.currency, y.day`,
  );
  const revenue: Dashboard['revenue'] = [];
  const revenueDays: Dashboard['revenueDays'] = [];
  for (const x of rows) {
    const v = { currency: x.currency, amount: num(x.amount), orders: num(x.orders) };
    if (x.day === null) revenue.push(v);
    else revenueDays.push({ day: x.day, ...v });
  }
  return { revenue, revenueDays };
}

/** Now: Stripe subscriptions active or trialing; users with a plan in force (not refunded). */
export async function subscriptionsPanel(db: Db): Promise<{ activeSubscriptions: number; activePlans: number }> {
  const s = stripeSubscriptions;
  const o = vipOrders;
  const [row] = await rowsOf<{ subscriptions: number; plans: number }>(
    db,
    sql`select (select count(*) from ${s} where ${s.status} in ('active', 'trialing'))::float8 as subscriptions,
      (select count(distinct ${o.userId}) from ${o} where ${o.startTime} <= now() and ${o.endTime} > now() and ${o.refundedAt} is null and ${o.packageLevel} > 0)::float8 as plans`,
  );
  return { activeSubscriptions: num(row?.subscriptions), activePlans: num(row?.plans) };
}

export async function getDashboard(ctx: AppContext, query: StatsQuery): Promise<Dashboard> {
  const db = ctx.db;
  const r = await withWatermarks(db, resolveRange(query));
  const [usage, deployments, activeUsers, signUps, points, money, subscriptions] = await Promise.all([
    usagePanel(db, r),
    deploymentsPanel(db, r),
    activeUsersPanel(db, r),
    signUpsPanel(db, r),
    pointsPanel(db, r),
    revenuePanel(db, r),
    subscriptionsPanel(db),
  ]).catch((err: unknown) => {
    // A zone this runtime knows and the database's time zone data does not (SQLSTATE 22023).
    if (sqlStateOf(err) === '22023') throw new AppError(Codes.BadRequest, 'statsTimeZoneUnknown', { timeZone: r.timeZone });
    throw err;
  });
  const zero = { messages: 0, inputTokens: 0, outputTokens: 0 };
  const days = r.days.map((day) => {
    const u = usage.byDay.get(day) ?? zero;
    const p = points.byDay.get(day) ?? { spent: 0, granted: 0 };
    return { day, signUps: signUps.byDay.get(day) ?? 0, ...u, pointsSpent: p.spent, pointsGranted: p.granted };
  });
  return {
    from: r.from,
    to: r.to,
    timeZone: r.timeZone,
    activeUsers,
    totals: { signUps: signUps.total, ...usage.total, pointsSpent: points.total.spent, pointsGranted: points.total.granted },
    days,
    modelDays: usage.modelDays,
    models: usage.models,
    deployments,
    ...money,
    ...subscriptions,
  };
}
