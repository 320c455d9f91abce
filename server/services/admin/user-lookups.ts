import { eq, inArray, max, or, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AdminUser, VisitorUser } from '../../../shared/contracts/admin-users.ts';
import { PhoneSchema } from '../../../shared/contracts/account.ts';
import type { AppContext } from '../../context.ts';
import { browserRecords, requestTimes } from '../../db/schema/system.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { toAdminUser, userRows } from './users.ts';

/**
 * The administrators' look-ups of accounts, each by the field it names (docs/api.md#looking-accounts-up):
 * the console's "Find by" search. Rows are the Users list's (AdminUser).
 */

async function one(ctx: AppContext, where: SQL): Promise<AdminUser> {
  const [row] = await userRows(ctx.db).where(where).limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toAdminUser(row);
}

export const userById = (ctx: AppContext, userId: string) => one(ctx, eq(users.id, userId));

/** E-mails are unique in any case (users_email_lower_uq). */
export const userByEmail = (ctx: AppContext, email: string) => one(ctx, sql`lower(${users.email}) = lower(${email})`);

/** `phone` is already normalised by PhoneSchema, as stored. */
export const userByPhone = (ctx: AppContext, phone: string) => one(ctx, eq(users.phone, phone));

/**
 * Every account known by `account` exactly: its id, its e-mail or its name (any case), or its phone
 * number. Names are not unique, so this is a list (newest account first, at most 50).
 */
export async function usersByAccount(ctx: AppContext, account: string): Promise<AdminUser[]> {
  const phone = PhoneSchema.safeParse(account);
  const rows = await userRows(ctx.db)
    .where(
      or(
        eq(users.id, account),
        sql`lower(${users.email}) = lower(${account})`,
        sql`lower(${users.userName}) = lower(${account})`,
        phone.success ? eq(users.phone, phone.data) : undefined,
      ),
    )
    .orderBy(sql`${users.createdAt} desc`, users.id)
    .limit(50);
  return rows.map(toAdminUser);
}

/**
 * The accounts a visitor id (the DriverId header every client call carries) was signed in as, as the
 * tracking records kept it (request times and browser records, within TRACKING_RETENTION_DAYS), the
 * most recently seen first.
 */
export async function usersByVisitor(ctx: AppContext, visitorId: string): Promise<VisitorUser[]> {
  const seen = (table: typeof requestTimes | typeof browserRecords) =>
    ctx.db
      .select({ userId: table.userId, at: max(table.createdAt).as('at') })
      .from(table)
      .where(sql`${table.driverId} = ${visitorId} and ${table.userId} is not null`)
      .groupBy(table.userId);
  const [a, b] = await Promise.all([seen(requestTimes), seen(browserRecords)]);
  const last = new Map<string, Date>();
  for (const { userId, at } of [...a, ...b]) {
    if (!userId || !at) continue;
    const when = at instanceof Date ? at : new Date(at);
    const known = last.get(userId);
    if (!known || when > known) last.set(userId, when);
  }
  if (!last.size) return [];
  const rows = await userRows(ctx.db).where(inArray(users.id, [...last.keys()]));
  return rows
    .map((r) => ({ ...toAdminUser(r), lastSeenTime: last.get(r.userId)!.toISOString() }))
    .sort((x, y) => y.lastSeenTime.localeCompare(x.lastSeenTime) || x.userId.localeCompare(y.userId));
}

/** The names (and e-mails) to show for account ids; ids of no account are left out. */
export async function nickNames(ctx: AppContext, userIds: string[]) {
  const rows = await ctx.db.select({ userId: users.id, userName: users.userName, email: users.email }).from(users).where(inArray(users.id, userIds));
  const order = new Map(userIds.map((id, i) => [id, i]));
  return rows.sort((x, y) => order.get(x.userId)! - order.get(y.userId)!);
}
