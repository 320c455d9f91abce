import type { FastifyInstance } from 'fastify';
import { PluginListQuerySchema, PluginListSchema } from '../../shared/contracts/plugin.ts';
import { addRoute } from '../http/route.ts';
import { listPlugins } from '../services/plugins/plugins.ts';

export function registerPluginRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Plugin/GetPluginListAll',
    auth: 'public',
    summary:
      'The online plugins offered in `scene` (web, extension, h5; every scene when absent). `available` is false when the server lacks what one needs (a search provider, an images endpoint).',
    query: PluginListQuerySchema,
    data: PluginListSchema,
    handler: ({ ctx, query }) => listPlugins(ctx, query),
  });
}
