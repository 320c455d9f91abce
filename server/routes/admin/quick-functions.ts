import type { FastifyInstance } from 'fastify';
import {
  AdminOnlineQuickFunctionBodySchema,
  AdminQuickFunctionIdBodySchema,
  AdminQuickFunctionListSchema,
  AdminQuickFunctionSchema,
  AdminRecommendedPromptIdBodySchema,
  AdminRecommendedPromptIdQuerySchema,
  AdminRecommendedPromptListQuerySchema,
  AdminRecommendedPromptPageSchema,
  AdminRecommendedPromptSchema,
  AdminSaveQuickFunctionBodySchema,
  AdminSaveRecommendedPromptBodySchema,
  AdminSortQuickFunctionBodySchema,
} from '../../../shared/contracts/quick-function.ts';
import { addRoute, savedId } from '../../http/route.ts';
import { builtInQuickFunction } from '../../services/admin/audit-targets.ts';
import {
  adminDeleteQuickFunction,
  adminListQuickFunctions,
  adminSaveQuickFunction,
  adminSetQuickFunctionOnline,
  adminSortQuickFunctions,
} from '../../services/quick-functions/quick-functions.ts';
import {
  adminDeleteRecommendedPrompt,
  adminGetRecommendedPrompt,
  adminListRecommendedPrompts,
  adminSaveRecommendedPrompt,
} from '../../services/prompts/recommended-prompts.ts';

/** Operators manage the built-in quick functions and the recommended prompts (docs/api.md#quick-functions-and-prompts). */
export function registerAdminQuickFunctionRoutes(app: FastifyInstance): void {
  const base = '/api/admin/QuickFunction';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'Every built-in quick function, offline ones included, with both languages\' texts.',
    data: AdminQuickFunctionListSchema,
    handler: ({ ctx }) => adminListQuickFunctions(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'quickFunction', id: savedId('quickFunctionId'), load: builtInQuickFunction },
    summary: 'Creates a built-in quick function (no quickFunctionId) or updates one; every instance re-reads the menu.',
    body: AdminSaveQuickFunctionBodySchema,
    data: AdminQuickFunctionSchema,
    handler: ({ ctx, body }) => adminSaveQuickFunction(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'quickFunction', id: ({ body }) => body.quickFunctionId, load: builtInQuickFunction },
    summary: 'Deletes a built-in quick function; items under it move to the root.',
    body: AdminQuickFunctionIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteQuickFunction(ctx, body.quickFunctionId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Online`,
    auth: 'admin',
    audit: { target: 'quickFunction', id: ({ body }) => body.quickFunctionId, load: builtInQuickFunction },
    summary: 'Shows or hides a built-in quick function (and what is under it) in every menu.',
    body: AdminOnlineQuickFunctionBodySchema,
    handler: ({ ctx, body }) => adminSetQuickFunctionOnline(ctx, body.quickFunctionId, body.online),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Sort`,
    auth: 'admin',
    audit: { target: 'quickFunction', id: () => undefined },
    summary: 'Puts the built-in quick functions of `ids` in that order.',
    body: AdminSortQuickFunctionBodySchema,
    handler: ({ ctx, body }) => adminSortQuickFunctions(ctx, body.ids),
  });

  const words = '/api/admin/AiPrompWord';
  addRoute(app, {
    method: 'GET',
    url: `${words}/GetList`,
    auth: 'admin',
    summary: 'The recommended prompts, a page at a time, optionally of one language.',
    query: AdminRecommendedPromptListQuerySchema,
    data: AdminRecommendedPromptPageSchema,
    handler: ({ ctx, query }) => adminListRecommendedPrompts(ctx, query),
  });
  addRoute(app, {
    method: 'GET',
    url: `${words}/GetById`,
    auth: 'admin',
    summary: 'One recommended prompt.',
    query: AdminRecommendedPromptIdQuerySchema,
    data: AdminRecommendedPromptSchema,
    handler: ({ ctx, query }) => adminGetRecommendedPrompt(ctx, query.aiPrompWordId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${words}/Save`,
    auth: 'admin',
    audit: { target: 'recommendedPrompt', id: savedId('aiPrompWordId'), load: adminGetRecommendedPrompt },
    summary: 'Creates a recommended prompt (no aiPrompWordId) or updates one.',
    body: AdminSaveRecommendedPromptBodySchema,
    data: AdminRecommendedPromptSchema,
    handler: ({ ctx, body }) => adminSaveRecommendedPrompt(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${words}/Delete`,
    auth: 'admin',
    audit: { target: 'recommendedPrompt', id: ({ body }) => body.aiPrompWordId, load: adminGetRecommendedPrompt },
    summary: 'Deletes a recommended prompt.',
    body: AdminRecommendedPromptIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteRecommendedPrompt(ctx, body.aiPrompWordId),
  });
}
