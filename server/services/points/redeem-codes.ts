import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { RedeemBatch, RedeemBatchCreate, RedeemResult } from '../../../shared/contracts/redeem-codes.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { redeemBatches, redeemCodes, redeemUses } from '../../db/schema/redeem-codes.ts';
import { pointBalances } from '../../db/schema/points.ts';
import { AppError } from '../../core/errors.ts';
import { creditPoints } from './ledger.ts';
import { addPlanDays } from '../plans/plans.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';

/**
 * Redeem codes (docs/economy.md#redeem-codes). An operator generates a batch of random codes, each
 * worth points and/or plan days; a user redeems a code once, in one transaction that locks the code's
 * row, so a code's uses never exceed its batch's usesPerCode however many users try it at once.
 */

/** No look-alikes (0/O, 1/I): 32 symbols, so each is 5 random bits. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 16 symbols: 80 random bits, beyond guessing even with millions of codes out. */
export const CODE_LENGTH = 16;
const CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);
const INSERT_CHUNK = 1000;

/** A new code, canonical. 256 is a multiple of 32, so `byte & 31` picks each symbol uniformly. */
export function newCode(): string {
  return Array.from(randomBytes(CODE_LENGTH), (b) => CODE_ALPHABET[b & 31]).join('');
}

/** What is stored and compared: upper case, without spaces or dashes (as users copy and type codes). */
export function canonicalCode(input: string): string {
  return input.toUpperCase().replace(/[\s\-\u2010-\u2015\u2212]/g, '');
}

/** As shown to people: XXXX-XXXX-XXXX-XXXX. */
export function formatCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** Makes a batch and its codes, all or nothing. A code that exists already (never seen yet) is drawn again. */
export async function generateBatch(db: Db, createdBy: string, input: RedeemBatchCreate): Promise<{ batchId: string; count: number }> {
  const batchId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(redeemBatches).values({
      id: batchId,
      name: input.name,
      points: input.points,
      planDays: input.planDays,
      planLevel: input.planDays > 0 ? input.planLevel : 0,
      usesPerCode: input.usesPerCode,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      createdBy,
    });
    let missing = input.count;
    for (let round = 0; missing > 0; round++) {
      if (round >= 5) throw new Error('could not draw unique redeem codes');
      const fresh = [...new Set(Array.from({ length: missing }, newCode))];
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
        const chunk = fresh.slice(i, i + INSERT_CHUNK).map((code) => ({ code, batchId }));
        const inserted = await tx.insert(redeemCodes).values(chunk).onConflictDoNothing().returning({ code: redeemCodes.code });
        missing -= inserted.length;
      }
    }
  });
  return { batchId, count: input.count };
}

/** A batch's terms: what each code grants, how often and until when; the list and a redeem read them alike. */
const batchTerms = {
  name: redeemBatches.name,
  points: redeemBatches.points,
  planDays: redeemBatches.planDays,
  planLevel: redeemBatches.planLevel,
  usesPerCode: redeemBatches.usesPerCode,
  expiresAt: redeemBatches.expiresAt,
  disabled: redeemBatches.disabled,
};

const batchFields = {
  id: redeemBatches.id,
  ...batchTerms,
  codeCount: sql`(select count(*) from ${redeemCodes} c where c.batch_id = ${redeemBatches.id})`.mapWith(Number),
  redeemedCount: sql`(select coalesce(sum(c.uses), 0) from ${redeemCodes} c where c.batch_id = ${redeemBatches.id})`.mapWith(Number),
  createdAt: redeemBatches.createdAt,
};

async function selectBatches(db: Db, where: SQL | undefined, page = 1, pageSize = 1): Promise<RedeemBatch[]> {
  const rows = await db
    .select(batchFields)
    .from(redeemBatches)
    .where(where)
    .orderBy(desc(redeemBatches.createdAt), desc(redeemBatches.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map(({ createdAt, expiresAt, ...r }) => ({ ...r, expiresAt: expiresAt?.toISOString() ?? null, createTime: createdAt.toISOString() }));
}

async function batchOrNotFound(db: Db, batchId: string): Promise<RedeemBatch> {
  const [batch] = await selectBatches(db, eq(redeemBatches.id, batchId));
  if (!batch) throw new AppError(Codes.NotFound, 'notFound');
  return batch;
}

/** The batches, newest first, with how many codes each has and how often they were redeemed. */
export async function listBatches(db: Db, page: number, pageSize: number) {
  const [list, [{ total }]] = await Promise.all([selectBatches(db, undefined, page, pageSize), db.select({ total: count() }).from(redeemBatches)]);
  return { list, total };
}

export async function listCodes(db: Db, batchId: string, page: number, pageSize: number) {
  await batchOrNotFound(db, batchId);
  const where = eq(redeemCodes.batchId, batchId);
  const [rows, [{ total }]] = await Promise.all([
    db.select({ code: redeemCodes.code, uses: redeemCodes.uses }).from(redeemCodes).where(where).orderBy(redeemCodes.code).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(redeemCodes).where(where),
  ]);
  return { list: rows.map((r) => ({ code: formatCode(r.code), uses: r.uses })), total };
}

/** Every code of a batch as CSV (a header row, then `code,uses`), with a file name made of the batch's. */
export async function batchCsv(db: Db, batchId: string): Promise<{ fileName: string; csv: string }> {
  const batch = await batchOrNotFound(db, batchId);
  const rows = await db.select({ code: redeemCodes.code, uses: redeemCodes.uses }).from(redeemCodes).where(eq(redeemCodes.batchId, batchId)).orderBy(redeemCodes.code);
  const csv = ['code,uses', ...rows.map((r) => `${formatCode(r.code)},${r.uses}`)].join('\r\n') + '\r\n';
  const slug = batch.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'batch';
  return { fileName: `redeem-codes-${slug}-${batchId.slice(0, 8)}.csv`, csv };
}

export async function setBatchDisabled(db: Db, batchId: string, disabled: boolean): Promise<RedeemBatch> {
  const updated = await db.update(redeemBatches).set({ disabled }).where(eq(redeemBatches.id, batchId)).returning({ id: redeemBatches.id });
  if (!updated.length) throw new AppError(Codes.NotFound, 'notFound');
  return batchOrNotFound(db, batchId);
}

/**
 * Failed redeems per user in the last hour, kept in memory (per server instance; the route's per-IP
 * limit applies on top). An attempt counts from its start, so parallel guesses count too; a success
 * takes its attempt back.
 */
export const MAX_FAILURES_PER_HOUR = 20;
const FAILURE_WINDOW_MS = 3_600_000;
const attemptLogs = new WeakMap<AppContext, Map<string, number[]>>();

function recentAttempts(ctx: AppContext, userId: string, now: number): number[] {
  let byUser = attemptLogs.get(ctx);
  if (!byUser) attemptLogs.set(ctx, (byUser = new Map()));
  // Users whose failures are all older than the window are forgotten, so the map stays small.
  if (byUser.size > 10_000) for (const [id, times] of byUser) if (times.every((t) => t <= now - FAILURE_WINDOW_MS)) byUser.delete(id);
  const recent = (byUser.get(userId) ?? []).filter((t) => t > now - FAILURE_WINDOW_MS);
  byUser.set(userId, recent);
  return recent;
}

/** Counts an attempt, or answers 10429 with the minutes until the oldest failure leaves the window. */
function startAttempt(ctx: AppContext, userId: string): { succeeded(): void } {
  const now = Date.now();
  const recent = recentAttempts(ctx, userId, now);
  if (recent.length >= MAX_FAILURES_PER_HOUR) {
    throw new AppError(Codes.RateLimited, 'redeemTooManyFailures', { minutes: Math.max(1, Math.ceil((recent[0]! + FAILURE_WINDOW_MS - now) / 60_000)) });
  }
  recent.push(now);
  return {
    succeeded() {
      const current = attemptLogs.get(ctx)?.get(userId) ?? [];
      const i = current.indexOf(now);
      if (i >= 0) current.splice(i, 1);
    },
  };
}

/** One answer for every refusal (unknown, used up, expired, disabled, redeemed before), so codes cannot be probed. */
const refused = () => new AppError(Codes.BadRequest, 'redeemFailed');

async function balanceOf(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ balance: pointBalances.balance }).from(pointBalances).where(eq(pointBalances.userId, userId));
  return row?.balance ?? 0;
}

/** Redeems a canonical code for the user, all in one transaction; refuses alike whatever is wrong. */
async function redeemOnce(db: Db, userId: string, code: string): Promise<RedeemResult> {
  if (!CODE_PATTERN.test(code)) throw refused();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        uses: redeemCodes.uses,
        batchId: redeemBatches.id,
        ...batchTerms,
      })
      .from(redeemCodes)
      .innerJoin(redeemBatches, eq(redeemBatches.id, redeemCodes.batchId))
      .where(eq(redeemCodes.code, code))
      // Redeemers of one code queue here, and each sees the uses the one before left.
      .for('update', { of: redeemCodes });
    if (!found || found.disabled || (found.expiresAt && found.expiresAt <= new Date()) || found.uses >= found.usesPerCode) throw refused();
    const used = await tx.insert(redeemUses).values({ code, userId }).onConflictDoNothing().returning({ code: redeemUses.code });
    if (!used.length) throw refused();
    await tx.update(redeemCodes).set({ uses: sql`${redeemCodes.uses} + 1` }).where(eq(redeemCodes.code, code));
    let balance: number | undefined;
    if (found.points > 0) {
      const key = `redeem:${code}:${userId}`;
      const credited = await creditPoints(tx, { userId, delta: found.points, kind: 'redeem', key, refId: found.batchId, note: found.name });
      // Only when the use row was removed by hand after its credit: this user redeemed the code before.
      if (credited.status !== 'applied') throw refused();
      balance = credited.balance;
    }
    const planDays = found.planDays > 0 && found.planLevel > 0 ? found.planDays : 0;
    if (planDays > 0) await addPlanDays(tx, userId, found.planLevel, planDays, { source: 'redeem' });
    await notify(tx, {
      userId,
      kind: 'redeem',
      titleKey: 'notifications.redeem.title',
      bodyKey: 'notifications.redeem.body',
      params: { points: found.points, planDays },
      dedupeKey: `redeem:${code}:${userId}`,
    });
    const kind = found.points > 0 && planDays > 0 ? 'both' : planDays > 0 ? 'plan' : 'points';
    return { kind, points: found.points, planDays, planLevel: planDays > 0 ? found.planLevel : 0, balance: balance ?? (await balanceOf(tx, userId)) };
  });
}

/** A user's redeem, within the per-user limit of failed attempts. */
export async function redeemCode(ctx: AppContext, userId: string, input: string): Promise<RedeemResult> {
  const attempt = startAttempt(ctx, userId);
  try {
    const result = await announcingNotified(ctx, () => redeemOnce(ctx.db, userId, canonicalCode(input)));
    attempt.succeeded();
    return result;
  } catch (err) {
    // Only a refusal counts against the user; our own failure does not.
    if (!(err instanceof AppError && err.key === 'redeemFailed')) attempt.succeeded();
    throw err;
  }
}

/**
 * Whether `input` is a code this user could redeem now, without redeeming it: the promo-code box asks
 * which kind of code it was given (CheckPromoCode, server/services/plans/coupons.ts). Every other code
 * (unknown, used up, expired, disabled, redeemed before by this user) answers false alike, and counts
 * against the same per-user limit of failed attempts as a redeem, so asking probes no faster.
 */
export async function isRedeemable(ctx: AppContext, userId: string, input: string): Promise<boolean> {
  const attempt = startAttempt(ctx, userId);
  const code = canonicalCode(input);
  let redeemable = false;
  try {
    if (CODE_PATTERN.test(code)) {
      const [found] = await ctx.db
        .select({
          uses: redeemCodes.uses,
          usesPerCode: redeemBatches.usesPerCode,
          expiresAt: redeemBatches.expiresAt,
          disabled: redeemBatches.disabled,
          mine: redeemUses.userId,
        })
        .from(redeemCodes)
        .innerJoin(redeemBatches, eq(redeemBatches.id, redeemCodes.batchId))
        .leftJoin(redeemUses, and(eq(redeemUses.code, redeemCodes.code), eq(redeemUses.userId, userId)))
        .where(eq(redeemCodes.code, code));
      redeemable = !!found && !found.disabled && !(found.expiresAt && found.expiresAt <= new Date()) && found.uses < found.usesPerCode && !found.mine;
    }
  } catch (err) {
    attempt.succeeded(); // our own failure does not count against the user
    throw err;
  }
  if (redeemable) attempt.succeeded();
  return redeemable;
}
