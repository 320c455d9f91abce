import { queryOptions } from '@tanstack/react-query';
import { SessionParamsSchema, type SaveSessionParamsBody, type SessionParams } from '../contracts/param-tools.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * A chat's model parameters (docs/api.md#model-parameters): what the chat stored, the bounds of its
 * model and what that model is sent. Kept by the server per chat, so every surface shows the same.
 */

export const paramToolsKey = ['paramTools'] as const;

/** One chat's parameters, checked against the bounds of the model the composer uses. */
export function sessionParamsQuery(chatSessionId: string, aiModelId: string) {
  return queryOptions({
    queryKey: [...paramToolsKey, chatSessionId, aiModelId] as const,
    queryFn: ({ signal }) => apiGet('/api/ParamTools/GetBySession', { chatSessionId, aiModelId }, { data: SessionParamsSchema, signal }),
  });
}

export function saveSessionParams(body: SaveSessionParamsBody): Promise<SessionParams> {
  return apiPost('/api/ParamTools/SaveBySession', body, { data: SessionParamsSchema });
}
