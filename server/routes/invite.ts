import type { FastifyInstance } from 'fastify';
import { PageQuerySchema } from '../../shared/contracts/common.ts';
import { InviteInfoSchema, InvitedAccountPageSchema } from '../../shared/contracts/invites.ts';
import { addRoute } from '../http/route.ts';
import { getMyInvite, listInvited, settleInviteCredits } from '../services/points/invites.ts';

/** Invites (docs/economy.md#invites): the caller's code and the accounts it brought. */
export function registerInviteRoutes(app: FastifyInstance): void {
  // Credits started by messages (chat/prepare.ts) finish before the database closes.
  app.addHook('preClose', () => settleInviteCredits(app.ctx));

  addRoute(app, {
    method: 'GET',
    url: '/api/InviteCode/GetMyInviteCode',
    auth: 'user',
    summary:
      "The caller's own invite code (made on first request) and sign-up link, with how many accounts signed up with it, how many earned the caller points, and the points per invite",
    data: InviteInfoSchema,
    handler: ({ ctx, user }) => getMyInvite(ctx, user.id),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/InviteCode/GetMyInviteList',
    auth: 'user',
    summary: 'The accounts that signed up with the caller\'s code, newest first: masked name ("Al***"), sign-up time, and the points each earned',
    query: PageQuerySchema,
    data: InvitedAccountPageSchema,
    handler: ({ ctx, user, query }) => listInvited(ctx.db, user.id, query.page, query.count),
  });
}
