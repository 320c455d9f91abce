import type { FastifyInstance } from 'fastify';
import { pagedSchema } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AdminUserListQuerySchema, AdminUserSchema, UserIdRequestSchema } from '../../../shared/contracts/user.ts';
import { AppError } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { closeAccount, listUsers } from '../../services/accounts.ts';

export function registerAdminUserRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/User/GetList',
    auth: 'admin',
    summary: 'Users, newest first, optionally filtered by e-mail substring',
    query: AdminUserListQuerySchema,
    data: pagedSchema(AdminUserSchema),
    handler: ({ ctx, query }) => listUsers(ctx.db, query),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/User/Close',
    auth: 'admin',
    summary: 'Close an account and revoke all its tokens',
    body: UserIdRequestSchema,
    handler: async ({ ctx, body }) => {
      if (!(await closeAccount(ctx, body.userId))) throw new AppError(Codes.NotFound, 'notFound');
      return null;
    },
  });
}
