import type { FastifyInstance } from 'fastify';
import {
  GroupUserQuickFunctionBodySchema,
  OnlineUserQuickFunctionBodySchema,
  QuickFunctionExportSchema,
  QuickFunctionImportResultSchema,
  QuickFunctionTreeSchema,
  RecommendedPromptListSchema,
  RecommendedPromptQuerySchema,
  SaveUserQuickFunctionBodySchema,
  SortUserQuickFunctionBodySchema,
  UserQuickFunctionIdBodySchema,
  UserQuickFunctionListSchema,
  UserQuickFunctionSchema,
} from '../../shared/contracts/quick-function.ts';
import { addRoute } from '../http/route.ts';
import {
  deleteOwnQuickFunction,
  exportOwnQuickFunctions,
  groupOwnQuickFunction,
  importOwnQuickFunctions,
  listOwnQuickFunctions,
  quickFunctionMenu,
  saveOwnQuickFunction,
  setOwnQuickFunctionOnline,
  sortOwnQuickFunctions,
  watchQuickFunctionChanges,
} from '../services/quick-functions/quick-functions.ts';
import { listRecommendedPrompts } from '../services/prompts/recommended-prompts.ts';

/** Quick functions (prompt tools) and the user's own prompts (docs/api.md#quick-functions-and-prompts). */
export function registerQuickFunctionRoutes(app: FastifyInstance): void {
  // Listen for operators' changes from the start, so the first cached menu is already covered.
  watchQuickFunctionChanges(app.ctx);
  const base = '/api/QuickFunction';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetQuickFunctionListAll2`,
    auth: 'optional',
    cachedAuth: true,
    summary:
      "The quick-function menu as a tree: online built-ins in the caller's language (accept-language), then the caller's own online items. Signed-out callers get the built-ins.",
    data: QuickFunctionTreeSchema,
    handler: ({ ctx, user, lang }) => quickFunctionMenu(ctx, user?.id ?? null, lang),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetUserQuickFunctionList`,
    auth: 'user',
    summary: "The caller's own quick functions (custom prompts), flat, hidden ones included, in their order.",
    data: UserQuickFunctionListSchema,
    handler: ({ ctx, user }) => listOwnQuickFunctions(ctx, user.id),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SaveUserQuickFunction`,
    auth: 'user',
    summary: 'Creates one of the caller\'s own quick functions (no userQuickFunctionId) or updates one. Name, content (template) and applies-to are required; a group needs no content.',
    body: SaveUserQuickFunctionBodySchema,
    data: UserQuickFunctionSchema,
    handler: ({ ctx, user, body }) => saveOwnQuickFunction(ctx, user.id, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/DeleteUserQuickFunction`,
    auth: 'user',
    summary: "Deletes one of the caller's own quick functions; items under it move to the root.",
    body: UserQuickFunctionIdBodySchema,
    handler: ({ ctx, user, body }) => deleteOwnQuickFunction(ctx, user.id, body.userQuickFunctionId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/OnlineUserQuickFunction`,
    auth: 'user',
    summary: "Shows (online true) or hides one of the caller's own quick functions in the menu.",
    body: OnlineUserQuickFunctionBodySchema,
    handler: ({ ctx, user, body }) => setOwnQuickFunctionOnline(ctx, user.id, body.userQuickFunctionId, body.online),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SortUserQuickFunction`,
    auth: 'user',
    summary: "Puts the caller's own quick functions in the order of `ids` (all must be theirs).",
    body: SortUserQuickFunctionBodySchema,
    handler: ({ ctx, user, body }) => sortOwnQuickFunctions(ctx, user.id, body.ids),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/GroupUserQuickFunction`,
    auth: 'user',
    summary: "Moves one of the caller's own quick functions under another of theirs (parentId), or to the root (null).",
    body: GroupUserQuickFunctionBodySchema,
    handler: ({ ctx, user, body }) => groupOwnQuickFunction(ctx, user.id, body.userQuickFunctionId, body.parentId),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/ExportUserQuickFunction`,
    auth: 'user',
    summary: "The caller's own quick functions as the JSON file ImportUserQuickFunction takes back.",
    data: QuickFunctionExportSchema,
    handler: ({ ctx, user }) => exportOwnQuickFunctions(ctx, user.id),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/ImportUserQuickFunction`,
    auth: 'user',
    summary: "Adds the prompts of an exported JSON file to the caller's own (new ids; grouping kept within the file). At most 200 in all.",
    body: QuickFunctionExportSchema,
    data: QuickFunctionImportResultSchema,
    bodyLimit: 4 * 1024 * 1024,
    handler: async ({ ctx, user, body }) => ({ imported: await importOwnQuickFunctions(ctx, user.id, body) }),
  });
  // The spec lists this call under /api/Chat too: both addresses answer alike.
  for (const url of ['/api/AiPrompWord/GetAiPrompWordByRecomment', '/api/Chat/GetAiPrompWordByRecomment']) {
    addRoute(app, {
      method: 'GET',
      url,
      auth: 'public',
      summary:
        "The online recommended prompts in `language` (default: the caller's accept-language), in their order, each with its tags; with `tagId`, only those carrying that tag.",
      query: RecommendedPromptQuerySchema,
      data: RecommendedPromptListSchema,
      handler: ({ ctx, query, lang }) => listRecommendedPrompts(ctx, query.language ?? lang, query.tagId),
    });
  }
}
