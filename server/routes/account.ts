import type { FastifyInstance } from 'fastify';
import {
  AddUserRequestSchema,
  AddUserResponseSchema,
  HEAD_IMG,
  HeadImgQuerySchema,
  LoginRequestSchema,
  LoginResponseSchema,
  UpdateUserPasswordRequestSchema,
  UpdateUserPhoneRequestSchema,
} from '../../shared/contracts/account.ts';
import {
  AdminUserListSchema,
  AdminUserSchema,
  NickNameListSchema,
  NickNameQuerySchema,
  UserByAccountQuerySchema,
  UserByEmailQuerySchema,
  UserByPhoneQuerySchema,
  UserByVisitorQuerySchema,
  UserIdQuerySchema,
  VisitorUserListSchema,
} from '../../shared/contracts/admin-users.ts';
import { BytesSchema } from '../../shared/contracts/responses.ts';
import { UserInfoSchema } from '../../shared/contracts/user.ts';
import { addRoute } from '../http/route.ts';
import { sendStoredImage } from '../http/stored-image.ts';
import { readUploadForm } from '../http/upload-form.ts';
import { createAccount, login, updatePhone } from '../services/accounts/accounts.ts';
import { nickNames, userByEmail, userById, userByPhone, usersByAccount, usersByVisitor } from '../services/admin/user-lookups.ts';
import { bearerOf } from '../services/accounts/auth.ts';
import { deleteHeadImg, readHeadImg, saveHeadImg } from '../services/accounts/head-img.ts';
import { changePassword } from '../services/accounts/password-change.ts';
import { mailVerificationLater } from '../services/accounts/email-verification.ts';
import { userInfo } from './user.ts';

export function registerAccountRoutes(app: FastifyInstance): void {
  // Per IP address, against brute force and mass sign-up.
  const rateLimit = { max: app.ctx.config.AUTH_RATE_LIMIT, timeWindow: app.ctx.config.AUTH_RATE_WINDOW_SECONDS * 1000 };

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/AddUser',
    auth: 'public',
    summary: 'Create an account',
    body: AddUserRequestSchema,
    data: AddUserResponseSchema,
    rateLimit,
    handler: async ({ ctx, body, lang }) => {
      const account = await createAccount(ctx, body);
      // With SMTP_URL, the verification link goes out in the background (docs/api.md#verified-e-mail).
      mailVerificationLater(ctx, account.userId, lang);
      return account;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/Login',
    auth: 'public',
    summary: 'Check e-mail and password; answers a single-use temp key valid 60 s',
    body: LoginRequestSchema,
    data: LoginResponseSchema,
    rateLimit,
    handler: ({ ctx, body }) => login(ctx, body.email, body.password),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/UpdateUserPassword',
    auth: 'user',
    summary:
      "Change the caller's password: oldPassword is checked as at login (wrong ones count toward the login back-off: 10401, then 10429), newPassword follows sign-up's rule and must differ (10400). Every other login of the account ends; this one stays valid. With SMTP_URL the account is e-mailed a notice.",
    body: UpdateUserPasswordRequestSchema,
    // Each attempt costs a password hash and may guess the current password: limited like login.
    rateLimit,
    handler: async ({ ctx, user, req, body, lang }) => {
      await changePassword(ctx, user.id, bearerOf(req.headers.authorization)!, body, lang);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/UpdateUserPhone',
    auth: 'user',
    summary:
      "Set the caller's phone number (spaces, dashes, dots and brackets are dropped; an optional + then 6 to 15 digits: 10400 otherwise), or remove it with null or ''. One already on another account: 10409. Answers the user info.",
    body: UpdateUserPhoneRequestSchema,
    data: UserInfoSchema,
    handler: async ({ ctx, user, body }) => {
      await updatePhone(ctx.db, user.id, body.phone);
      return userInfo({ ...user, phone: body.phone });
    },
  });

  registerHeadImgRoutes(app);
  registerLookupRoutes(app);
}

/** The administrators' look-ups of accounts (docs/api.md#looking-accounts-up): the console's "Find by". */
function registerLookupRoutes(app: FastifyInstance): void {
  const base = '/api/Account';
  const notFound = ' (10404 when there is none)';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserById`,
    auth: 'admin',
    summary: `The account with this id, as a row of the Users list${notFound}`,
    query: UserIdQuerySchema,
    data: AdminUserSchema,
    handler: ({ ctx, query }) => userById(ctx, query.userId),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserByEmail`,
    auth: 'admin',
    summary: `The account with this e-mail, in any case${notFound}`,
    query: UserByEmailQuerySchema,
    data: AdminUserSchema,
    handler: ({ ctx, query }) => userByEmail(ctx, query.email),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserByPhone`,
    auth: 'admin',
    summary: `The account with this phone number, written any way UpdateUserPhone accepts${notFound}`,
    query: UserByPhoneQuerySchema,
    data: AdminUserSchema,
    handler: ({ ctx, query }) => userByPhone(ctx, query.phone),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserByAccount`,
    auth: 'admin',
    summary: 'Every account known by `account` exactly: its id, e-mail or name (any case) or phone number; newest first, at most 50',
    query: UserByAccountQuerySchema,
    data: AdminUserListSchema,
    handler: async ({ ctx, query }) => ({ list: await usersByAccount(ctx, query.account) }),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserByVisotorId`,
    auth: 'admin',
    summary:
      'The accounts a visitor id (the DriverId header clients send) was signed in as, from the tracking records, with when each was last seen (lastSeenTime), most recent first',
    query: UserByVisitorQuerySchema,
    data: VisitorUserListSchema,
    handler: async ({ ctx, query }) => ({ list: await usersByVisitor(ctx, query.visitorId) }),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserNickNameForSystem`,
    auth: 'admin',
    summary: 'The names and e-mails to show for account ids (userIds: comma-separated, up to 100), in the order asked; unknown ids are left out',
    query: NickNameQuerySchema,
    data: NickNameListSchema,
    handler: ({ ctx, query }) => nickNames(ctx, query.userIds),
  });
}

/** The user's picture (docs/api.md#the-users-picture): upload, remove, and the stored bytes by id. */
function registerHeadImgRoutes(app: FastifyInstance): void {
  const maxMb = HEAD_IMG.maxBytes / 1024 / 1024;
  addRoute(app, {
    method: 'POST',
    url: '/api/Account/AddUserForHeadImg',
    auth: 'user',
    summary: `Set the caller's picture: multipart/form-data with one file (as ${HEAD_IMG.field}), PNG, JPEG or WebP, at most ${maxMb} MB. Cropped to a centred square, scaled to ${HEAD_IMG.side}×${HEAD_IMG.side} WebP without metadata; the picture it replaces is deleted. Answers the user info with the new headImg.`,
    data: UserInfoSchema,
    // Each call decodes an image of up to 100 million pixels: bounded per account.
    rateLimit: { max: 10, timeWindow: 60_000 },
    handler: async ({ ctx, user, req, reply }) => {
      const form = await readUploadForm(req, reply, HEAD_IMG.maxBytes);
      const headImg = await saveHeadImg(ctx, user.id, form.file);
      return userInfo({ ...user, headImg });
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Account/DeleteUserHeadImg',
    auth: 'user',
    summary: "Remove the caller's picture (its stored file is deleted; its address answers 404 from then on). Answers the user info, headImg null.",
    data: UserInfoSchema,
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: async ({ ctx, user }) => {
      await deleteHeadImg(ctx, user.id);
      return userInfo({ ...user, headImg: null });
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Account/GetHeadImg',
    auth: 'public',
    summary:
      "A user's picture, by the address UserInfo.headImg gives (a random id, new with each upload, so it is cached for good). An id no account names now (removed, replaced, never) answers HTTP 404 with Code 10404.",
    query: HeadImgQuerySchema,
    raw: { description: `The picture: ${HEAD_IMG.side}×${HEAD_IMG.side} WebP.`, content: { 'image/webp': BytesSchema }, notFoundStatus: true },
    handler: async ({ ctx, query, reply, lang }) => sendStoredImage(reply, await readHeadImg(ctx, query.headImgId), lang),
  });
}
