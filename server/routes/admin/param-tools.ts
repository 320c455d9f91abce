import type { FastifyInstance } from 'fastify';
import { ModelIdQuerySchema } from '../../../shared/contracts/model.ts';
import { AdminModelParamsListSchema, AdminModelParamsSchema, SaveModelParamsBodySchema } from '../../../shared/contracts/param-tools.ts';
import { addRoute } from '../../http/route.ts';
import { adminGetModelParams, adminListModelParams, adminSaveModelParams } from '../../services/params/param-tools.ts';

/** Operators set the bounds of each model's chat parameters (docs/api.md#model-parameters). */
export function registerAdminParamToolsRoutes(app: FastifyInstance): void {
  const base = '/api/admin/ParamTools';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'Every catalogue model (offline ones too) with the bounds of its chat parameters: the operator\'s, or the defaults (custom false).',
    data: AdminModelParamsListSchema,
    handler: ({ ctx }) => adminListModelParams(ctx),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetByModelId`,
    auth: 'admin',
    summary: "One model's parameter bounds.",
    query: ModelIdQuerySchema,
    data: AdminModelParamsSchema,
    handler: ({ ctx, query }) => adminGetModelParams(ctx, query.aiModelId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'paramTools', id: ({ body }) => body.aiModelId, load: adminGetModelParams },
    summary:
      "Sets a model's parameter bounds (temperature min/max/default, maximum answer length max/default, whether a system prompt is allowed and its length), or with bounds null restores the defaults. Chats keep their values; the send path clamps them to the new bounds.",
    body: SaveModelParamsBodySchema,
    data: AdminModelParamsSchema,
    handler: ({ ctx, body }) => adminSaveModelParams(ctx, body),
  });
}
