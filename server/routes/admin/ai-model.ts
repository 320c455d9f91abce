import type { FastifyInstance } from 'fastify';
import { pagedSchema } from '../../../shared/contracts/common.ts';
import {
  AdminDeploymentSchema,
  AdminModelListQuerySchema,
  AdminModelSchema,
  DeploymentIdBodySchema,
  DeploymentIdQuerySchema,
  DeploymentListQuerySchema,
  ModelIdBodySchema,
  ModelIdQuerySchema,
  ModelOnlineSchema,
  SaveDeploymentSchema,
  SaveModelSchema,
} from '../../../shared/contracts/model.ts';
import { addRoute } from '../../http/route.ts';
import {
  adminDeleteDeployment,
  adminDeleteModel,
  adminGetDeployment,
  adminGetModel,
  adminListDeployments,
  adminListModels,
  adminSaveDeployment,
  adminSaveModel,
  adminSetOnline,
} from '../../services/catalogue-admin.ts';

/** The catalogue for operators: changes apply on every instance without a restart. */
export function registerAdminModelRoutes(app: FastifyInstance): void {
  const base = '/api/admin/AiModel';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'All models, offline ones included; keyword filters by id or name.',
    query: AdminModelListQuerySchema,
    data: pagedSchema(AdminModelSchema),
    handler: ({ ctx, query }) => adminListModels(ctx, query),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetById`,
    auth: 'admin',
    summary: 'One model.',
    query: ModelIdQuerySchema,
    data: AdminModelSchema,
    handler: ({ ctx, query }) => adminGetModel(ctx, query.aiModelId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    summary: 'Creates a model (id from aiModelId or the name) or updates the one named by aiModelId.',
    body: SaveModelSchema,
    data: AdminModelSchema,
    handler: ({ ctx, body }) => adminSaveModel(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    summary: 'Deletes a model and its deployments; chat history keeps its name.',
    body: ModelIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteModel(ctx, body.aiModelId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Online`,
    auth: 'admin',
    summary: 'Puts a model online or takes it offline.',
    body: ModelOnlineSchema,
    data: AdminModelSchema,
    handler: ({ ctx, body }) => adminSetOnline(ctx, body.aiModelId, body.online),
  });

  const maps = '/api/admin/AiModelMap';
  addRoute(app, {
    method: 'GET',
    url: `${maps}/GetList`,
    auth: 'admin',
    summary: "A model's upstream deployments; keys appear only as hasApiKey and a masked hint.",
    query: DeploymentListQuerySchema,
    data: AdminDeploymentSchema.array(),
    handler: ({ ctx, query }) => adminListDeployments(ctx, query.aiModelId),
  });
  addRoute(app, {
    method: 'GET',
    url: `${maps}/GetById`,
    auth: 'admin',
    summary: 'One deployment.',
    query: DeploymentIdQuerySchema,
    data: AdminDeploymentSchema,
    handler: ({ ctx, query }) => adminGetDeployment(ctx, query.aiModelMapId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${maps}/Save`,
    auth: 'admin',
    summary: 'Creates or updates a deployment. apiKey is write-only: omit it to keep the stored key, send "" to remove it.',
    body: SaveDeploymentSchema,
    data: AdminDeploymentSchema,
    handler: ({ ctx, body }) => adminSaveDeployment(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${maps}/Delete`,
    auth: 'admin',
    summary: 'Deletes a deployment.',
    body: DeploymentIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteDeployment(ctx, body.aiModelMapId),
  });
}
