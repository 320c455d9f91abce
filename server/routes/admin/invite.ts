import type { FastifyInstance } from 'fastify';
import { InviteStatisticsQuerySchema, InviteStatisticsSchema } from '../../../shared/contracts/admin-money.ts';
import {
  AdminInviteCodePageSchema,
  AdminInviteCodeQuerySchema,
  AdminInviteCodeSchema,
  AdminInviteUsePageSchema,
  AdminInviteUseQuerySchema,
  DisableInviteCodeSchema,
} from '../../../shared/contracts/admin-invites.ts';
import { addRoute } from '../../http/route.ts';
import { inviteStatistics } from '../../services/admin/money.ts';
import { getInviteCode, listInviteCodes, listInviteUses, setInviteCodeDisabled } from '../../services/admin/invite-codes.ts';

/** Invites for operators (docs/economy.md#invites): who brings people in, what it cost in points, and the codes themselves. */
export function registerAdminInviteRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/InviteCode/GetStatistics',
    auth: 'admin',
    summary:
      'Invite statistics over a date range: sign-ups with an inviter, invite credits and their points (totals, per UTC day), and the top inviters with their e-mails',
    query: InviteStatisticsQuerySchema,
    data: InviteStatisticsSchema,
    handler: ({ ctx, query }) => inviteStatistics(ctx, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/InviteCode/GetList',
    auth: 'admin',
    summary:
      "The accounts' own invite codes, most used first, with the owner, whether it is disabled, its sign-ups and the invite points it earned; keyword finds a code or an owner's e-mail or name, status filters active or disabled codes",
    query: AdminInviteCodeQuerySchema,
    data: AdminInviteCodePageSchema,
    handler: ({ ctx, query }) => listInviteCodes(ctx, query),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/InviteCode/Disable',
    auth: 'admin',
    audit: { target: 'inviteCode', id: ({ body }) => body.ownerId, load: getInviteCode },
    summary:
      "Disables an account's invite code (sign-ups with it no longer link an inviter or credit points; the owner's invite page says it is disabled) or, with disabled false, enables it again",
    body: DisableInviteCodeSchema,
    data: AdminInviteCodeSchema,
    handler: ({ ctx, body }) => setInviteCodeDisabled(ctx, body.ownerId, body.disabled),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/InviteCodeUsed/GetList',
    auth: 'admin',
    summary:
      "The sign-ups made with an invite code, newest first: the code and its owner, the invitee, when, and the points the ledger paid the owner for it (null until credited); keyword finds a code or either side's e-mail or name, ownerId one owner's",
    query: AdminInviteUseQuerySchema,
    data: AdminInviteUsePageSchema,
    handler: ({ ctx, query }) => listInviteUses(ctx, query),
  });
}
