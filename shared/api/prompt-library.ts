import { queryOptions } from '@tanstack/react-query';
import type { Language } from '../contracts/common.ts';
import {
  LibraryPromptPageSchema,
  PromptSubmissionListSchema,
  PromptSubmissionSchema,
  UsePromptResultSchema,
  type PromptListQuery,
  type PromptSubmission,
  type SubmitPromptBody,
  type UsePromptResult,
} from '../contracts/prompt-library.ts';
import { UserQuickFunctionSchema, type UserQuickFunction } from '../contracts/quick-function.ts';
import { announcePromptPluginChange, quickFunctionsKey } from './quick-functions.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * The prompt library and sharing one's own prompts to it (shared/contracts/prompt-library.ts). Cached
 * under the quick-function key, so a change to the user's prompts (or one announced by another
 * surface) reads the library and the user's submissions again.
 */

export const promptLibraryKey = [...quickFunctionsKey, 'library'] as const;

export type LibraryFilter = Pick<PromptListQuery, 'source' | 'sort'> & { language: Language; tagId: string | null; q: string; count: number };

/** A page of the library (public): `count` prompts from the first. */
export function libraryPromptsQuery(filter: LibraryFilter) {
  const { language, tagId, q, source, sort, count } = filter;
  return queryOptions({
    queryKey: [...promptLibraryKey, 'list', language, tagId, q, source, sort, count] as const,
    queryFn: ({ signal }) =>
      apiGet(
        '/api/Prompt/GetPromptList',
        { language, source, sort, page: 1, count, ...(tagId ? { tagId } : {}), ...(q ? { q } : {}) },
        { data: LibraryPromptPageSchema, signal },
      ),
    staleTime: 60_000,
  });
}

/** Counts a use of a library prompt (once a day per user; the server says whether this one counted). */
export function countPromptUse(promptId: string): Promise<UsePromptResult> {
  return apiPost('/api/Prompt/UsePrompt', { promptId }, { data: UsePromptResultSchema });
}

/** Copies a library prompt into the caller's own prompts, and announces the change. */
export async function copyPromptToMine(promptId: string): Promise<UserQuickFunction> {
  const saved = await apiPost('/api/Prompt/CopyToMine', { promptId }, { data: UserQuickFunctionSchema });
  await announcePromptPluginChange();
  return saved;
}

/** The caller's shared prompts with their review states. */
export function mySubmissionsQuery(token: string | null) {
  return queryOptions({
    queryKey: [...promptLibraryKey, 'mine', token] as const,
    queryFn: ({ signal }) => apiGet('/api/UserPrompt/GetMySubmissions', undefined, { data: PromptSubmissionListSchema, signal }),
    enabled: token !== null,
  });
}

/** Shares one of the caller's own prompts (or shares it again after an edit): pending review. */
export function submitPrompt(body: SubmitPromptBody): Promise<PromptSubmission> {
  return apiPost('/api/UserPrompt/Submit', body, { data: PromptSubmissionSchema });
}

/** Takes a shared prompt back out of the library (or out of review). */
export function withdrawSubmission(promptSubmissionId: string): Promise<unknown> {
  return apiPost('/api/UserPrompt/Withdraw', { promptSubmissionId });
}
