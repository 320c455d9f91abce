import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { PROMPT_PLUGIN_QUERY_KEY, promptPluginVersionPersisted } from '../atoms/user-config.ts';
import type { Language } from '../contracts/common.ts';
import {
  QuickFunctionExportSchema,
  QuickFunctionImportResultSchema,
  QuickFunctionTreeSchema,
  RecommendedPromptListSchema,
  UserQuickFunctionListSchema,
  UserQuickFunctionSchema,
  type QuickFunctionExport,
  type QuickFunctionNode,
  type SaveUserQuickFunctionBodySchema,
  type UserQuickFunction,
} from '../contracts/quick-function.ts';
import { loadPersisted, writePersisted } from '../storage/active.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * Quick functions (prompt tools) and the user's own prompts (shared/contracts/quick-function.ts).
 * Every list is cached under PROMPT_PLUGIN_QUERY_KEY, so a change announced with updatePromptPlugin
 * (components/app-shell/prompt-plugin-sync.ts) refetches it; every change made here is announced
 * (announcePromptPluginChange).
 */

/** The cache key of every quick-function list (under the prompt/plugin prefix). */
export const quickFunctionsKey = [...PROMPT_PLUGIN_QUERY_KEY, 'quick-functions'] as const;

/** The menu tree: built-ins in the caller's language, then the caller's own; online items only. */
export function getQuickFunctionTree(signal?: AbortSignal): Promise<QuickFunctionNode[]> {
  return apiGet('/api/QuickFunction/GetQuickFunctionListAll2', undefined, { data: QuickFunctionTreeSchema, signal });
}

/** The tree as the chat shows it, per login and language (the built-ins' texts follow the language). */
export function quickFunctionTreeQuery(loggedIn: boolean, language: Language) {
  return queryOptions({
    queryKey: [...quickFunctionsKey, 'tree', loggedIn, language] as const,
    queryFn: ({ signal }) => getQuickFunctionTree(signal),
    staleTime: 5 * 60_000,
  });
}

/** The caller's own, flat, hidden ones too (the /prompt_setting list). */
export function getUserQuickFunctions(signal?: AbortSignal): Promise<UserQuickFunction[]> {
  return apiGet('/api/QuickFunction/GetUserQuickFunctionList', undefined, { data: UserQuickFunctionListSchema, signal });
}

export function userQuickFunctionsQuery(token: string | null) {
  return queryOptions({
    queryKey: [...quickFunctionsKey, 'own', token] as const,
    queryFn: ({ signal }) => getUserQuickFunctions(signal),
    enabled: token !== null,
  });
}

/** The operator's recommended prompts in `language` (public); with `tagId`, only those carrying that tag. */
export function recommendedPromptsQuery(language: Language, tagId: string | null = null) {
  return queryOptions({
    queryKey: [...quickFunctionsKey, 'recommended', language, tagId] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/AiPrompWord/GetAiPrompWordByRecomment', { language, ...(tagId ? { tagId } : {}) }, { data: RecommendedPromptListSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

/**
 * Tells every surface that the user's prompts changed: bumps promptPluginVersion, which the
 * extension's pages watch (inside the extension this is its own storage; on the web the
 * prompt-plugin relay sends updatePromptPlugin to the extension).
 */
export async function announcePromptPluginChange(): Promise<void> {
  const version = await loadPersisted(promptPluginVersionPersisted);
  await writePersisted(promptPluginVersionPersisted, version + 1);
}

/** Runs a change, then announces it. */
async function changed<T>(call: Promise<T>): Promise<T> {
  const result = await call;
  await announcePromptPluginChange();
  return result;
}

/** What the save route takes (defaults left out). */
export type SaveUserQuickFunctionInput = z.input<typeof SaveUserQuickFunctionBodySchema>;

/** Creates (no userQuickFunctionId) or updates one of the caller's own. */
export function saveUserQuickFunction(body: SaveUserQuickFunctionInput): Promise<UserQuickFunction> {
  return changed(apiPost('/api/QuickFunction/SaveUserQuickFunction', body, { data: UserQuickFunctionSchema }));
}

/** Deletes one of the caller's own (a group's children move to the root). */
export function deleteUserQuickFunction(userQuickFunctionId: string): Promise<unknown> {
  return changed(apiPost('/api/QuickFunction/DeleteUserQuickFunction', { userQuickFunctionId }));
}

/** Shows or hides one in the lists (online). */
export function setUserQuickFunctionOnline(userQuickFunctionId: string, online: boolean): Promise<unknown> {
  return changed(apiPost('/api/QuickFunction/OnlineUserQuickFunction', { userQuickFunctionId, online }));
}

/** The caller's own in their new order. */
export function sortUserQuickFunctions(ids: string[]): Promise<unknown> {
  return changed(apiPost('/api/QuickFunction/SortUserQuickFunction', { ids }));
}

/** Moves one into a group (parentId) or to the root (null). */
export function groupUserQuickFunction(userQuickFunctionId: string, parentId: string | null): Promise<unknown> {
  return changed(apiPost('/api/QuickFunction/GroupUserQuickFunction', { userQuickFunctionId, parentId }));
}

/** The caller's own as the JSON file's content. */
export function exportUserQuickFunctions(): Promise<QuickFunctionExport> {
  return apiGet('/api/QuickFunction/ExportUserQuickFunction', undefined, { data: QuickFunctionExportSchema });
}

/** Adds the file's prompts to the caller's own (never replaces); answers how many were added. */
export async function importUserQuickFunctions(file: QuickFunctionExport): Promise<number> {
  return (await changed(apiPost('/api/QuickFunction/ImportUserQuickFunction', file, { data: QuickFunctionImportResultSchema }))).imported;
}
