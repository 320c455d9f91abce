import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AdminAdjustPoints, LedgerKind } from '../../../shared/contracts/points.ts';
import type { Db } from '../../db/client.ts';
import type { SqlValue } from '../../db/compiled.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { pointBalances, pointLedger } from '../../db/schema/points.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';

/**
 * The points ledger (docs/economy.md#the-ledger). Every change of a balance is one entry with an
 * idempotency key that is unique in the table, written in the same statement as the balance row it
 * changes, so the two never disagree:
 * - the balance row is locked (`for update`) and read, the change is checked (a debit never takes a
 *   balance below zero), the row is updated and the entry inserted, all in one statement;
 * - a second change with the same key fails that statement on the unique key, which undoes its
 *   update too: it is reported as a duplicate and changes nothing.
 */

/** integralType 1 is the main (and for now only) kind of points. */
export const MAIN_INTEGRAL_TYPE = 1;

export type { LedgerKind };

export type IntegralEntry = {
  integralType: number;
  integralValue: number;
  useIntegral: number;
  freeLeft: number;
  freeDaily: number;
  freeResetsAt: string;
  kept: number;
};

export type LedgerChange = {
  userId: string;
  /** Points added (positive) or taken (negative) from the balance. */
  delta: number;
  kind: LedgerKind;
  /** Names the event: the same key is applied once, however often it arrives. */
  key: string;
  refId?: string;
  note?: string;
};

export type LedgerResult = { status: 'applied'; balance: number; entryId: string } | { status: 'duplicate' } | { status: 'insufficient' };

/** Today's free allowance left, counting a new day as a full allowance. */
const dailyLeftSql = (allowance: SqlValue<number>) =>
  sql`case when ${pointBalances.dailyDay} = current_date then ${pointBalances.dailyLeft} else ${allowance} end`;

export async function ensureBalance(db: Db, userId: string): Promise<void> {
  await db.insert(pointBalances).values({ userId }).onConflictDoNothing();
}

/**
 * Applies one change of the balance, once per key. A debit that the balance does not cover changes
 * nothing ('insufficient'). Runs in the caller's transaction when `db` is one: there a duplicate key
 * aborts the transaction, which is what a caller applying several writes as one wants.
 */
export async function applyLedgerChange(db: Db, change: LedgerChange): Promise<LedgerResult> {
  const entryId = randomUUID();
  const { userId, delta } = change;
  try {
    const result = await db.execute<{ balance: number | null }>(sql`
      with b as (select user_id, balance from ${pointBalances} where user_id = ${userId} for update),
      upd as (
        update ${pointBalances} p set balance = b.balance + ${delta}
        from b where p.user_id = b.user_id and b.balance + ${delta} >= 0
        returning p.balance
      ),
      ins as (
        insert into ${pointLedger} (id, user_id, delta, reason, ref_id, idempotency_key, note, balance_after)
        select ${entryId}, ${userId}, ${delta}, ${change.kind}, ${change.refId ?? null}, ${change.key}, ${change.note ?? ''}, upd.balance from upd
      )
      select (select balance from upd) as balance`);
    const balance = result.rows[0]?.balance;
    if (balance === null || balance === undefined) return { status: 'insufficient' };
    return { status: 'applied', balance: Number(balance), entryId };
  } catch (err) {
    if (isUniqueViolation(err, 'point_ledger_idempotency_key_unique')) return { status: 'duplicate' };
    throw err;
  }
}

/** Adds points (check-ins, codes, invites, plan grants, operators' grants); false when the key was applied before. */
export async function creditPoints(db: Db, change: LedgerChange): Promise<LedgerResult> {
  if (change.delta <= 0) throw new Error('a credit adds points');
  await ensureBalance(db, change.userId);
  return applyLedgerChange(db, change);
}

/**
 * The statements that charge `cost` points for a use (a message, a tool call, a drawing), as CTEs
 * named `charged` (one row when charged, none when the points do not cover the cost) and `ledger`, so
 * a caller can charge in the same statement as its own writes. Today's free allowance goes first,
 * then the balance; the entry records both parts. The row lock of `b` makes parallel charges exact.
 * Every account has its balance row from sign-up. In a statement compiled once (db/compiled.ts) the
 * values are placeholders: a cost that is a placeholder charges, so a free use passes the number 0.
 */
export function chargeCtes(
  userId: SqlValue<string>,
  cost: SqlValue<number>,
  dailyAllowance: SqlValue<number>,
  ref: { kind: SqlValue<LedgerKind>; key: SqlValue<string>; refId?: SqlValue<string>; entryId?: SqlValue<string> },
  /** A condition the charge also needs (e.g. the caller's login still valid): false charges nothing. */
  gate: SQL = sql`true`,
): SQL {
  if (typeof cost === 'number' && cost <= 0) return sql`charged as (select ${userId}::text as user_id where ${gate}), ledger as (select 1)`;
  return sql`b as (
      select user_id, balance, ${dailyLeftSql(dailyAllowance)} as daily from ${pointBalances} where user_id = ${userId} and ${gate} for update
    ),
    charged as (
      update ${pointBalances} p set
        balance = b.balance - greatest(${cost} - b.daily, 0),
        daily_left = greatest(b.daily - ${cost}, 0),
        daily_day = current_date,
        used_total = p.used_total + ${cost}
      from b where p.user_id = b.user_id and b.daily + b.balance >= ${cost}
      returning p.user_id, p.balance, least(${cost}, b.daily) as from_allowance
    ),
    ledger as (
      insert into ${pointLedger} (id, user_id, delta, allowance, balance_after, reason, ref_id, idempotency_key)
      select ${ref.entryId ?? randomUUID()}, user_id, from_allowance - ${cost}, from_allowance, balance, ${ref.kind}, ${ref.refId ?? null}, ${ref.key} from charged
    )`;
}

/** Charges `cost` points in one statement; false when the points do not cover the cost. */
export async function chargePoints(
  db: Db,
  userId: string,
  cost: number,
  dailyAllowance: number,
  ref: { kind: LedgerKind; key: string; refId?: string },
): Promise<boolean> {
  const result = await db.execute(sql`with ${chargeCtes(userId, cost, dailyAllowance, ref)} select user_id from charged`);
  return result.rows.length > 0;
}

/**
 * Gives a charge back (an answer or a tool call that produced nothing), once per key, each part to
 * where it came from (docs/economy.md#the-ledger): the part the charge took from the balance goes back
 * to the balance, the part it took from today's free allowance back to today's allowance; when the
 * day has changed since the charge, that part lapses (the allowance never becomes balance). The
 * charge is the entry whose key is the refund's without `refund:` (`message:<id>` for
 * `refund:message:<id>`), or `ref.chargeKey`; no more than it took is given back. What comes back
 * counts as not spent (a lapsed allowance part stays spent: it is gone).
 */
export async function refundPoints(db: Db, userId: string, amount: number, ref: { key: string; refId?: string; chargeKey?: string }): Promise<void> {
  if (amount <= 0) return;
  const chargeKey = ref.chargeKey ?? ref.key.replace(/^refund:/, '');
  try {
    await db.execute(sql`
      with c as (
        select coalesce(sum(-delta), 0)::int as held_balance, coalesce(sum(allowance), 0)::int as held_allowance,
          coalesce(bool_and(created_at::date = current_date), false) as today
        from ${pointLedger} where idempotency_key = ${chargeKey} and user_id = ${userId}
      ),
      b as (select user_id, balance from ${pointBalances} where user_id = ${userId} for update),
      d as (
        select b.user_id, least(${amount}, greatest(c.held_balance, 0)) as back_balance,
          case when c.today then least(${amount} - least(${amount}, greatest(c.held_balance, 0)), greatest(c.held_allowance, 0)) else 0 end as back_allowance
        from b, c
      ),
      upd as (
        update ${pointBalances} p set
          balance = p.balance + d.back_balance,
          -- A part given back today was taken today: daily_day is today, daily_left today's.
          daily_left = p.daily_left + d.back_allowance,
          used_total = greatest(p.used_total - d.back_balance - d.back_allowance, 0)
        from d where p.user_id = d.user_id returning p.balance, d.back_balance, d.back_allowance
      )
      insert into ${pointLedger} (id, user_id, delta, allowance, balance_after, reason, ref_id, idempotency_key)
      select ${randomUUID()}, ${userId}, upd.back_balance, -upd.back_allowance, upd.balance, 'refund', ${ref.refId ?? null}, ${ref.key} from upd`);
  } catch (err) {
    if (!isUniqueViolation(err, 'point_ledger_idempotency_key_unique')) throw err;
  }
}

/**
 * Settles a token-priced message (docs/economy.md#token-pricing) against `cost`, the price of its
 * tokens: one statement, once per message.
 * - The message row is locked and marked settled: a second call finds it settled and changes
 *   nothing (the entry's key `settle:message:<id>` is a second guard).
 * - The hold is read from the message's own charge entry (`message:<id>`), what was really taken.
 * - Cost above the hold: the rest is taken, today's free allowance first, never more than the user
 *   has (an answer already given is not owed: what is missing is noted on the entry).
 * - Cost below: the difference goes back to the balance up to what the hold took from it, the rest
 *   to today's allowance (the allowance pays first, as with any charge). An allowance of a day that
 *   has passed is gone: that part goes to the balance.
 * Returns the points taken (negative: given back), or null when there was nothing to settle.
 */
export async function settleTokenCharge(
  db: Db,
  s: { userId: string; messageId: string; cost: number; dailyAllowance: number; note: string },
): Promise<number | null> {
  const { userId, messageId } = s;
  try {
    const result = await db.execute<{ net: number | null }>(sql`
      with m as (
        select id from ${chatMessages} where id = ${messageId} and user_id = ${userId} and not points_settled for update
      ),
      h as (
        select coalesce(sum(allowance - delta), 0)::int as held, coalesce(sum(-delta), 0)::int as held_balance,
          coalesce(bool_and(created_at::date = current_date), false) as hold_today
        from ${pointLedger} where idempotency_key = ${`message:${messageId}`}
      ),
      b as (
        select user_id, balance, ${dailyLeftSql(s.dailyAllowance)} as daily
        from ${pointBalances} where user_id = ${userId} and exists (select 1 from m) for update
      ),
      d as (
        select b.*, h.held_balance, h.hold_today, greatest(${s.cost} - h.held, 0) as want, greatest(h.held - ${s.cost}, 0) as back
        from b, h
      ),
      e as (
        select d.*, least(d.want, d.daily + d.balance) as take,
          case when d.hold_today then d.back - least(d.back, d.held_balance) else 0 end as back_allowance
        from d
      ),
      f as (select e.*, least(e.take, e.daily) as take_allowance from e),
      upd as (
        update ${pointBalances} p set
          balance = f.balance - (f.take - f.take_allowance) + (f.back - f.back_allowance),
          daily_left = f.daily - f.take_allowance + f.back_allowance,
          daily_day = current_date,
          used_total = greatest(p.used_total + f.take - f.back, 0)
        from f where p.user_id = f.user_id
        returning p.balance, f.take, f.back, f.want, f.take_allowance, f.back_allowance
      ),
      ins as (
        insert into ${pointLedger} (id, user_id, delta, allowance, balance_after, reason, ref_id, idempotency_key, note)
        select ${randomUUID()}, ${userId}, (back - back_allowance) - (take - take_allowance), take_allowance - back_allowance, balance,
          'settle', ${messageId}, ${`settle:message:${messageId}`},
          ${s.note} || case when want > take then ' (' || (want - take) || ' not covered)' else '' end
        from upd where take > 0 or back > 0
      ),
      msg as (
        update ${chatMessages} set points_settled = true, points_cost = points_cost + (select take - back from upd)
        where id in (select id from m) and exists (select 1 from upd)
      )
      select (select take - back from upd) as net`);
    const net = result.rows[0]?.net;
    return net === null || net === undefined ? null : Number(net);
  } catch (err) {
    if (isUniqueViolation(err, 'point_ledger_idempotency_key_unique')) return null;
    throw err;
  }
}

/**
 * The user's points as GetUserIntegralByLogin answers them: what can be spent now (`integralValue`:
 * the balance plus today's free allowance left), and its two parts: today's free allowance left, of
 * how many a day, and when it is refilled (the next midnight of the database's day, `current_date`,
 * which decides the allowance's day: an instant, so each client says it in its own time), and the
 * balance, which does not reset (`kept`).
 */
export async function getIntegral(db: Db, userId: string, dailyAllowance: number): Promise<IntegralEntry[]> {
  // One row even without a balance row (a full allowance, nothing kept): the left join on a constant.
  const result = await db.execute<{ balance: number | null; daily: number | string; used: number | null; resets_at_ms: number | string }>(sql`
    select ${pointBalances.balance} as balance, ${dailyLeftSql(dailyAllowance)} as daily, ${pointBalances.usedTotal} as used,
      extract(epoch from (current_date + 1)::timestamptz) * 1000 as resets_at_ms
    from (select 1) as one left join ${pointBalances} on ${pointBalances.userId} = ${userId}`);
  const row = result.rows[0];
  const kept = Number(row.balance ?? 0);
  const freeLeft = Number(row.daily);
  return [
    {
      integralType: MAIN_INTEGRAL_TYPE,
      integralValue: kept + freeLeft,
      useIntegral: Number(row.used ?? 0),
      freeLeft,
      freeDaily: dailyAllowance,
      freeResetsAt: new Date(Number(row.resets_at_ms)).toISOString(),
      kept,
    },
  ];
}

/** A page of the user's ledger, newest first. */
export async function listLedger(db: Db, userId: string, page: number, pageSize: number, kind?: LedgerKind) {
  const where = kind ? and(eq(pointLedger.userId, userId), eq(pointLedger.reason, kind)) : eq(pointLedger.userId, userId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: pointLedger.id,
        kind: pointLedger.reason,
        delta: pointLedger.delta,
        allowance: pointLedger.allowance,
        balanceAfter: pointLedger.balanceAfter,
        note: pointLedger.note,
        refId: pointLedger.refId,
        createTime: pointLedger.createdAt,
      })
      .from(pointLedger)
      .where(where)
      .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(pointLedger).where(where),
  ]);
  return { total, list: rows.map((r) => ({ ...r, kind: r.kind as LedgerKind, createTime: r.createTime.toISOString() })) };
}

/**
 * An operator's grant or deduction, on the ledger with the operator's reason. Applied once per
 * `requestId`; a deduction never takes the balance below zero.
 */
export async function adjustPoints(db: Db, body: AdminAdjustPoints): Promise<{ applied: boolean; balance: number }> {
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.id, body.userId));
  if (!account) throw new AppError(Codes.NotFound, 'notFound');
  await ensureBalance(db, body.userId);
  const change = { userId: body.userId, delta: body.amount, kind: 'admin' as const, key: `admin:${body.requestId}`, note: body.note };
  const result = await applyLedgerChange(db, change);
  if (result.status === 'applied') return { applied: true, balance: result.balance };
  const [row] = await db.select({ balance: pointBalances.balance }).from(pointBalances).where(eq(pointBalances.userId, body.userId));
  if (result.status === 'insufficient') throw new AppError(Codes.BadRequest, 'pointsDeductTooLarge', { balance: row.balance });
  return { applied: false, balance: row.balance };
}
