import { z } from 'zod';
import { PhoneSchema } from './account.ts';
import { IdSchema, PageQuerySchema } from './common.ts';
import { AdminAdjustPointsResultSchema, AdminAdjustPointsSchema, LedgerEntrySchema } from './points.ts';
import { ExtendEndTimeResultSchema, ExtendEndTimeSchema } from './plans.ts';

/**
 * The console's Users pages: the searchable list, one user's page, and the operator's actions on an
 * account. Every action is written to the audit log (shared/contracts/audit.ts).
 */

export const AdminUserSortSchema = z.enum(['created', 'lastActive', 'balance', 'email']);
export type AdminUserSort = z.infer<typeof AdminUserSortSchema>;

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** GET /api/admin/User/GetList. */
export const AdminUserListQuerySchema = PageQuerySchema.extend({
  /** A part of the e-mail or the name, or a user id exactly. */
  keyword: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(254).optional()),
  /** Older form of keyword: a part of the e-mail only (kept for existing callers). */
  email: z.preprocess(emptyAsUndefined, z.string().trim().max(254).optional()),
  role: z.preprocess(emptyAsUndefined, z.enum(['user', 'admin']).optional()),
  /** The plan level in force now: 0 free, 1 Standard, 2 Advanced, 3 Super. */
  planLevel: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3).optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(['active', 'closed']).optional()),
  sort: z.preprocess(emptyAsUndefined, AdminUserSortSchema.default('created')),
  order: z.preprocess(emptyAsUndefined, z.enum(['asc', 'desc']).default('desc')),
});
export type AdminUserListQuery = z.infer<typeof AdminUserListQuerySchema>;

/** One row of the list. */
export const AdminUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  userName: z.string(),
  role: z.enum(['user', 'admin']),
  status: z.enum(['active', 'closed']),
  /** The plan level in force now (0: free) and when it ends (null: free). */
  planLevel: z.number().int(),
  planEndTime: z.string().nullable(),
  /** Points on the balance (not counting today's free allowance). */
  balance: z.number().int(),
  sessionCount: z.number().int(),
  /** The most recent activity of any of the user's chats; null when the user never chatted. */
  lastActiveTime: z.string().nullable(),
  createTime: z.string(),
  /** The user's picture (as UserInfo.headImg); null without one. */
  headImg: z.string().nullable().optional(),
  /** The phone number the user gave (normalised); null without one. */
  phone: z.string().nullable().optional(),
  /** When the user verified their e-mail (ISO 8601); null while not verified. Absent from older servers. */
  emailVerifiedAt: z.string().nullable().optional(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUserPageSchema = z.object({ list: z.array(AdminUserSchema), total: z.number().int() });

export const UserIdRequestSchema = z.object({ userId: IdSchema });
export const UserIdQuerySchema = z.object({ userId: IdSchema });

/** An account in the invite tree. */
export const InviteTreeUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  userName: z.string(),
  createTime: z.string(),
  /** How many accounts this one invited in turn. */
  inviteeCount: z.number().int(),
});

/** GET /api/admin/User/GetById?userId: the user's page. */
export const AdminUserDetailSchema = AdminUserSchema.extend({
  plan: z.object({
    /** 0: free. */
    level: z.number().int(),
    name: z.string(),
    endTime: z.string().nullable(),
    /** The user's most recently changed Stripe subscription, if any. */
    subscription: z
      .object({ id: z.string(), status: z.string(), currentPeriodEnd: z.string().nullable(), cancelAtPeriodEnd: z.boolean() })
      .nullable(),
  }),
  /** Points spent in all, allowance included, less refunds. */
  usedPoints: z.number().int(),
  /** The user's orders whose payment is under a chargeback not decided yet. */
  openDisputes: z.number().int(),
  messageCount: z.number().int(),
  /** Input and output tokens of the user's answers, where recorded; null when the server does not record tokens. */
  tokens: z.object({ input: z.number().int(), output: z.number().int() }).nullable(),
  /** Who invited this account (null: nobody, or that account is gone). */
  inviter: InviteTreeUserSchema.nullable(),
  /** Whom it invited: the total and the first 100, newest first. */
  invitees: z.object({ total: z.number().int(), list: z.array(InviteTreeUserSchema) }),
  /** The first page (20) of the points ledger; more through GetLedger. */
  ledger: z.object({ total: z.number().int(), list: z.array(LedgerEntrySchema) }),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;

/** GET /api/admin/User/GetLedger: a page of one user's points ledger, newest first. */
export const AdminUserLedgerQuerySchema = PageQuerySchema.extend({ userId: IdSchema });
export const AdminUserLedgerPageSchema = z.object({ total: z.number().int(), list: z.array(LedgerEntrySchema) });

/**
 * POST /api/admin/User/GrantPoints: grant (positive) or deduct (negative): the body of
 * Vip/AddIntegral (AdminAdjustPointsSchema) with its note called `reason`; the user sees the reason
 * in their history. `requestId` is chosen once per intended change: a retry is applied once. A
 * deduction larger than the balance is refused (10400, pointsDeductTooLarge) and changes nothing.
 */
export const GrantPointsSchema = AdminAdjustPointsSchema.omit({ note: true }).extend({ reason: AdminAdjustPointsSchema.shape.note });
export type GrantPoints = z.infer<typeof GrantPointsSchema>;
/** applied false: this requestId was applied before (nothing changed now). */
export const GrantPointsResultSchema = AdminAdjustPointsResultSchema;

/** POST /api/admin/User/ExtendPlan: plan days at a level, once per requestId (as Vip/ExtendEndTime). */
export const ExtendPlanSchema = ExtendEndTimeSchema;
export const ExtendPlanResultSchema = ExtendEndTimeResultSchema;

/**
 * What became of a user's running Stripe subscription when an administrator ended the plan or
 * deleted the account: none ran; it was cancelled in Stripe at once (nothing more is billed); or it
 * runs on, because this server has no Stripe key, and must be cancelled in Stripe's dashboard.
 */
export const SubscriptionFateSchema = z.enum(['none', 'cancelled', 'notConfigured']);
export type SubscriptionFate = z.infer<typeof SubscriptionFateSchema>;

/**
 * POST /api/admin/User/EndPlan: the running Stripe subscription is cancelled at once, then every
 * order in force or scheduled ends now (the user is free at once). When Stripe refuses or cannot
 * be reached, nothing changes (10502).
 */
export const EndPlanResultSchema = z.object({ endedOrders: z.number().int(), subscription: SubscriptionFateSchema });
export type EndPlanResult = z.infer<typeof EndPlanResultSchema>;

/** POST /api/admin/User/SetRole: refused for your own account and for the last admin. */
export const SetRoleSchema = z.object({ userId: IdSchema, role: z.enum(['user', 'admin']) });

/** POST /api/admin/User/SendPasswordReset: the single-use link (1 hour) to pass on to the user. */
export const PasswordResetLinkSchema = z.object({
  link: z.string(),
  expireTime: z.string(),
  /** True when the server also e-mailed it (SMTP_URL set and the mail accepted). */
  emailed: z.boolean(),
});

/** GET /api/admin/User/GetDeletePreview?userId: what deleting the account removes. */
export const DeletePreviewSchema = z.object({
  userId: z.string(),
  email: z.string(),
  sessions: z.number().int(),
  messages: z.number().int(),
  favourites: z.number().int(),
  /** Stored uploads, images and pages (with their bytes in the file store). */
  files: z.number().int(),
  ledgerEntries: z.number().int(),
  orders: z.number().int(),
  /** A Stripe subscription still bills the account: deleting cancels it first. */
  runningSubscription: z.boolean(),
});
export type DeletePreview = z.infer<typeof DeletePreviewSchema>;

/**
 * POST /api/admin/User/Delete: cancels the account's running Stripe subscription at once, then
 * removes the account and everything it owns. `confirmEmail` must equal the account's e-mail (case
 * aside). Refused for your own account and the last admin; when Stripe refuses or cannot be
 * reached, nothing is deleted (10502).
 */
export const DeleteUserSchema = z.object({ userId: IdSchema, confirmEmail: z.string().trim().min(1).max(254) });
export const DeleteUserResultSchema = z.object({ subscription: SubscriptionFateSchema });

/**
 * The administrators' look-ups of accounts (docs/api.md#looking-accounts-up), each by the field it
 * names. By id, e-mail (exact, any case) and phone: one account or 10404. By account (whatever the
 * account is known by: id, e-mail, name or phone, exactly) and by visitor id: every account that
 * matches.
 */
export const UserByEmailQuerySchema = z.object({ email: z.string().trim().min(1).max(254) });
export const UserByPhoneQuerySchema = z.object({ phone: PhoneSchema });
export const UserByAccountQuerySchema = z.object({ account: z.string().trim().min(1).max(254) });
/** The visitor id is the DriverId header the clients send with every call (the tracking records keep it). */
export const UserByVisitorQuerySchema = z.object({ visitorId: z.string().trim().min(1).max(200) });
export const AdminUserListSchema = z.object({ list: z.array(AdminUserSchema) });

/** An account a visitor id was signed in as, and when it last was. */
export const VisitorUserSchema = AdminUserSchema.extend({ lastSeenTime: z.string() });
export type VisitorUser = z.infer<typeof VisitorUserSchema>;
export const VisitorUserListSchema = z.object({ list: z.array(VisitorUserSchema) });

/** GET /api/Account/GetUserNickNameForSystem?userIds=a,b: the names to show for ids (up to 100; unknown ids are left out). */
export const NickNameQuerySchema = z.object({
  userIds: z.preprocess(
    (v) => (typeof v === 'string' ? [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))] : v),
    z.array(IdSchema).min(1).max(100),
  ),
});
export const NickNameListSchema = z.array(z.object({ userId: z.string(), userName: z.string(), email: z.string() }));
