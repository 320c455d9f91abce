import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  IntegralEntrySchema,
  TempKeyQuerySchema,
  TestTokenQuerySchema,
  UpdateNickNameRequestSchema,
  UserInfoSchema,
  UserSettingSchema,
} from '../../shared/contracts/user.ts';
import { addRoute } from '../http/route.ts';
import { exchangeTempKey, getSettings, saveSettings, tokenForTest, updateNickName } from '../services/accounts/accounts.ts';
import { AppError } from '../core/errors.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { bearerOf, revokeAllTokens, revokeToken, type AuthUser } from '../services/accounts/auth.ts';
import { headImgPath } from '../services/accounts/head-img.ts';
import { blockedReason } from '../services/reader/address-guard.ts';
import { getIntegral, listLedger } from '../services/points/ledger.ts';
import { pagedSchema } from '../../shared/contracts/common.ts';
import { LedgerEntrySchema, LedgerListQuerySchema } from '../../shared/contracts/points.ts';

/** The UserInfo answer of a signed-in user (GetUserByLogin, UpdateNickName, the picture's calls). */
export const userInfo = (u: AuthUser) => ({
  userId: u.id,
  userName: u.userName,
  email: u.email,
  role: u.role,
  vipOrder: u.vipOrder,
  headImg: headImgPath(u.headImg),
  phone: u.phone ?? null,
});

export function registerUserRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetTokenForTempKey',
    auth: 'public',
    summary: 'Exchange a temp key from the login page for a token (Data is the token)',
    query: TempKeyQuerySchema,
    data: z.string(),
    handler: ({ ctx, query }) => exchangeTempKey(ctx, query.tempKey),
  });

  if (app.ctx.config.TEST_TOKEN_ROUTE) registerTestTokenRoute(app);

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserByLogin',
    auth: 'user',
    summary: 'The logged-in user, with the plan in force (vipOrder null for free users) and the address of their picture (headImg, null without one)',
    data: UserInfoSchema,
    handler: async ({ user }) => userInfo(user),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserIntegralByLogin',
    auth: 'user',
    summary:
      "The user's points: integralValue available now (kept + freeLeft), useIntegral used so far; freeLeft of freeDaily is today's free allowance, refilled at freeResetsAt; kept does not reset",
    data: z.array(IntegralEntrySchema),
    handler: ({ ctx, user }) => getIntegral(ctx.db, user.id, ctx.config.FREE_DAILY_POINTS),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserIntegralLogList',
    auth: 'user',
    summary: "The user's points history, newest first: every change of the balance and what caused it (optionally one kind)",
    query: LedgerListQuerySchema,
    data: pagedSchema(LedgerEntrySchema),
    handler: ({ ctx, user, query }) => listLedger(ctx.db, user.id, query.page, query.count, query.kind),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/UpdateNickName',
    auth: 'user',
    summary: 'Change the display name',
    body: UpdateNickNameRequestSchema,
    data: UserInfoSchema,
    handler: async ({ ctx, user, body }) => {
      await updateNickName(ctx.db, user.id, body.userName);
      return userInfo({ ...user, userName: body.userName });
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetUserSetting',
    auth: 'user',
    summary: "The user's settings document",
    data: UserSettingSchema,
    handler: ({ ctx, user }) => getSettings(ctx.db, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/SaveUserSetting',
    auth: 'user',
    summary: 'Merge the given fields into the settings document; answers the whole document',
    body: UserSettingSchema,
    data: UserSettingSchema,
    handler: ({ ctx, user, body }) => saveSettings(ctx.db, user.id, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/Logout',
    auth: 'user',
    summary: 'Log out: ends the login this token belongs to (every renewal of it)',
    handler: async ({ ctx, req }) => {
      await revokeToken(ctx, bearerOf(req.headers.authorization)!);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/LogoutAll',
    auth: 'user',
    summary: 'Sign out everywhere: ends every login of the caller (this one included) and the temp keys not yet exchanged',
    handler: async ({ ctx, user }) => {
      await revokeAllTokens(ctx, user.id);
      return null;
    },
  });
}

/**
 * GetTokenForTest: a token by e-mail with no password, for the end-to-end tests. Absent unless the
 * server runs with TEST_TOKEN_ROUTE (refused with NODE_ENV=production, server/config.ts), and even
 * then answered only to callers on loopback.
 */
function registerTestTokenRoute(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/User/GetTokenForTest',
    auth: 'public',
    summary:
      'Test runs only (TEST_TOKEN_ROUTE; absent otherwise, never with NODE_ENV=production): a token for the active account with this e-mail, to callers on loopback (others: 10403)',
    query: TestTokenQuerySchema,
    data: z.string(),
    handler: async ({ ctx, req, query }) => {
      // The socket's own address, whatever a proxy header claims (the page reader's address rules).
      if (blockedReason(req.socket.remoteAddress ?? '') !== 'loopback') throw new AppError(Codes.Forbidden, 'forbidden');
      return tokenForTest(ctx, query.email);
    },
  });
}
