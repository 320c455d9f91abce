import type { FastifyInstance } from 'fastify';
import {
  CatalogueModelSchema,
  ModelIdQuerySchema,
  ModelLevelCheckSchema,
  ModelListSchema,
  VipPackageModelListSchema,
  VipPackageModelsQuerySchema,
  type ModelLevelCheck,
} from '../../shared/contracts/model.ts';
import { addRoute } from '../http/route.ts';
import { findModel, listModels } from '../services/catalogue/catalogue.ts';
import { modelsForPackage } from '../services/catalogue/plan-models.ts';

export function registerCatalogueRoutes(app: FastifyInstance): void {
  // The client calls the same list under both families.
  for (const url of ['/api/Chat/GetModelListAll', '/api/AiModel/GetModelListAll']) {
    addRoute(app, {
      method: 'GET',
      url,
      auth: 'optional',
      summary: "The catalogue ('auto' first); locked marks models above the caller's plan (visitors count as free).",
      data: ModelListSchema,
      handler: ({ ctx, user }) => listModels(ctx, user?.vipLevel ?? 0),
    });
  }

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
