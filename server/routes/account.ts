import type { FastifyInstance } from 'fastify';
import {
  AddUserRequestSchema,
  AddUserResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
} from '../../shared/contracts/account.ts';
import { addRoute } from '../http/route.ts';
import { createAccount, login } from '../services/accounts/accounts.ts';

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
    handler: ({ ctx, body }) => createAccount(ctx, body),
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
}
