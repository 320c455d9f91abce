import type { FastifyInstance } from 'fastify';
import {
  AdminUserDetailSchema,
  AdminUserLedgerPageSchema,
  AdminUserLedgerQuerySchema,
  AdminUserListQuerySchema,
  AdminUserPageSchema,
  DeletePreviewSchema,
  DeleteUserResultSchema,
  DeleteUserSchema,
  EndPlanResultSchema,
  ExtendPlanResultSchema,
  ExtendPlanSchema,
  GrantPointsResultSchema,
  GrantPointsSchema,
  PasswordResetLinkSchema,
  SetRoleSchema,
  UserIdQuerySchema,
  UserIdRequestSchema,
} from '../../../shared/contracts/admin-users.ts';
import { addRoute } from '../../http/route.ts';
import {
  closeUser,
  deletePreview,
  deleteUser,
  endPlan,
  getAdminUser,
  getUserLedger,
  grantPoints,
  listAdminUsers,
  reopenUser,
  setRole,
  userAuditState,
} from '../../services/admin/users.ts';
import { createPasswordReset } from '../../services/accounts/password-reset.ts';
import { extendEndTime } from '../../services/plans/plans.ts';

/** Every write here acts on one account, named by body.userId: the audit log keeps it before and after. */
const onUser = () => ({ target: 'user', id: ({ body }: { body: { userId: string } }) => body.userId, load: userAuditState });

/** The console's Users pages (docs/api.md#users). */
export function registerAdminUserRoutes(app: FastifyInstance): void {
  const base = '/api/admin/User';
  // The spec names the list under /api/User too: the same call, for administrators only.
  for (const url of [`${base}/GetList`, '/api/User/GetUserList']) {
    addRoute(app, {
      method: 'GET',
      url,
      auth: 'admin',
      summary:
        'Users with plan, balance, sessions and last activity; keyword searches e-mail, name or id (email: the older e-mail-only filter); filters role, planLevel (0 free), status; sort created, lastActive, balance or email',
      query: AdminUserListQuerySchema,
      data: AdminUserPageSchema,
      handler: ({ ctx, query }) => listAdminUsers(ctx, query),
    });
  }

  addRoute(app, {
    method: 'GET',
    url: `${base}/GetById`,
    auth: 'admin',
    summary: "A user's page: plan and subscription, balance, first ledger page, counts, tokens used, inviter and invitees",
    query: UserIdQuerySchema,
    data: AdminUserDetailSchema,
    handler: ({ ctx, query }) => getAdminUser(ctx, query.userId),
  });

  addRoute(app, {
    method: 'GET',
    url: `${base}/GetLedger`,
    auth: 'admin',
    summary: "A page of a user's points ledger, newest first",
    query: AdminUserLedgerQuerySchema,
    data: AdminUserLedgerPageSchema,
    handler: ({ ctx, query }) => getUserLedger(ctx, query.userId, query.page, query.count),
  });

  addRoute(app, {
    method: 'GET',
    url: `${base}/GetDeletePreview`,
    auth: 'admin',
    summary: 'What deleting the account removes: counts of sessions, messages, favourites, files, ledger entries, orders',
    query: UserIdQuerySchema,
    data: DeletePreviewSchema,
    handler: ({ ctx, query }) => deletePreview(ctx, query.userId),
  });
  registerAdminUserActions(app, base);
}

/** The operator's actions on an account: each is written to the audit log. */
function registerAdminUserActions(app: FastifyInstance, base: string): void {
  addRoute(app, {
    method: 'POST',
    url: `${base}/GrantPoints`,
    auth: 'admin',
    summary:
      'Grant (positive amount) or deduct (negative) points with a reason the user sees, on the ledger; once per requestId (applied false: applied before). A deduction below zero answers 10400 and changes nothing',
    body: GrantPointsSchema,
    data: GrantPointsResultSchema,
    audit: onUser(),
    handler: ({ ctx, body }) => grantPoints(ctx, body),
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/ExtendPlan`,
    auth: 'admin',
    summary: 'Grant plan days at a level (1 to 3) after the latest order at that level or above; once per requestId (as Vip/ExtendEndTime)',
    body: ExtendPlanSchema,
    data: ExtendPlanResultSchema,
    audit: onUser(),
    handler: ({ ctx, body }) => extendEndTime(ctx.db, body),
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/EndPlan`,
    auth: 'admin',
    summary:
      "Cancel the running Stripe subscription at once, then end every order in force or scheduled now: the user is free at once. subscription: none, cancelled, or notConfigured (no Stripe key here: cancel it in Stripe's dashboard)",
    body: UserIdRequestSchema,
    data: EndPlanResultSchema,
    audit: onUser(),
    handler: ({ ctx, body }) => endPlan(ctx, body.userId),
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/SetRole`,
    auth: 'admin',
    summary: 'Make a user an administrator or take the role away; refused (10409) for your own account and the last active administrator',
    body: SetRoleSchema,
    audit: onUser(),
    handler: async ({ ctx, user, body }) => {
      await setRole(ctx, user.id, body.userId, body.role);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/Close`,
    auth: 'admin',
    summary: 'Close an account and revoke all its tokens (its next call answers 10402); refused (10409) for your own account and the last active administrator',
    body: UserIdRequestSchema,
    audit: onUser(),
    handler: async ({ ctx, user, body }) => {
      await closeUser(ctx, user.id, body.userId);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/Reopen`,
    auth: 'admin',
    summary: 'Reopen a closed account: it can sign in again',
    body: UserIdRequestSchema,
    audit: onUser(),
    handler: async ({ ctx, body }) => {
      await reopenUser(ctx, body.userId);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/SendPasswordReset`,
    auth: 'admin',
    summary:
      'Make a single-use password-reset link (one hour; older links stop working) to pass on to the user; e-mailed too when SMTP_URL is set (emailed true)',
    body: UserIdRequestSchema,
    data: PasswordResetLinkSchema,
    // The link is a secret: the log keeps that one was sent, not the link.
    audit: { target: 'user', id: ({ body }) => body.userId },
    handler: ({ ctx, user, body }) => createPasswordReset(ctx, user.id, body.userId),
  });

  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    summary:
      "Delete an account with everything it owns (stored files included), its running Stripe subscription cancelled first; confirmEmail must be the account's e-mail. Refused (10409) for your own account and the last active administrator",
    body: DeleteUserSchema,
    audit: onUser(),
    data: DeleteUserResultSchema,
    handler: ({ ctx, user, body }) => deleteUser(ctx, user.id, body.userId, body.confirmEmail),
  });
}
