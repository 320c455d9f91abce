import { queryOptions } from '@tanstack/react-query';
import {
  MemoryListSchema,
  MemorySchema,
  PersonalizationSchema,
  SystemPromptPreviewSchema,
  type Memory,
  type MemoryList,
  type Personalization,
  type SavePersonalizationBody,
  type SystemPromptPreview,
} from '../contracts/personalization.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * Personalization and memory (docs/api.md#personalization-and-memory): the profile the assistant is
 * told, the onboarding's state, the remembered facts and exactly what the server adds to messages.
 */

export function getPersonalization(signal?: AbortSignal): Promise<Personalization> {
  return apiGet('/api/Personalization/Get', undefined, { data: PersonalizationSchema, signal });
}

export function savePersonalization(body: SavePersonalizationBody): Promise<Personalization> {
  return apiPost('/api/Personalization/Save', body, { data: PersonalizationSchema });
}

export function getSystemPromptPreview(signal?: AbortSignal): Promise<SystemPromptPreview> {
  return apiGet('/api/Personalization/GetSystemPrompt', undefined, { data: SystemPromptPreviewSchema, signal });
}

export function getMemoryList(signal?: AbortSignal): Promise<MemoryList> {
  return apiGet('/api/Memory/GetList', undefined, { data: MemoryListSchema, signal });
}

export function saveMemory(fact: string, sourceMessageId?: string): Promise<Memory> {
  return apiPost('/api/Memory/Save', { fact, ...(sourceMessageId ? { sourceMessageId } : {}) }, { data: MemorySchema });
}

export function updateMemory(memoryId: string, fact: string): Promise<Memory> {
  return apiPost('/api/Memory/Update', { memoryId, fact }, { data: MemorySchema });
}

export async function deleteMemory(memoryId: string): Promise<void> {
  await apiPost('/api/Memory/Delete', { memoryId });
}

export async function deleteAllMemories(): Promise<void> {
  await apiPost('/api/Memory/DeleteAll', {});
}

export function setMemoryEnabled(enabled: boolean): Promise<Personalization> {
  return apiPost('/api/Memory/SetEnabled', { enabled }, { data: PersonalizationSchema });
}

/** Query-cache entries, keyed by the login's token (another account's are never shown). */
export const personalizationKey = ['personalization'] as const;

export function personalizationQuery(token: string | null) {
  return queryOptions({
    queryKey: [...personalizationKey, 'form', token] as const,
    queryFn: ({ signal }) => getPersonalization(signal),
    enabled: token !== null,
  });
}

export function systemPromptQuery(token: string | null) {
  return queryOptions({
    queryKey: [...personalizationKey, 'prompt', token] as const,
    queryFn: ({ signal }) => getSystemPromptPreview(signal),
    enabled: token !== null,
  });
}

export function memoryListQuery(token: string | null) {
  return queryOptions({
    queryKey: [...personalizationKey, 'memories', token] as const,
    queryFn: ({ signal }) => getMemoryList(signal),
    enabled: token !== null,
  });
}
