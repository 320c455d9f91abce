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
  SortModelsSchema,
  SyncModelMapResultSchema,
  SyncModelMapSchema,
  TestDeploymentResultSchema,
  TestDeploymentSchema,
  UpstreamModelListResultSchema,
  UpstreamModelListSchema,
} from '../../../shared/contracts/model.ts';
import { addRoute, savedId } from '../../http/route.ts';
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
  deploymentAuditState,
} from '../../services/catalogue/catalogue-admin.ts';
import { listProviderModels, sortModels, syncModelMap, testDeployment } from '../../services/catalogue/catalogue-admin-tools.ts';

/** The catalogue for operators: changes apply on every instance without a restart. */
export function registerAdminCatalogueRoutes(app: FastifyInstance): void {
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
    audit: { target: 'aiModel', id: savedId('aiModelId'), load: adminGetModel },
    summary: 'Creates a model (id from aiModelId or the name) or updates the one named by aiModelId.',
    body: SaveModelSchema,
    data: AdminModelSchema,
    handler: ({ ctx, body }) => adminSaveModel(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'aiModel', id: ({ body }) => body.aiModelId, load: adminGetModel },
    summary: 'Deletes a model and its deployments; chat history keeps its name.',
    body: ModelIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteModel(ctx, body.aiModelId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Online`,
    auth: 'admin',
    audit: { target: 'aiModel', id: ({ body }) => body.aiModelId, load: adminGetModel },
    summary: 'Puts a model online or takes it offline.',
    body: ModelOnlineSchema,
    data: AdminModelSchema,
    handler: ({ ctx, body }) => adminSetOnline(ctx, body.aiModelId, body.online),
  });

  registerAdminModelToolRoutes(app, base);

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
    audit: { target: 'aiModelMap', id: savedId('aiModelMapId'), load: deploymentAuditState },
    summary: 'Creates or updates a deployment. apiKey is write-only: omit it to keep the stored key, send "" to remove it.',
    body: SaveDeploymentSchema,
    data: AdminDeploymentSchema,
    handler: ({ ctx, body }) => adminSaveDeployment(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${maps}/Delete`,
    auth: 'admin',
    audit: { target: 'aiModelMap', id: ({ body }) => body.aiModelMapId, load: deploymentAuditState },
    summary: 'Deletes a deployment.',
    body: DeploymentIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteDeployment(ctx, body.aiModelMapId),
  });
}

/** Ordering, import from a provider's model list, and a deployment's test call (services/catalogue/catalogue-admin-tools.ts). */
function registerAdminModelToolRoutes(app: FastifyInstance, base: string): void {
  const maps = '/api/admin/AiModelMap';
  addRoute(app, {
    method: 'POST',
    url: `${base}/Sort`,
    auth: 'admin',
    audit: { target: 'aiModel', id: () => undefined },
    summary: 'Orders the catalogue: ids first to last (sort 10, 20, ...); models not named follow in their current order.',
    body: SortModelsSchema,
    handler: async ({ ctx, body }) => {
      await sortModels(ctx, body.ids);
      return null;
    },
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SyncModelMap`,
    auth: 'admin',
    audit: { target: 'aiModel', id: () => undefined },
    summary:
      "Imports models from a provider's list: a catalogue model and a deployment per chosen upstream id; ones this provider and base URL already serve are skipped. The key is stored encrypted and never answered.",
    body: SyncModelMapSchema,
    data: SyncModelMapResultSchema,
    handler: ({ ctx, body }) => syncModelMap(ctx, body),
  });

  addRoute(app, {
    method: 'POST',
    url: `${maps}/Test`,
    auth: 'admin',
    audit: { target: 'aiModelMap', id: ({ body }) => body.aiModelMapId },
    summary:
      'Sends one short prompt to a deployment (saved, or unsaved settings) and answers the first tokens, the time to the first one, or the error. Nobody is charged; nothing is stored.',
    body: TestDeploymentSchema,
    data: TestDeploymentResultSchema,
    handler: ({ ctx, body }) => testDeployment(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${maps}/OpenAiModel`,
    auth: 'admin',
    audit: { target: 'aiModelMap', id: ({ body }) => body.aiModelMapId },
    summary: "Lists a provider account's models (OpenAI-style /models, Ollama /api/tags), each marked when already imported. A POST: the key travels in the body, never in a URL.",
    body: UpstreamModelListSchema,
    data: UpstreamModelListResultSchema,
    handler: ({ ctx, body }) => listProviderModels(ctx, body),
  });
}
