import type { FastifyInstance } from 'fastify';
import {
  CatalogueModelSchema,
  ModelIdQuerySchema,
  ModelLevelCheckSchema,
  ModelListQuerySchema,
  ModelListSchema,
  VipPackageModelListSchema,
  VipPackageModelsQuerySchema,
  type ModelLevelCheck,
} from '../../shared/contracts/model.ts';
import { addRoute } from '../http/route.ts';
import { ModelTypeListQuerySchema, ModelTypeListSchema } from '../../shared/contracts/model-type.ts';
import { findModel, listModels } from '../services/catalogue/catalogue.ts';
import { listModelTypes } from '../services/catalogue/model-types.ts';
import { modelsForPackage } from '../services/catalogue/plan-models.ts';

export function registerCatalogueRoutes(app: FastifyInstance): void {
  // The client calls the same list under both families.
  for (const url of ['/api/Chat/GetModelListAll', '/api/AiModel/GetModelListAll']) {
    addRoute(app, {
      method: 'GET',
      url,
      auth: 'optional',
      summary:
        "The catalogue ('auto' first), each model with its types; locked marks models above the caller's plan (visitors count as free). aiModelTypeId keeps only the models of that type ('auto' is a chat model).",
      query: ModelListQuerySchema,
      data: ModelListSchema,
      handler: ({ ctx, user, query }) => listModels(ctx, user?.vipLevel ?? 0, query.aiModelTypeId),
    });
  }

  addRoute(app, {
    method: 'GET',
    url: '/api/AiModelType/GetAiModelTypeAll',
    auth: 'optional',
    summary: "The model types shown to users (chat, vision, image generation, ...), named in `language` (default: the caller's accept-language), in order.",
    query: ModelTypeListQuerySchema,
    data: ModelTypeListSchema,
    handler: ({ ctx, query, lang }) => listModelTypes(ctx, query.language ?? lang),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/AiModel/GetAiModelById',
    auth: 'optional',
    summary: 'One model of the catalogue.',
    query: ModelIdQuerySchema,
    data: CatalogueModelSchema,
    handler: ({ ctx, query }) => findModel(ctx, query.aiModelId),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/AiModel/GetModelListByVipPackageId',
    auth: 'optional',
    summary:
      "What a plan unlocks: the catalogue's models (in its order, 'auto' not among them) whose minVipLevel the package's level reaches; 'free' is the free plan. A package not on sale answers 10404 like an unknown one, except to operators",
    query: VipPackageModelsQuerySchema,
    data: VipPackageModelListSchema,
    handler: ({ ctx, query, user }) => modelsForPackage(ctx, query.vipPackageId, user?.role === 'admin'),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/CheckModelLevelMax',
    auth: 'user',
    summary: "Whether the caller's plan allows a model.",
    query: ModelIdQuerySchema,
    data: ModelLevelCheckSchema,
    handler: async ({ ctx, query, user }): Promise<ModelLevelCheck> => {
      const model = await findModel(ctx, query.aiModelId);
      return {
        allowed: model.minVipLevel <= user.vipLevel,
        minVipLevel: model.minVipLevel,
        minVipLevelName: model.minVipLevelName,
        userVipLevel: user.vipLevel,
      };
    },
  });
}
