import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pointBalances, pointLedger } from '../db/schema/points.ts';

/** integralType 1 is the main (and for now only) kind of points. */
export const MAIN_INTEGRAL_TYPE = 1;

export type IntegralEntry = { integralType: number; integralValue: number; useIntegral: number };

/** Today's free allowance left, counting a new day as a full allowance. */
const dailyLeftSql = (allowance: number) =>
  sql`case when ${pointBalances.dailyDay} = current_date then ${pointBalances.dailyLeft} else ${allowance} end`;

export async function ensureBalance(db: Db, userId: string): Promise<void> {
  await db.insert(pointBalances).values({ userId }).onConflictDoNothing();
}

export async function getIntegral(db: Db, userId: string, dailyAllowance: number): Promise<IntegralEntry[]> {
  const rows = await db
    .select({ balance: pointBalances.balance, daily: dailyLeftSql(dailyAllowance).mapWith(Number), used: pointBalances.usedTotal })
    .from(pointBalances)
    .where(eq(pointBalances.userId, userId));
  const row = rows[0] ?? { balance: 0, daily: dailyAllowance, used: 0 };
  return [{ integralType: MAIN_INTEGRAL_TYPE, integralValue: row.balance + row.daily, useIntegral: row.used }];
}

/**
 * The statements that take `cost` points, as CTEs named `charged` (one row when charged, none when
 * the points do not cover the cost) and `ledger`, so a caller can charge in the same statement as
 * its own writes. Today's free allowance goes first, then the balance. The row lock of the UPDATE and
 * its re-checked WHERE make parallel charges exact; the total never goes below zero. Every account has
 * its balance row from sign-up.
 */
export function chargeCtes(userId: string, cost: number, dailyAllowance: number, ref: { reason: string; refId?: string }): SQL {
  if (cost <= 0) return sql`charged as (select ${userId}::text as user_id), ledger as (select 1)`;
  const daily = dailyLeftSql(dailyAllowance);
  return sql`charged as (
      update ${pointBalances} set
        balance = ${pointBalances.balance} - greatest(${cost} - ${daily}, 0),
        daily_left = greatest(${daily} - ${cost}, 0),
        daily_day = current_date,
        used_total = ${pointBalances.usedTotal} + ${cost}
      where ${pointBalances.userId} = ${userId} and ${daily} + ${pointBalances.balance} >= ${cost}
      returning user_id
    ),
    ledger as (
      insert into ${pointLedger} (id, user_id, delta, reason, ref_id)
      select ${randomUUID()}, user_id, ${-cost}, ${ref.reason}, ${ref.refId ?? null} from charged
    )`;
}

/** Takes `cost` points in one statement; false when the points do not cover the cost. */
export async function chargePoints(
  db: Db,
  userId: string,
  cost: number,
  dailyAllowance: number,
  ref: { reason: string; refId?: string },
): Promise<boolean> {
  const result = await db.execute(sql`with ${chargeCtes(userId, cost, dailyAllowance, ref)} select user_id from charged`);
  return result.rows.length > 0;
}

/** Gives points back (a message that produced nothing). Refunds go to the balance, which does not expire. */
export async function refundPoints(db: Db, userId: string, amount: number, ref: { reason: string; refId?: string }) {
  if (amount <= 0) return;
  await db
    .update(pointBalances)
    .set({ balance: sql`${pointBalances.balance} + ${amount}`, usedTotal: sql`greatest(${pointBalances.usedTotal} - ${amount}, 0)` })
    .where(eq(pointBalances.userId, userId));
  await db.insert(pointLedger).values({ id: randomUUID(), userId, delta: amount, reason: ref.reason, refId: ref.refId });
}

/** Adds earned or bought points (admin grants, later check-ins and orders). */
export async function addPoints(db: Db, userId: string, amount: number, ref: { reason: string; refId?: string }) {
  await ensureBalance(db, userId);
  await db.update(pointBalances).set({ balance: sql`${pointBalances.balance} + ${amount}` }).where(eq(pointBalances.userId, userId));
  await db.insert(pointLedger).values({ id: randomUUID(), userId, delta: amount, reason: ref.reason, refId: ref.refId });
}
