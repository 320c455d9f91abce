import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { coupons } from './coupons.ts';
import { users } from './users.ts';

/**
 * Campaigns (MarketActivity, docs/api.md#campaigns): an operator's card with a title and a text in
 * each language, a picture, a time window and an audience (plan levels, a language, accounts newer
 * than N days), optionally with a reward (points through the ledger, or a coupon's code) that each
 * user claims once, up to `maxClaims` in all.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    titleEn: text('title_en').notNull(),
    titleZh: text('title_zh').notNull(),
    bodyEn: text('body_en').notNull().default(''),
    bodyZh: text('body_zh').notNull().default(''),
    /** An https address of the picture; null: none. */
    imageUrl: text('image_url'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** The plan levels shown to (0: free accounts); empty: everyone. */
    planLevels: jsonb('plan_levels').$type<number[]>().notNull().default([]),
    /** 'all', or the one language (the caller's) it is shown in. */
    language: text('language', { enum: ['all', 'en', 'zh'] }).notNull().default('all'),
    /** Only accounts made within this many days; null: any account. */
    newUserDays: integer('new_user_days'),
    rewardType: text('reward_type', { enum: ['none', 'points', 'coupon'] }).notNull().default('none'),
    rewardPoints: integer('reward_points'),
    rewardCouponId: text('reward_coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    /** Claims allowed in all; null: no limit. */
    maxClaims: integer('max_claims'),
    /** Claims made, counted under the campaign's row lock with the claim itself. */
    claimCount: integer('claim_count').notNull().default(0),
    /** Deleted by an operator: hidden everywhere; its claims and ledger entries stay. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('campaigns_window', sql`${t.endsAt} > ${t.startsAt}`),
    // The count never passes the budget, whatever a caller does.
    check('campaigns_claim_limit', sql`${t.claimCount} >= 0 and (${t.maxClaims} is null or ${t.claimCount} <= ${t.maxClaims})`),
    check(
      'campaigns_reward',
      sql`(${t.rewardType} = 'none' and ${t.rewardPoints} is null and ${t.rewardCouponId} is null)
        or (${t.rewardType} = 'points' and ${t.rewardPoints} > 0 and ${t.rewardCouponId} is null)
        or (${t.rewardType} = 'coupon' and ${t.rewardPoints} is null and ${t.rewardCouponId} is not null)`,
    ),
    index('campaigns_window_idx').on(t.startsAt, t.endsAt),
  ],
);

const campaignOfUser = () => ({
  campaignId: text('campaign_id')
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user saw the campaign: one row per user, so a view is counted once. */
export const campaignViews = pgTable('campaign_views', campaignOfUser(), (t) => [primaryKey({ columns: [t.campaignId, t.userId] })]);

/** A user closed the card: it is no longer shown on their home screen or popup. */
export const campaignDismissals = pgTable('campaign_dismissals', campaignOfUser(), (t) => [primaryKey({ columns: [t.campaignId, t.userId] })]);

/**
 * A user claimed the campaign's reward: the primary key makes a second claim impossible; the points
 * themselves are on the ledger under the key `campaign:<campaignId>:<userId>`.
 */
export const campaignClaims = pgTable(
  'campaign_claims',
  {
    ...campaignOfUser(),
    rewardType: text('reward_type', { enum: ['points', 'coupon'] }).notNull(),
    points: integer('points'),
    couponCode: text('coupon_code'),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index('campaign_claims_created_idx').on(t.campaignId, t.createdAt)],
);
