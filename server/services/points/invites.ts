import { randomInt } from 'node:crypto';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { InviteInfo, InvitedAccount } from '../../../shared/contracts/invites.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { pointBalances, pointLedger } from '../../db/schema/points.ts';
import { users } from '../../db/schema/users.ts';
import { applyLedgerChange, ensureBalance } from './ledger.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';
import { SETTINGS, settingValues, wholeNumberSetting } from '../system/settings.ts';

/**
 * Invites (docs/economy.md#invites): every account has a code of its own; an account that signs up
 * with it is linked to the inviter (accounts.ts, createAccount), and the inviter earns
 * `invite_points` on the ledger once the invitee has spent `invite_min_spend` points of their own
 * (beyond the free daily allowance), at most once per invitee and at most `invite_daily_cap` times
 * per UTC day. With the setting require_verified_email_for_invite_reward on, the invitee's e-mail must
 * be verified too (docs/api.md#verified-e-mail).
 */

/** Upper-case letters and digits without the look-alikes 0/O, 1/I/L. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
/** 31^8 ≈ 8.5e11 codes: a collision is rare, five in a row is a bug. */
const CODE_ATTEMPTS = 5;

export const newInviteCode = () => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** Codes are compared in one form, so a code typed in lower case or with spaces around still counts. */
export const canonicalInviteCode = (code: string) => code.trim().toUpperCase();

const inviteKey = (inviteeId: string) => `invite:${inviteeId}`;

/** The sign-up link that carries `code` (the invite page shows it; the poster's QR code holds it). */
export const inviteUrlOf = (ctx: AppContext, code: string) => `${ctx.config.publicUrl}/?inviteCode=${encodeURIComponent(code)}`;

/** Invite settings as whole numbers ≥ 0; a stored value that is not one reads as the default. */
async function intSettings<K extends 'invite_points' | 'invite_daily_cap' | 'invite_min_spend'>(ctx: AppContext, keys: readonly K[]): Promise<Record<K, number>> {
  const values = await settingValues(ctx, keys);
  const out = {} as Record<K, number>;
  for (const key of keys) out[key] = wholeNumberSetting(values[key], 0, 999_999_999, Number(SETTINGS.find((d) => d.key === key)!.defaultValue(ctx.config)));
  return out;
}

/**
 * The account's own code, made on first request. The conditional update (`where own_invite_code is
 * null`) makes two first requests at once agree: the second waits for the first's row lock, then
 * finds the code set and changes nothing, and both read the first's code. A code that another
 * account already has fails on the unique key and is drawn again.
 */
export async function ensureOwnInviteCode(db: Db, userId: string): Promise<string> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const [row] = await db.select({ code: users.ownInviteCode }).from(users).where(eq(users.id, userId));
    if (!row) throw new Error(`no account ${userId}`);
    if (row.code) return row.code;
    try {
      await db
        .update(users)
        .set({ ownInviteCode: newInviteCode() })
        .where(and(eq(users.id, userId), isNull(users.ownInviteCode)));
    } catch (err) {
      if (!isUniqueViolation(err, 'users_own_invite_code_unique')) throw err;
    }
  }
  throw new Error('could not make a unique invite code');
}

/** The active account whose own code `code` is, or null: an unknown or disabled code is not an error (it links nobody). */
export async function findInviter(db: Db, code: string): Promise<{ id: string; userName: string } | null> {
  const canonical = canonicalInviteCode(code);
  if (!canonical) return null;
  const [row] = await db
    .select({ id: users.id, userName: users.userName })
    .from(users)
    .where(and(eq(users.ownInviteCode, canonical), eq(users.status, 'active'), isNull(users.inviteCodeDisabledAt)));
  return row ?? null;
}

export async function getMyInvite(ctx: AppContext, userId: string): Promise<InviteInfo> {
  const inviteCode = await ensureOwnInviteCode(ctx.db, userId);
  const [[invited], [earned], settings, [own]] = await Promise.all([
    ctx.db.select({ n: count() }).from(users).where(eq(users.invitedBy, userId)),
    ctx.db
      .select({ n: count(), points: sql<number>`coalesce(sum(${pointLedger.delta}), 0)`.mapWith(Number) })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, userId), eq(pointLedger.reason, 'invite'))),
    intSettings(ctx, ['invite_points']),
    ctx.db.select({ disabledAt: users.inviteCodeDisabledAt }).from(users).where(eq(users.id, userId)),
  ]);
  return {
    inviteCode,
    inviteUrl: inviteUrlOf(ctx, inviteCode),
    invitedCount: invited.n,
    creditedCount: earned.n,
    pointsEarned: earned.points,
    pointsPerInvite: settings.invite_points,
    disabled: !!own?.disabledAt,
  };
}

/** "Alice" → "Al***": enough for the inviter to recognise a friend, not to identify a stranger. */
export function maskName(name: string): string {
  const chars = Array.from(name.trim());
  return `${chars.slice(0, chars.length > 2 ? 2 : 1).join('')}***`;
}

/** The accounts the caller invited, newest first, with what each earned. No e-mail leaves here. */
export async function listInvited(db: Db, userId: string, page: number, pageSize: number): Promise<Paged<InvitedAccount>> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ userName: users.userName, createdAt: users.createdAt, points: pointLedger.delta })
      .from(users)
      // The credit's key names the invitee (unique in the ledger); it must be this inviter's entry.
      .leftJoin(pointLedger, and(eq(pointLedger.idempotencyKey, sql`'invite:' || ${users.id}`), eq(pointLedger.userId, userId)))
      .where(eq(users.invitedBy, userId))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(users).where(eq(users.invitedBy, userId)),
  ]);
  const list = rows.map((r) => ({
    userName: maskName(r.userName),
    createTime: r.createdAt.toISOString(),
    credited: r.points !== null,
    points: r.points ?? 0,
  }));
  return { list, total };
}

type CreditOutcome = 'credited' | 'none' | 'duplicate' | 'closed' | 'capped' | 'not-yet';

/**
 * Points the account spent from its own balance: what its uses (messages, tool calls, drawings,
 * token settlements) took from the balance, less what refunds gave back to it. The free daily
 * allowance is not counted: an account made only to be an invitee spends nothing of its own.
 */
async function ownPointsSpent(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ spent: sql<number>`coalesce(sum(-${pointLedger.delta}), 0)`.mapWith(Number) })
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), sql`${pointLedger.reason} in ('message', 'plugin', 'draw', 'translate', 'settle', 'refund')`));
  return row?.spent ?? 0;
}

/** The setting require_verified_email_for_invite_reward: only 'true' turns the wait on. */
async function requiresVerifiedEmail(ctx: AppContext): Promise<boolean> {
  const { require_verified_email_for_invite_reward: value } = await settingValues(ctx, ['require_verified_email_for_invite_reward']);
  return value === 'true';
}

/** Thrown inside the credit's transaction to undo it (a duplicate key has aborted it already). */
class Undo extends Error {
  constructor(readonly outcome: CreditOutcome) {
    super(outcome);
  }
}

/**
 * Credits the inviter of `inviteeId`, if any and not done before. The inviter's balance row is locked
 * first, so the count against the daily cap and the credit are exact even when several invitees
 * write at once; the notification is written in the same transaction, so it exists exactly when the
 * credit does.
 */
export async function creditInviter(ctx: AppContext, inviteeId: string): Promise<CreditOutcome> {
  const key = inviteKey(inviteeId);
  // The common case, an account nobody invited or one already credited, costs this one lookup.
  const [pair] = await ctx.db
    .select({ inviterId: users.invitedBy, inviteeName: users.userName, inviteeStatus: users.status, inviteeVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(and(eq(users.id, inviteeId), sql`${users.invitedBy} is not null`, sql`not exists (select 1 from ${pointLedger} where ${pointLedger.idempotencyKey} = ${key})`));
  if (!pair?.inviterId) return 'none';
  const inviterId = pair.inviterId;
  const [inviter] = await ctx.db.select({ status: users.status }).from(users).where(eq(users.id, inviterId));
  if (!inviter || inviter.status !== 'active' || pair.inviteeStatus !== 'active') {
    ctx.log.info({ inviterId, inviteeId }, 'invite not credited: an account is closed');
    return 'closed';
  }
  const settings = await intSettings(ctx, ['invite_points', 'invite_daily_cap', 'invite_min_spend']);
  if (settings.invite_points <= 0) return 'none';
  // The operator may make the reward wait for the invitee's verified e-mail: verifying tries again
  // (accounts/email-verification.ts), and so does every later message.
  if (!pair.inviteeVerifiedAt && (await requiresVerifiedEmail(ctx))) return 'not-yet';
  // Scripted sign-ups living on the free allowance earn their inviter nothing; tried again at the next message.
  if (settings.invite_min_spend > 0 && (await ownPointsSpent(ctx.db, inviteeId)) < settings.invite_min_spend) return 'not-yet';
  await ensureBalance(ctx.db, inviterId);
  try {
    return await announcingNotified(ctx, () => ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ${pointBalances} where user_id = ${inviterId} for update`);
      const [{ today }] = await tx
        .select({ today: count() })
        .from(pointLedger)
        .where(
          and(
            eq(pointLedger.userId, inviterId),
            eq(pointLedger.reason, 'invite'),
            sql`${pointLedger.createdAt} >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
          ),
        );
      if (today >= settings.invite_daily_cap) throw new Undo('capped');
      const change = { userId: inviterId, delta: settings.invite_points, kind: 'invite' as const, key, refId: inviteeId };
      const result = await applyLedgerChange(tx, change);
      if (result.status !== 'applied') throw new Undo('duplicate');
      await notify(tx, {
        userId: inviterId,
        kind: 'invite',
        titleKey: 'notifications.inviteCredited.title',
        bodyKey: 'notifications.inviteCredited.body',
        // Masked as in the invite list: an invitee's name is theirs to show.
        params: { points: settings.invite_points, name: maskName(pair.inviteeName) },
        dedupeKey: `invite-credited:${inviteeId}`,
      });
      return 'credited' as const;
    }));
  } catch (err) {
    if (!(err instanceof Undo)) throw err;
    if (err.outcome === 'capped') ctx.log.info({ inviterId, inviteeId, cap: settings.invite_daily_cap }, 'invite not credited: daily cap reached');
    return err.outcome;
  }
}

/** Credits in flight, per server: awaited before it closes (and by tests). */
const inFlight = new WeakMap<AppContext, Set<Promise<void>>>();

/**
 * After an invitee's message is stored (chat/prepare.ts): credits the inviter beside the answer,
 * never delaying or failing the message. Runs on every message until the credit is made; the first
 * lookup of creditInviter ends it at once for everyone else.
 */
export function creditInviterLater(ctx: AppContext, inviteeId: string): void {
  let set = inFlight.get(ctx);
  if (!set) inFlight.set(ctx, (set = new Set()));
  const running = set;
  const job: Promise<void> = creditInviter(ctx, inviteeId)
    .then(() => undefined)
    .catch((err: unknown) => ctx.log.error({ err, inviteeId }, 'crediting an invite failed'))
    .finally(() => running.delete(job));
  running.add(job);
}

export async function settleInviteCredits(ctx: AppContext): Promise<void> {
  await Promise.all([...(inFlight.get(ctx) ?? [])]);
}
