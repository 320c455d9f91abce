import { and, asc, count, desc, eq, gt, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type {
  AdminUser,
  AdminUserDetail,
  AdminUserListQuery,
  DeletePreview,
  EndPlanResult,
  GrantPoints,
  SubscriptionFate,
} from '../../../shared/contracts/admin-users.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { chatMessages, chatSessions } from '../../db/schema/chat.ts';
import { favourites } from '../../db/schema/favourites.ts';
import { feedbacks } from '../../db/schema/feedback.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { stripeSubscriptions } from '../../db/schema/plans.ts';
import { pointBalances, pointLedger } from '../../db/schema/points.ts';
import { browserRecords, requestTimes } from '../../db/schema/system.ts';
import { users, vipOrders } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { revokeAllTokens } from '../accounts/auth.ts';
import { headImgKey, headImgPath } from '../accounts/head-img.ts';
import { revokeAllShares } from '../chat/shares.ts';
import { adjustPoints, listLedger } from '../points/ledger.ts';
import { levelName } from '../plans/plans.ts';
import { cancelSubscriptionNow, runningSubscription } from '../plans/stripe.ts';

/**
 * The console's Users pages (docs/api.md#users): the list with its figures, one user's page, and the
 * operator's actions on an account. Every figure is computed by the database.
 */

/**
 * The listed account's id, always qualified: Drizzle leaves columns unqualified in a select from one
 * table, where a subquery's own alias would capture a bare "id".
 */
const USER_ID = sql.raw('"users"."id"');

/** Timestamps as ISO text from SQL, alike on PGlite and PostgreSQL. */
const iso = (expr: SQL) => sql<string | null>`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The plan in force: the highest level of the orders that have not ended (as auth.ts reads it). */
const planLevelSql = sql<number>`coalesce((select max(v.package_level) from ${vipOrders} v where v.user_id = ${USER_ID} and v.end_time > now()), 0)`;
const planEndSql = iso(
  sql`(select v.end_time from ${vipOrders} v where v.user_id = ${USER_ID} and v.end_time > now() order by v.package_level desc, v.end_time desc limit 1)`,
);
const lastActiveRaw = sql`(select max(s.last_active_at) from ${chatSessions} s where s.user_id = ${USER_ID})`;
const sessionCountSql = sql<number>`(select count(*) from ${chatSessions} s where s.user_id = ${USER_ID})::int`;
const balanceSql = sql<number>`coalesce(${pointBalances.balance}, 0)`;

const rowFields = {
  userId: users.id,
  email: users.email,
  userName: users.userName,
  role: users.role,
  status: users.status,
  planLevel: planLevelSql.mapWith(Number),
  planEndTime: planEndSql,
  balance: balanceSql.mapWith(Number),
  sessionCount: sessionCountSql.mapWith(Number),
  lastActiveTime: iso(lastActiveRaw),
  createTime: iso(sql`${users.createdAt}`).mapWith(String),
  headImg: users.headImg,
  phone: users.phone,
  emailVerifiedAt: iso(sql`${users.emailVerifiedAt}`),
};

export function userRows(db: Db) {
  return db.select(rowFields).from(users).leftJoin(pointBalances, eq(pointBalances.userId, users.id));
}

export async function listAdminUsers(ctx: AppContext, q: AdminUserListQuery): Promise<Paged<AdminUser>> {
  const keyword = q.keyword;
  const conds: (SQL | undefined)[] = [
    keyword
      ? or(eq(users.id, keyword), ilike(users.email, `%${escapeLike(keyword)}%`), ilike(users.userName, `%${escapeLike(keyword)}%`))
      : undefined,
    q.email ? ilike(users.email, `%${escapeLike(q.email)}%`) : undefined,
    q.role ? eq(users.role, q.role) : undefined,
    q.status ? eq(users.status, q.status) : undefined,
    q.planLevel !== undefined ? sql`${planLevelSql} = ${q.planLevel}` : undefined,
  ];
  const where = and(...conds);
  const dir = q.order === 'asc' ? asc : desc;
  const nulls = q.order === 'asc' ? sql`nulls first` : sql`nulls last`;
  const order: SQL[] =
    q.sort === 'email'
      ? [dir(sql`lower(${users.email})`)]
      : q.sort === 'balance'
        ? [dir(balanceSql)]
        : q.sort === 'lastActive'
          ? [sql`${lastActiveRaw} ${sql.raw(q.order)} ${nulls}`]
          : [dir(users.createdAt)];
  const [rows, [{ total }]] = await Promise.all([
    userRows(ctx.db)
      .where(where)
      .orderBy(...order, dir(users.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(users).where(where),
  ]);
  return { list: rows.map(toAdminUser), total };
}

export function toAdminUser(r: Awaited<ReturnType<typeof userRows>>[number]): AdminUser {
  return { ...r, planLevel: Number(r.planLevel), balance: Number(r.balance), sessionCount: Number(r.sessionCount), headImg: headImgPath(r.headImg) };
}

async function userRow(db: Db, userId: string): Promise<AdminUser | null> {
  const [row] = await userRows(db).where(eq(users.id, userId));
  return row ? toAdminUser(row) : null;
}

/** The account as the audit log records it before and after an operator's action. */
export async function userAuditState(ctx: AppContext, userId: string): Promise<AdminUser | null> {
  return userRow(ctx.db, userId);
}

const inviteeCountSql = sql<number>`(select count(*) from ${users} i where i.invited_by = ${USER_ID})::int`;
const treeFields = {
  userId: users.id,
  email: users.email,
  userName: users.userName,
  createTime: iso(sql`${users.createdAt}`).mapWith(String),
  inviteeCount: inviteeCountSql.mapWith(Number),
};

export async function getAdminUser(ctx: AppContext, userId: string): Promise<AdminUserDetail> {
  const { db } = ctx;
  const base = await userRow(db, userId);
  if (!base) throw new AppError(Codes.NotFound, 'notFound');
  const [[sub], [stats], [balance], inviter, invitees, [{ inviteeTotal }], ledger, [disputes]] = await Promise.all([
    db
      .select({
        id: stripeSubscriptions.id,
        status: stripeSubscriptions.status,
        currentPeriodEnd: iso(sql`${stripeSubscriptions.currentPeriodEnd}`),
        cancelAtPeriodEnd: stripeSubscriptions.cancelAtPeriodEnd,
      })
      .from(stripeSubscriptions)
      .where(eq(stripeSubscriptions.userId, userId))
      .orderBy(desc(stripeSubscriptions.updatedAt))
      .limit(1),
    db
      .select({
        messages: sql<number>`count(*)::int`.mapWith(Number),
        input: sql<number>`coalesce(sum(${chatMessages.inputTokens}), 0)::bigint`.mapWith(Number),
        output: sql<number>`coalesce(sum(${chatMessages.outputTokens}), 0)::bigint`.mapWith(Number),
      })
      .from(chatMessages)
      .where(eq(chatMessages.userId, userId)),
    db.select({ used: pointBalances.usedTotal }).from(pointBalances).where(eq(pointBalances.userId, userId)),
    db
      .select(treeFields)
      .from(users)
      .where(sql`${USER_ID} = (select u.invited_by from ${users} u where u.id = ${userId})`),
    db.select(treeFields).from(users).where(eq(users.invitedBy, userId)).orderBy(desc(users.createdAt), desc(users.id)).limit(100),
    db.select({ inviteeTotal: count() }).from(users).where(eq(users.invitedBy, userId)),
    listLedger(db, userId, 1, 20),
    db.select({ n: count() }).from(vipOrders).where(and(eq(vipOrders.userId, userId), eq(vipOrders.disputeStatus, 'open'))),
  ]);
  return {
    ...base,
    plan: {
      level: base.planLevel,
      name: base.planLevel > 0 ? levelName(base.planLevel) : 'Free',
      endTime: base.planEndTime,
      subscription: sub ?? null,
    },
    usedPoints: balance?.used ?? 0,
    openDisputes: disputes?.n ?? 0,
    messageCount: stats?.messages ?? 0,
    tokens: { input: stats?.input ?? 0, output: stats?.output ?? 0 },
    inviter: inviter[0] ?? null,
    invitees: { total: inviteeTotal, list: invitees },
    ledger,
  };
}

export async function getUserLedger(ctx: AppContext, userId: string, page: number, pageSize: number) {
  const [found] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return listLedger(ctx.db, userId, page, pageSize);
}

/** An operator's grant or deduction, on the ledger once per requestId (ledger.ts adjustPoints). */
export function grantPoints(ctx: AppContext, body: GrantPoints) {
  return adjustPoints(ctx.db, { userId: body.userId, amount: body.amount, note: body.reason, requestId: body.requestId });
}

/**
 * Cancels the running Stripe subscription (so that no renewal brings the plan back and bills the
 * user), then ends every order in force or scheduled now: the user is free at once.
 */
export async function endPlan(ctx: AppContext, userId: string): Promise<EndPlanResult> {
  const [found] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  const subscription = await cancelSubscriptionNow(ctx, userId);
  const ended = await ctx.db
    .update(vipOrders)
    .set({ endTime: sql`now()`, startTime: sql`least(${vipOrders.startTime}, now())` })
    .where(and(eq(vipOrders.userId, userId), gt(vipOrders.endTime, sql`now()`)))
    .returning({ id: vipOrders.id });
  return { endedOrders: ended.length, subscription };
}

/**
 * Changes to admins (role, closing, deleting) take this lock first, in their transaction, so two
 * admins demoting each other at once cannot leave the server without one.
 */
const lockAdmins = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(7301, 1)`);

/** Whether another active admin than `userId` exists. */
async function otherAdminExists(tx: Db, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), ne(users.id, userId)));
  return row.n > 0;
}

/** Refuses an action that would take away the caller's own admin rights or the server's last admin. */
async function guardAdminLoss(tx: Db, actorId: string, target: { id: string; role: string }) {
  if (target.id === actorId) throw new AppError(Codes.Conflict, 'adminSelfAction');
  if (target.role === 'admin' && !(await otherAdminExists(tx, target.id))) throw new AppError(Codes.Conflict, 'lastAdmin');
}

async function lockedUser(tx: Db, userId: string) {
  const [row] = await tx.select({ id: users.id, role: users.role, email: users.email, status: users.status }).from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return row;
}

export async function setRole(ctx: AppContext, actorId: string, userId: string, role: 'user' | 'admin'): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const target = await lockedUser(tx, userId);
    if (target.role === role) return;
    if (role === 'user') await guardAdminLoss(tx, actorId, target);
    await tx.update(users).set({ role, updatedAt: sql`now()` }).where(eq(users.id, userId));
  });
}

/** Closes the account and revokes its tokens: its next call is answered 10402. */
export async function closeUser(ctx: AppContext, actorId: string, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const target = await lockedUser(tx, userId);
    if (target.status === 'closed') return;
    await guardAdminLoss(tx, actorId, target);
    await tx.update(users).set({ status: 'closed', updatedAt: sql`now()` }).where(eq(users.id, userId));
    await revokeAllShares(tx, userId);
  });
  await revokeAllTokens(ctx, userId);
}

export async function reopenUser(ctx: AppContext, userId: string): Promise<void> {
  const done = await ctx.db.update(users).set({ status: 'active', updatedAt: sql`now()` }).where(eq(users.id, userId)).returning({ id: users.id });
  if (!done.length) throw new AppError(Codes.NotFound, 'notFound');
}

export async function deletePreview(ctx: AppContext, userId: string): Promise<DeletePreview> {
  const { db } = ctx;
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!account) throw new AppError(Codes.NotFound, 'notFound');
  const n = (table: typeof chatSessions | typeof chatMessages | typeof favourites | typeof chatMedia | typeof pointLedger | typeof vipOrders) =>
    db
      .select({ n: count() })
      .from(table)
      .where(eq(table.userId, userId))
      .then((r) => r[0].n);
  const [sessions, messages, favs, files, ledgerEntries, orders, running] = await Promise.all([
    n(chatSessions),
    n(chatMessages),
    n(favourites),
    n(chatMedia),
    n(pointLedger),
    n(vipOrders),
    runningSubscription(db, userId),
  ]);
  return { userId, email: account.email, sessions, messages, favourites: favs, files, ledgerEntries, orders, runningSubscription: !!running };
}

/**
 * Deletes the account and what it owns: its running Stripe subscription is cancelled first (a
 * deleted account is never billed again), its rows go with it (every table references the account
 * with ON DELETE CASCADE), its stored files are removed from the file store, its tracking records
 * are kept without the user id, and accounts it invited no longer name it.
 */
export async function deleteUser(ctx: AppContext, actorId: string, userId: string, confirmEmail: string): Promise<{ subscription: SubscriptionFate }> {
  // The refusals first, so that a refused delete cancels nothing in Stripe; checked again below, under the lock.
  await deletable(ctx.db, actorId, userId, confirmEmail);
  const subscription = await cancelSubscriptionNow(ctx, userId);
  const keys = await ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    await deletable(tx, actorId, userId, confirmEmail);
    const media = await tx.select({ key: chatMedia.storageKey }).from(chatMedia).where(eq(chatMedia.userId, userId));
    const [{ headImg }] = await tx.select({ headImg: users.headImg }).from(users).where(eq(users.id, userId));
    await tx.update(users).set({ invitedBy: null }).where(eq(users.invitedBy, userId));
    await tx.update(requestTimes).set({ userId: null }).where(eq(requestTimes.userId, userId));
    await tx.update(browserRecords).set({ userId: null }).where(eq(browserRecords.userId, userId));
    await tx.update(feedbacks).set({ userId: null }).where(eq(feedbacks.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
    return [...media.map((m) => m.key), headImg ? headImgKey(headImg) : ''].filter(Boolean);
  });
  // Its tokens went with the rows; this tells every instance's token cache.
  await revokeAllTokens(ctx, userId);
  // After the rows are gone: a failure only leaves an orphaned file, which is logged.
  const results = await Promise.allSettled(keys.map((key) => ctx.files.delete(key)));
  for (const r of results) if (r.status === 'rejected') ctx.log.warn({ err: r.reason }, 'removing a deleted account\'s file failed');
  return { subscription };
}

/** Refuses deleting a missing account, with the wrong confirmation, or one whose loss guardAdminLoss forbids. */
async function deletable(tx: Db, actorId: string, userId: string, confirmEmail: string) {
  const target = await lockedUser(tx, userId);
  if (target.email.toLowerCase() !== confirmEmail.trim().toLowerCase()) throw new AppError(Codes.BadRequest, 'deleteConfirmMismatch');
  await guardAdminLoss(tx, actorId, target);
}

