import { queryOptions } from '@tanstack/react-query';
import type { Language } from '../contracts/common.ts';
import { PromptTagListSchema } from '../contracts/prompt-tag.ts';
import { quickFunctionsKey } from './quick-functions.ts';
import { apiGet } from './request.ts';

/** Prompt tags (shared/contracts/prompt-tag.ts): the operators' labels the prompt library is browsed by. */

/** Every tag named in `language`, in order, with how many online recommended prompts of it carry each (public). */
export function promptTagsQuery(language: Language) {
  return queryOptions({
    queryKey: [...quickFunctionsKey, 'tags', language] as const,
    queryFn: ({ signal }) => apiGet('/api/TagPrompt/GetTagPromptList', { language }, { data: PromptTagListSchema, signal }),
    staleTime: 5 * 60_000,
  });
}
