import type { FastifyInstance } from 'fastify';
import { pagedSchema } from '../../../shared/contracts/common.ts';
import {
  AdminModelTypeIdBodySchema,
  AdminModelTypeIdQuerySchema,
  AdminModelTypeListSchema,
  AdminModelTypeSchema,
  AdminSaveModelTypeBodySchema,
} from '../../../shared/contracts/model-type.ts';
import {
  AdminDeploymentSchema,
  AllDeploymentsQuerySchema,
  AllDeploymentsSchema,
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
  adminListAllDeployments,
  adminListDeployments,
  adminListModels,
  adminSaveDeployment,
  adminSaveModel,
  adminSetOnline,
  deploymentAuditState,
} from '../../services/catalogue/catalogue-admin.ts';
import { listProviderModels, sortModels, syncModelMap, testDeployment } from '../../services/catalogue/catalogue-admin-tools.ts';
import {
  adminDeleteModelType,
  adminGetModelType,
  adminListModelTypes,
  adminSaveModelType,
  modelTypeAuditState,
} from '../../services/catalogue/model-types.ts';

/** The catalogue for operators: changes apply on every instance without a restart. */
export function registerAdminCatalogueRoutes(app: FastifyInstance): void {
  const base = '/api/admin/AiModel';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'All models, offline ones included, each with its types; keyword filters by id or name, aiModelTypeId by type.',
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
  registerAdminModelTypeRoutes(app);

  const maps = '/api/admin/AiModelMap';
  addRoute(app, {
    method: 'GET',
    url: `${maps}/GetAiModelListAll`,
    auth: 'admin',
    summary:
      'Every deployment across models (model, provider account, upstream model id, priority, health), filtered by aiModelId, provider and baseUrl ("" the provider\'s default) and keyword; with the provider accounts in use. Keys appear only as hasApiKey and a masked hint.',
    query: AllDeploymentsQuerySchema,
    data: AllDeploymentsSchema,
    handler: ({ ctx, query }) => adminListAllDeployments(ctx, query),
  });
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

/** Model types (docs/api.md#model-types): what each model is for; chat, vision and image are built in. */
function registerAdminModelTypeRoutes(app: FastifyInstance): void {
  const base = '/api/admin/AiModelType';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'Every model type with both names, in order, hidden ones included, with how many models have it.',
    data: AdminModelTypeListSchema,
    handler: ({ ctx }) => adminListModelTypes(ctx),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetById`,
    auth: 'admin',
    summary: 'One model type.',
    query: AdminModelTypeIdQuerySchema,
    data: AdminModelTypeSchema,
    handler: ({ ctx, query }) => adminGetModelType(ctx, query.aiModelTypeId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'aiModelType', id: savedId('aiModelTypeId'), load: modelTypeAuditState },
    summary:
      'Creates a model type (an unused aiModelTypeId, or none: one from nameEn; 10409 when that id is taken) or updates the one named: both names (at most 30 characters), sort, enabled (shown to users).',
    body: AdminSaveModelTypeBodySchema,
    data: AdminModelTypeSchema,
    handler: ({ ctx, body }) => adminSaveModelType(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'aiModelType', id: ({ body }) => body.aiModelTypeId, load: modelTypeAuditState },
    summary: 'Deletes a model type no model has (10409 modelTypeInUse otherwise); chat, vision and image are built in and cannot be deleted (10409).',
    body: AdminModelTypeIdBodySchema,
    handler: ({ ctx, body }) => adminDeleteModelType(ctx, body.aiModelTypeId),
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
