import type { FastifyInstance } from 'fastify';
import { AdminPluginListSchema, AdminPluginSchema, SavePluginSchema } from '../../../shared/contracts/plugin.ts';
import { addRoute } from '../../http/route.ts';
import { adminListPlugins, adminSavePlugin } from '../../services/plugins/plugins.ts';

export function registerAdminPluginRoutes(app: FastifyInstance): void {
  const base = '/api/admin/Plugin';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'Every plugin, offline ones included, with whether the server can run it (available).',
    data: AdminPluginListSchema,
    handler: ({ ctx }) => adminListPlugins(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'plugin', id: ({ body }) => body.pluginId, load: async (ctx, id) => (await adminListPlugins(ctx)).find((p) => p.pluginId === id) ?? null },
    summary: 'Switches a plugin on or off (online) and sets the points each call costs (pointsCost); omitted fields stay.',
    body: SavePluginSchema,
    data: AdminPluginSchema,
    handler: ({ ctx, body }) => adminSavePlugin(ctx, body),
  });
}
