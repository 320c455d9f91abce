import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  AdminCampaign,
  AdminCampaignClaim,
  Campaign,
  CampaignClaimResult,
  SaveCampaign,
} from '../../../shared/contracts/campaigns.ts';
import type { Language, Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { campaignClaims, campaignDismissals, campaignViews, campaigns } from '../../db/schema/campaigns.ts';
import { couponRedemptions, coupons } from '../../db/schema/coupons.ts';
import { pointLedger } from '../../db/schema/points.ts';
import { users } from '../../db/schema/users.ts';
import { formatMoney } from '../plans/coupons.ts';
import { creditPoints } from '../points/ledger.ts';

/**
 * Campaigns (MarketActivity, docs/api.md#campaigns). A user sees the campaigns whose window holds
 * now and whose audience takes them in (plan level, language, account age); a view is counted once
 * per user; a claim is made once per user and within the budget:
 * - the campaign's row is locked, so claims of one campaign are made one at a time: the count
 *   checked against maxClaims is the count the claim raises (a check constraint is the last guard);
 * - the claim row's primary key (campaign, user) refuses a second claim, and the points go on the
 *   ledger under `campaign:<id>:<user>`, unique there too: a replay changes nothing.
 */

type CampaignRow = typeof campaigns.$inferSelect;

/** Who asks: their plan level, language and account. */
export type Viewer = { userId: string; vipLevel: number; lang: Language };

const pointsKey = (campaignId: string, userId: string) => `campaign:${campaignId}:${userId}`;

/** Campaigns not deleted whose window holds now. */
const live = () => and(isNull(campaigns.deletedAt), sql`${campaigns.startsAt} <= now()`, sql`${campaigns.endsAt} > now()`);

/** The audience condition for this viewer (the account's age is read in the same statement). */
function audienceOf(v: Viewer): SQL {
  return sql`(jsonb_array_length(${campaigns.planLevels}) = 0 or ${campaigns.planLevels} @> ${JSON.stringify([v.vipLevel])}::jsonb)
    and (${campaigns.language} = 'all' or ${campaigns.language} = ${v.lang})
    and (${campaigns.newUserDays} is null or exists (
      select 1 from ${users} u where u.id = ${v.userId} and u.created_at > now() - make_interval(days => ${campaigns.newUserDays})
    ))`;
}

/** What a reward coupon takes off, in words (its code is shown only after a claim). */
function couponText(c: { percentOff: number | null; amountOff: number | null; currency: string | null } | null, lang: Language): string | null {
  if (!c) return null;
  const what = c.percentOff !== null ? `${c.percentOff}%` : formatMoney(c.amountOff ?? 0, c.currency ?? 'usd');
  return t(lang, 'campaignCouponReward', { what });
}

type Joined = {
  row: CampaignRow;
  coupon: { code: string; percentOff: number | null; amountOff: number | null; currency: string | null } | null;
  dismissed: boolean;
  claim: typeof campaignClaims.$inferSelect | null;
};

function userView({ row, coupon, dismissed, claim }: Joined, lang: Language, balance: number | null = null): Campaign {
  return {
    campaignId: row.id,
    title: lang === 'zh' ? row.titleZh : row.titleEn,
    body: lang === 'zh' ? row.bodyZh : row.bodyEn,
    imageUrl: row.imageUrl,
    startTime: row.startsAt.toISOString(),
    endTime: row.endsAt.toISOString(),
    rewardType: row.rewardType,
    rewardPoints: row.rewardPoints,
    // The code itself only after a claim.
    rewardText: row.rewardType === 'coupon' ? couponText(coupon, lang) : null,
    claimsLeft: row.maxClaims === null ? null : Math.max(row.maxClaims - row.claimCount, 0),
    dismissed,
    claim: claim ? claimView(claim, balance) : null,
  };
}

const claimView = (c: typeof campaignClaims.$inferSelect, balance: number | null): CampaignClaimResult => ({
  rewardType: c.rewardType,
  points: c.points,
  couponCode: c.couponCode,
  balance,
  claimTime: c.createdAt.toISOString(),
});

async function visible(db: Db, v: Viewer, extra: SQL | undefined): Promise<Joined[]> {
  const rows = await db
    .select({
      row: campaigns,
      couponCode: coupons.code,
      percentOff: coupons.percentOff,
      amountOff: coupons.amountOff,
      currency: coupons.currency,
      dismissedAt: campaignDismissals.createdAt,
      claim: campaignClaims,
    })
    .from(campaigns)
    .leftJoin(coupons, eq(coupons.id, campaigns.rewardCouponId))
    .leftJoin(campaignDismissals, and(eq(campaignDismissals.campaignId, campaigns.id), eq(campaignDismissals.userId, v.userId)))
    .leftJoin(campaignClaims, and(eq(campaignClaims.campaignId, campaigns.id), eq(campaignClaims.userId, v.userId)))
    .where(and(live(), audienceOf(v), extra))
    .orderBy(desc(campaigns.startsAt), desc(campaigns.id));
  return rows.map((r) => ({
    row: r.row,
    coupon: r.couponCode ? { code: r.couponCode, percentOff: r.percentOff, amountOff: r.amountOff, currency: r.currency } : null,
    dismissed: r.dismissedAt !== null,
    claim: r.claim,
  }));
}

/** GET /api/MarketActivity/GetList: the campaigns for the caller now, newest first; without `all`, not the dismissed ones. */
export async function listMyCampaigns(ctx: AppContext, v: Viewer, all: boolean): Promise<Campaign[]> {
  const rows = await visible(ctx.db, v, all ? undefined : isNull(campaignDismissals.createdAt));
  return rows.map((r) => userView(r, v.lang));
}

/** GET /api/MarketActivity/GetById: one campaign for the caller; 10404 when it is not (or no longer) theirs to see. */
export async function getMyCampaign(ctx: AppContext, v: Viewer, campaignId: string): Promise<Campaign> {
  const [found] = await visible(ctx.db, v, eq(campaigns.id, campaignId));
  if (!found) throw new AppError(Codes.NotFound, 'campaignNotFound');
  return userView(found, v.lang);
}

async function requireVisible(db: Db, v: Viewer, campaignId: string): Promise<void> {
  const [found] = await db.select({ id: campaigns.id }).from(campaigns).where(and(eq(campaigns.id, campaignId), live(), audienceOf(v)));
  if (!found) throw new AppError(Codes.NotFound, 'campaignNotFound');
}

/** POST /api/MarketActivity/View: counted once per user; `counted` false for a view seen before. */
export async function viewCampaign(ctx: AppContext, v: Viewer, campaignId: string): Promise<{ counted: boolean }> {
  await requireVisible(ctx.db, v, campaignId);
  const made = await ctx.db.insert(campaignViews).values({ campaignId, userId: v.userId }).onConflictDoNothing().returning({ id: campaignViews.campaignId });
  return { counted: made.length > 0 };
}

/** POST /api/MarketActivity/Dismiss: the card is no longer shown to the caller (the campaigns page still lists it). */
export async function dismissCampaign(ctx: AppContext, v: Viewer, campaignId: string): Promise<null> {
  await requireVisible(ctx.db, v, campaignId);
  await ctx.db.insert(campaignDismissals).values({ campaignId, userId: v.userId }).onConflictDoNothing();
  return null;
}

/**
 * POST /api/MarketActivity/Claim: the reward, once per user, within the budget (see the top of this
 * file). A second claim answers 10409, a claim past the budget 10400, both changing nothing.
 */
export async function claimCampaign(ctx: AppContext, v: Viewer, campaignId: string): Promise<CampaignClaimResult> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, campaignId), live(), audienceOf(v)))
      .for('update');
    if (!row) throw new AppError(Codes.NotFound, 'campaignNotFound');
    if (row.rewardType === 'none') throw new AppError(Codes.BadRequest, 'campaignNoReward');
    const [mine] = await tx
      .select({ id: campaignClaims.campaignId })
      .from(campaignClaims)
      .where(and(eq(campaignClaims.campaignId, campaignId), eq(campaignClaims.userId, v.userId)));
    if (mine) throw new AppError(Codes.Conflict, 'campaignAlreadyClaimed');
    if (row.maxClaims !== null && row.claimCount >= row.maxClaims) throw new AppError(Codes.BadRequest, 'campaignUsedUp');
    let couponCode: string | null = null;
    if (row.rewardType === 'coupon') {
      const [coupon] = await tx.select({ code: coupons.code, disabled: coupons.disabled }).from(coupons).where(eq(coupons.id, row.rewardCouponId!));
      if (!coupon || coupon.disabled) throw new AppError(Codes.BadRequest, 'campaignCouponGone');
      couponCode = coupon.code;
    }
    const made = await tx
      .insert(campaignClaims)
      .values({ campaignId, userId: v.userId, rewardType: row.rewardType, points: row.rewardPoints, couponCode })
      .onConflictDoNothing()
      .returning();
    if (!made.length) throw new AppError(Codes.Conflict, 'campaignAlreadyClaimed');
    await tx.update(campaigns).set({ claimCount: sql`${campaigns.claimCount} + 1` }).where(eq(campaigns.id, campaignId));
    let balance: number | null = null;
    if (row.rewardType === 'points') {
      const note = row.titleEn;
      const result = await creditPoints(tx, { userId: v.userId, delta: row.rewardPoints!, kind: 'campaign', key: pointsKey(campaignId, v.userId), refId: campaignId, note });
      // The claim row is new, so its ledger key is too; anything else undoes the claim.
      if (result.status !== 'applied') throw new AppError(Codes.Conflict, 'campaignAlreadyClaimed');
      balance = result.balance;
    }
    return claimView(made[0]!, balance);
  });
}

// Operators.

const idColumn = sql.raw('"campaigns"."id"');
const adminFields = {
  row: campaigns,
  couponCode: coupons.code,
  views: sql`(select count(*) from ${campaignViews} x where x.campaign_id = ${idColumn})`.mapWith(Number),
  dismissals: sql`(select count(*) from ${campaignDismissals} x where x.campaign_id = ${idColumn})`.mapWith(Number),
  pointsCost: sql`(select coalesce(sum(l.delta), 0) from ${pointLedger} l where l.reason = 'campaign' and l.ref_id = ${idColumn})`.mapWith(Number),
  // Invoices of claimants paid with the campaign's coupon: what the reward really took off.
  discounts: sql<Array<{ currency: string | null; n: number; discount: number }> | null>`(
    select json_agg(json_build_object('currency', d.currency, 'n', d.n, 'discount', d.discount)) from (
      select r.currency, count(*)::int as n, sum(r.discount)::int as discount from ${couponRedemptions} r
      join ${campaignClaims} c on c.user_id = r.user_id and c.campaign_id = ${idColumn}
      where r.coupon_id = "campaigns"."reward_coupon_id" group by r.currency
    ) d)`,
};

type AdminRow = { row: CampaignRow; couponCode: string | null; views: number; dismissals: number; pointsCost: number; discounts: Array<{ currency: string | null; n: number; discount: number }> | null };

function statusOf(row: CampaignRow, now = Date.now()): AdminCampaign['status'] {
  if (row.startsAt.getTime() > now) return 'scheduled';
  return row.endsAt.getTime() > now ? 'active' : 'ended';
}

function adminView(r: AdminRow): AdminCampaign {
  const { row } = r;
  const couponDiscounts: Record<string, number> = {};
  let couponRedemptionCount = 0;
  for (const d of r.discounts ?? []) {
    couponRedemptionCount += d.n;
    const currency = d.currency ?? 'usd';
    couponDiscounts[currency] = (couponDiscounts[currency] ?? 0) + d.discount;
  }
  return {
    campaignId: row.id,
    titleEn: row.titleEn,
    titleZh: row.titleZh,
    bodyEn: row.bodyEn,
    bodyZh: row.bodyZh,
    imageUrl: row.imageUrl,
    startTime: row.startsAt.toISOString(),
    endTime: row.endsAt.toISOString(),
    planLevels: row.planLevels,
    language: row.language,
    newUserDays: row.newUserDays,
    rewardType: row.rewardType,
    rewardPoints: row.rewardPoints,
    rewardCouponId: row.rewardCouponId,
    rewardCouponCode: r.couponCode,
    maxClaims: row.maxClaims,
    status: statusOf(row),
    views: r.views,
    dismissals: r.dismissals,
    claims: row.claimCount,
    pointsCost: r.pointsCost,
    couponRedemptions: couponRedemptionCount,
    couponDiscounts,
    createTime: row.createdAt.toISOString(),
    updateTime: row.updatedAt.toISOString(),
  };
}

const adminSelect = (db: Db) => db.select(adminFields).from(campaigns).leftJoin(coupons, eq(coupons.id, campaigns.rewardCouponId));

/** GET /api/admin/MarketActivity/GetById; also what the audit log records before and after a write (null: none). */
export async function adminGetCampaign(ctx: AppContext, campaignId: string): Promise<AdminCampaign | null> {
  const [found] = await adminSelect(ctx.db).where(and(eq(campaigns.id, campaignId), isNull(campaigns.deletedAt)));
  return found ? adminView(found) : null;
}

async function requireCampaign(ctx: AppContext, campaignId: string): Promise<AdminCampaign> {
  const found = await adminGetCampaign(ctx, campaignId);
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return found;
}

/** The campaigns (not deleted), newest first, with their views, claims and cost. */
export async function adminListCampaigns(ctx: AppContext, page: number, pageSize: number): Promise<Paged<AdminCampaign>> {
  const [rows, [{ total }]] = await Promise.all([
    adminSelect(ctx.db)
      .where(isNull(campaigns.deletedAt))
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ total: count() }).from(campaigns).where(isNull(campaigns.deletedAt)),
  ]);
  return { list: rows.map(adminView), total };
}

/**
 * Creates a campaign, or replaces the one with `campaignId` (under its row lock: maxClaims cannot go
 * below the claims made). The reward coupon must exist.
 */
export async function adminSaveCampaign(ctx: AppContext, input: SaveCampaign): Promise<AdminCampaign> {
  if (input.rewardCouponId) {
    const [coupon] = await ctx.db.select({ id: coupons.id }).from(coupons).where(eq(coupons.id, input.rewardCouponId));
    if (!coupon) throw new AppError(Codes.BadRequest, 'campaignCouponUnknown', { id: input.rewardCouponId });
  }
  const fields = {
    titleEn: input.titleEn,
    titleZh: input.titleZh,
    bodyEn: input.bodyEn,
    bodyZh: input.bodyZh,
    imageUrl: input.imageUrl ?? null,
    startsAt: new Date(input.startTime),
    endsAt: new Date(input.endTime),
    planLevels: [...new Set(input.planLevels)].sort(),
    language: input.language,
    newUserDays: input.newUserDays ?? null,
    rewardType: input.rewardType,
    rewardPoints: input.rewardType === 'points' ? (input.rewardPoints ?? null) : null,
    rewardCouponId: input.rewardType === 'coupon' ? (input.rewardCouponId ?? null) : null,
    maxClaims: input.maxClaims ?? null,
    updatedAt: new Date(),
  };
  const id = input.campaignId ?? randomUUID();
  await ctx.db.transaction(async (tx) => {
    if (!input.campaignId) return void (await tx.insert(campaigns).values({ id, ...fields }));
    const [old] = await tx.select().from(campaigns).where(and(eq(campaigns.id, id), isNull(campaigns.deletedAt))).for('update');
    if (!old) throw new AppError(Codes.NotFound, 'notFound');
    if (fields.maxClaims !== null && old.claimCount > fields.maxClaims) throw new AppError(Codes.BadRequest, 'campaignMaxBelowClaimed', { count: old.claimCount });
    await tx.update(campaigns).set(fields).where(eq(campaigns.id, id));
  });
  return requireCampaign(ctx, id);
}

/** Ends a campaign now (it stays in the console with its figures); one that has ended stays as it is. */
export async function adminEndCampaign(ctx: AppContext, campaignId: string): Promise<AdminCampaign> {
  await requireCampaign(ctx, campaignId);
  // A campaign that has not started yet ends at its start's instant plus nothing: keep the window valid.
  await ctx.db
    .update(campaigns)
    .set({ endsAt: sql`greatest(least(${campaigns.endsAt}, now()), ${campaigns.startsAt} + interval '1 millisecond')`, updatedAt: new Date() })
    .where(eq(campaigns.id, campaignId));
  return requireCampaign(ctx, campaignId);
}

/** Deletes a campaign: hidden from users and the console; its claims and ledger entries stay. */
export async function adminDeleteCampaign(ctx: AppContext, campaignId: string): Promise<null> {
  const updated = await ctx.db
    .update(campaigns)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), isNull(campaigns.deletedAt)))
    .returning({ id: campaigns.id });
  if (!updated.length) throw new AppError(Codes.NotFound, 'notFound');
  return null;
}

/** The claims of a campaign, newest first, with the claimant's e-mail and name. */
export async function adminListCampaignClaims(ctx: AppContext, campaignId: string, page: number, pageSize: number): Promise<Paged<AdminCampaignClaim>> {
  await requireCampaign(ctx, campaignId);
  const where = eq(campaignClaims.campaignId, campaignId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ claim: campaignClaims, email: users.email, userName: users.userName })
      .from(campaignClaims)
      .innerJoin(users, eq(users.id, campaignClaims.userId))
      .where(where)
      .orderBy(desc(campaignClaims.createdAt), desc(campaignClaims.userId))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ total: count() }).from(campaignClaims).where(where),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      userId: r.claim.userId,
      email: r.email,
      userName: r.userName,
      rewardType: r.claim.rewardType,
      points: r.claim.points,
      couponCode: r.claim.couponCode,
      claimTime: r.claim.createdAt.toISOString(),
    })),
  };
}

