import type { FastifyInstance } from 'fastify';
import {
  ModelParamsQuerySchema,
  ParamBoundsSchema,
  SaveSessionParamsBodySchema,
  SessionParamsQuerySchema,
  SessionParamsSchema,
} from '../../shared/contracts/param-tools.ts';
import { addRoute } from '../http/route.ts';
import { boundsOfModel, getSessionParams, saveSessionParams } from '../services/params/param-tools.ts';

/** A chat's model parameters (docs/api.md#model-parameters): the model's bounds, and the chat's values within them. */
export function registerParamToolsRoutes(app: FastifyInstance): void {
  const base = '/api/ParamTools';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetByModelId`,
    auth: 'user',
    summary: "The bounds of a model's chat parameters (temperature, maximum answer length, system prompt): the operator's, or the defaults ('auto' too).",
    query: ModelParamsQuerySchema,
    data: ParamBoundsSchema,
    handler: ({ ctx, query }) => boundsOfModel(ctx, query.aiModelId),
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetBySession`,
    auth: 'user',
    summary:
      "The parameters one of the caller's chats stored, the bounds of `aiModelId` (the chat's model; absent: the defaults) and what that model is sent now (the values clamped to its bounds).",
    query: SessionParamsQuerySchema,
    data: SessionParamsSchema,
    handler: ({ ctx, user, query }) => getSessionParams(ctx, user.id, query.chatSessionId, query.aiModelId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SaveBySession`,
    auth: 'user',
    summary:
      "Sets the parameters of one of the caller's chats, checked against the bounds of `aiModelId` (10400 names the bound); null or absent values: the model's defaults.",
    body: SaveSessionParamsBodySchema,
    data: SessionParamsSchema,
    handler: ({ ctx, user, body }) => saveSessionParams(ctx, user.id, body),
  });
}
