import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { pointLedger } from '../../db/schema/points.ts';
import { activeUsersHourly, pointsHourly, statsWatermarks, usageHourly } from '../../db/schema/usage.ts';

/**
 * Folds final rows into the dashboard's hourly rollups (docs/admin-stats.md#rollups), off the chat
 * path: answers once they finished (by finished_at), ledger entries (by created_at). Each fold takes
 * the rows between its table's watermark and now less FOLD_MARGIN, adds them to their hours, and
 * moves the watermark, in one transaction under an advisory lock, so two instances never fold the
 * same rows and a crash mid-fold folds nothing. The margin covers statements that stamped a row
 * with their start time (now()) and commit a little later: a row committed after the fold that
 * passed its time would otherwise be missed for good. The dashboard reads the rollup before the
 * watermark and the rows after it live (admin-stats.ts), so its figures are exact at any moment.
 *
 * Deleting a chat (or an account) after its answers were folded leaves them counted: the dashboard
 * keeps history. Answers deleted before their fold (within minutes) are not counted.
 */

/** Advisory lock key of the fold (any fixed number no other lock in the project uses). */
const ROLLUP_LOCK = 7_310_012;
const FOLD_MARGIN = sql`interval '5 minutes'`;
const FOLD_EVERY_MS = 60_000;

/** The hour (UTC) of a timestamp: whole-hour buckets serve every whole-hour time zone. */
const hourOf = (column: unknown) => sql`date_trunc('hour', ${column}, 'UTC')`;

/** The message's catalogue model: the one that answered, else the one asked for. */
export const messageModelSql = sql`coalesce(${chatMessages.aiModelId}, ${chatMessages.requestedModelId})`;

/**
 * Points spent: what uses (messages, plugins, drawings) took, free daily allowance included, less
 * what refunds gave back. Granted: every credit but refunds.
 */
export const pointsSpentSql = sql`case when ${pointLedger.reason} in ('message', 'plugin', 'draw', 'translate', 'settle', 'refund') then ${pointLedger.allowance} - ${pointLedger.delta} else 0 end`;
export const pointsGrantedSql = sql`case when ${pointLedger.delta} > 0 and ${pointLedger.reason} not in ('refund', 'settle') then ${pointLedger.delta} else 0 end`;

async function watermarksOf(tx: Db): Promise<{ usage: Date; points: Date; upper: Date }> {
  await tx.execute(sql`insert into ${statsWatermarks} (name, watermark) values ('usage', 'epoch'), ('points', 'epoch') on conflict do nothing`);
  // As epoch milliseconds: drivers differ in how they hand back a timestamptz.
  const ms = (column: unknown) => sql`(extract(epoch from ${column}) * 1000)::float8`;
  const { rows } = (await tx.execute(sql`select name, ${ms(sql`watermark`)} as ms from ${statsWatermarks} for update`)) as unknown as {
    rows: { name: string; ms: number }[];
  };
  const at = (name: string) => new Date(Number(rows.find((r) => r.name === name)!.ms));
  const [{ upper }] = (await tx.execute<{ upper: number }>(sql`select ${ms(sql`now() - ${FOLD_MARGIN}`)} as upper`)).rows;
  return { usage: at('usage'), points: at('points'), upper: new Date(Number(upper)) };
}

/**
 * One fold of both rollups. Returns false when another instance holds the fold (it will do it).
 * `upTo` (tests, the benchmark): fold up to this time instead of now less the margin; only when no
 * row stamped before it can still commit, as rows behind the watermark are never folded.
 */
export async function foldUsage(db: Db, upTo?: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [{ locked }] = (await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as locked`)).rows;
    if (!locked) return false;
    const marks = await watermarksOf(tx);
    const upper = upTo ?? marks.upper;
    if (upper > marks.usage) {
      const m = sql`${chatMessages.finishedAt} >= ${marks.usage} and ${chatMessages.finishedAt} < ${upper}`;
      await tx.execute(sql`
        insert into ${usageHourly} (hour, ai_model_id, deployment_id, messages, estimated_messages, input_tokens, output_tokens, first_token_ms_sum, first_token_count)
        select ${hourOf(chatMessages.createdAt)}, ${messageModelSql}, coalesce(${chatMessages.deploymentId}, ''), count(*)::int,
          (count(*) filter (where ${chatMessages.tokensEstimated}))::int, coalesce(sum(${chatMessages.inputTokens}), 0), coalesce(sum(${chatMessages.outputTokens}), 0),
          coalesce(sum(${chatMessages.firstTokenMs}), 0), count(${chatMessages.firstTokenMs})::int
        from ${chatMessages} where ${m} group by 1, 2, 3
        on conflict (hour, ai_model_id, deployment_id) do update set
          messages = ${usageHourly.messages} + excluded.messages,
          estimated_messages = ${usageHourly.estimatedMessages} + excluded.estimated_messages,
          input_tokens = ${usageHourly.inputTokens} + excluded.input_tokens,
          output_tokens = ${usageHourly.outputTokens} + excluded.output_tokens,
          first_token_ms_sum = ${usageHourly.firstTokenMsSum} + excluded.first_token_ms_sum,
          first_token_count = ${usageHourly.firstTokenCount} + excluded.first_token_count`);
      await tx.execute(sql`
        insert into ${activeUsersHourly} (hour, user_id)
        select distinct ${hourOf(chatMessages.createdAt)}, ${chatMessages.userId} from ${chatMessages} where ${m}
        on conflict do nothing`);
      await tx.execute(sql`update ${statsWatermarks} set watermark = ${upper} where name = 'usage'`);
    }
    if (upper > marks.points) {
      await tx.execute(sql`
        insert into ${pointsHourly} (hour, spent, granted)
        select ${hourOf(pointLedger.createdAt)}, sum(${pointsSpentSql}), sum(${pointsGrantedSql})
        from ${pointLedger} where ${pointLedger.createdAt} >= ${marks.points} and ${pointLedger.createdAt} < ${upper} group by 1
        on conflict (hour) do update set spent = ${pointsHourly.spent} + excluded.spent, granted = ${pointsHourly.granted} + excluded.granted`);
      await tx.execute(sql`update ${statsWatermarks} set watermark = ${upper} where name = 'points'`);
    }
    return true;
  });
}

/** Folds every minute while the instance runs; returns the stop. */
export function startUsageRollup(ctx: AppContext, intervalMs = FOLD_EVERY_MS): () => void {
  const timer = setInterval(() => {
    foldUsage(ctx.db).catch((err: unknown) => ctx.log.error({ err }, 'folding usage statistics failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
