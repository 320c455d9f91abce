import { and, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminInviteCode, AdminInviteUse } from '../../../shared/contracts/admin-invites.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { escapeLike } from '../../db/like.ts';
import { pointLedger } from '../../db/schema/points.ts';
import { users } from '../../db/schema/users.ts';
import { alias } from 'drizzle-orm/pg-core';
import { canonicalInviteCode } from '../points/invites.ts';

/**
 * Invite codes for operators (docs/economy.md#invites): every account's own code with its uses and
 * the points it earned; disabling one makes sign-ups with it link no inviter (findInviter), so it
 * credits nothing new; the uses, with the reward the ledger paid for each (key `invite:<invitee>`).
 */

const like = (text: string) => `%${escapeLike(text)}%`;

const ownerIdColumn = sql.raw('"users"."id"');
const codeFields = {
  inviteCode: users.ownInviteCode,
  ownerId: users.id,
  ownerEmail: users.email,
  ownerName: users.userName,
  disabledAt: users.inviteCodeDisabledAt,
  usedCount: sql`(select count(*) from ${users} i where i.invited_by = ${ownerIdColumn})`.mapWith(Number),
  creditedCount: sql`(select count(*) from ${pointLedger} l where l.user_id = ${ownerIdColumn} and l.reason = 'invite')`.mapWith(Number),
  pointsPaid: sql`(select coalesce(sum(l.delta), 0) from ${pointLedger} l where l.user_id = ${ownerIdColumn} and l.reason = 'invite')`.mapWith(Number),
};

type CodeRow = { inviteCode: string | null; ownerId: string; ownerEmail: string; ownerName: string; disabledAt: Date | null; usedCount: number; creditedCount: number; pointsPaid: number };

const codeView = (r: CodeRow): AdminInviteCode => ({
  inviteCode: r.inviteCode ?? '',
  ownerId: r.ownerId,
  ownerEmail: r.ownerEmail,
  ownerName: r.ownerName,
  disabled: r.disabledAt !== null,
  disabledTime: r.disabledAt?.toISOString() ?? null,
  usedCount: r.usedCount,
  creditedCount: r.creditedCount,
  pointsPaid: r.pointsPaid,
});

/** The accounts' own codes (made when first asked for), most used first. */
export async function listInviteCodes(
  ctx: AppContext,
  q: { page: number; count: number; keyword?: string; status: 'all' | 'active' | 'disabled' },
): Promise<Paged<AdminInviteCode>> {
  const conditions: (SQL | undefined)[] = [isNotNull(users.ownInviteCode)];
  if (q.keyword) {
    conditions.push(or(eq(users.ownInviteCode, canonicalInviteCode(q.keyword)), ilike(users.email, like(q.keyword)), ilike(users.userName, like(q.keyword))));
  }
  if (q.status === 'active') conditions.push(isNull(users.inviteCodeDisabledAt));
  if (q.status === 'disabled') conditions.push(isNotNull(users.inviteCodeDisabledAt));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(codeFields)
      .from(users)
      .where(where)
      .orderBy(desc(codeFields.usedCount), desc(users.createdAt), desc(users.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(users).where(where),
  ]);
  return { list: rows.map(codeView), total };
}

/** One account's code, for the audit log (null: the account has none). */
export async function getInviteCode(ctx: AppContext, ownerId: string): Promise<AdminInviteCode | null> {
  const [row] = await ctx.db.select(codeFields).from(users).where(and(eq(users.id, ownerId), isNotNull(users.ownInviteCode)));
  return row ? codeView(row) : null;
}

/** Disables an account's code (sign-ups with it then link no inviter and credit nothing), or enables it again. */
export async function setInviteCodeDisabled(ctx: AppContext, ownerId: string, disabled: boolean): Promise<AdminInviteCode> {
  const updated = await ctx.db
    .update(users)
    // Disabling again keeps the first time.
    .set({ inviteCodeDisabledAt: disabled ? sql`coalesce(${users.inviteCodeDisabledAt}, now())` : null })
    .where(and(eq(users.id, ownerId), isNotNull(users.ownInviteCode)))
    .returning({ id: users.id });
  if (!updated.length) throw new AppError(Codes.NotFound, 'notFound');
  return (await getInviteCode(ctx, ownerId))!;
}

/** Who signed up with which code, newest first, with the reward the ledger paid the code's owner. */
export async function listInviteUses(ctx: AppContext, q: { page: number; count: number; keyword?: string; ownerId?: string }): Promise<Paged<AdminInviteUse>> {
  const owner = alias(users, 'owner');
  const conditions: (SQL | undefined)[] = [isNotNull(users.invitedBy)];
  if (q.ownerId) conditions.push(eq(users.invitedBy, q.ownerId));
  if (q.keyword) {
    const k = like(q.keyword);
    conditions.push(
      or(eq(owner.ownInviteCode, canonicalInviteCode(q.keyword)), ilike(users.email, k), ilike(users.userName, k), ilike(owner.email, k), ilike(owner.userName, k)),
    );
  }
  const where = and(...conditions);
  const base = () =>
    ctx.db
      .select({
        inviteCode: owner.ownInviteCode,
        ownerId: owner.id,
        ownerEmail: owner.email,
        inviteeId: users.id,
        inviteeEmail: users.email,
        inviteeName: users.userName,
        useTime: users.createdAt,
        pointsPaid: pointLedger.delta,
        paidTime: pointLedger.createdAt,
      })
      .from(users)
      .innerJoin(owner, eq(owner.id, users.invitedBy))
      // The credit's key names the invitee; it must be the owner's entry.
      .leftJoin(pointLedger, and(eq(pointLedger.idempotencyKey, sql`'invite:' || ${users.id}`), eq(pointLedger.userId, owner.id)));
  const [rows, [{ total }]] = await Promise.all([
    base()
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(users).innerJoin(owner, eq(owner.id, users.invitedBy)).where(where),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      inviteCode: r.inviteCode ?? '',
      ownerId: r.ownerId,
      ownerEmail: r.ownerEmail,
      inviteeId: r.inviteeId,
      inviteeEmail: r.inviteeEmail,
      inviteeName: r.inviteeName,
      useTime: r.useTime.toISOString(),
      pointsPaid: r.pointsPaid,
      paidTime: r.paidTime?.toISOString() ?? null,
    })),
  };
}
