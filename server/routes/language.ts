import type { FastifyInstance } from 'fastify';
import { GetLanguageQuerySchema, LanguageOverridesSchema } from '../../shared/contracts/translations.ts';
import { addRoute } from '../http/route.ts';
import { getLanguageOverrides } from '../services/system/translations.ts';

/** The operators' overrides of the apps' built-in strings (docs/api.md#translations). */
export function registerLanguageRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Language/GetLanguage',
    auth: 'public',
    summary:
      "The operators' overrides of the built-in strings of `lang` (flat keys), with their version (also the ETag header). When `version` is the current one, strings is null: the client keeps what it has.",
    query: GetLanguageQuerySchema,
    data: LanguageOverridesSchema,
    handler: async ({ ctx, query, reply }) => {
      const overrides = await getLanguageOverrides(ctx, query.lang, query.version);
      reply.header('ETag', `"${overrides.version}"`);
      return overrides;
    },
  });
}
