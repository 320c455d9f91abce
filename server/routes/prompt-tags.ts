import type { FastifyInstance } from 'fastify';
import { PromptTagListQuerySchema, PromptTagListSchema } from '../../shared/contracts/prompt-tag.ts';
import { addRoute } from '../http/route.ts';
import { listPromptTags } from '../services/prompts/prompt-tags.ts';

/** Prompt tags as users browse the prompt library by them (docs/api.md#prompt-tags). */
export function registerPromptTagRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/TagPrompt/GetTagPromptList',
    auth: 'public',
    summary:
      "Every prompt tag, named in `language` (default: the caller's accept-language), in the operators' order, with how many online recommended prompts of that language carry it.",
    query: PromptTagListQuerySchema,
    data: PromptTagListSchema,
    handler: ({ ctx, query, lang }) => listPromptTags(ctx, query.language ?? lang),
  });
}
