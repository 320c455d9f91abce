import type { FastifyInstance } from 'fastify';
import { AdminPromptTagIdBodySchema, AdminPromptTagListSchema, AdminPromptTagSchema, AdminSavePromptTagBodySchema } from '../../../shared/contracts/prompt-tag.ts';
import { addRoute, savedId } from '../../http/route.ts';
import { adminDeletePromptTag, adminGetPromptTag, adminListPromptTags, adminSavePromptTag } from '../../services/prompts/prompt-tags.ts';

/** Operators manage the prompt tags (docs/api.md#prompt-tags); a recommended prompt's tags are set by AiPrompWord/Save. */
export function registerAdminPromptTagRoutes(app: FastifyInstance): void {
  const base = '/api/admin/TagPrompt';
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: 'Every prompt tag with both names, in order, with how many recommended prompts and users\' own prompts carry it.',
    data: AdminPromptTagListSchema,
    handler: ({ ctx }) => adminListPromptTags(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'promptTag', id: savedId('tagPromptId'), load: adminGetPromptTag },
    summary:
      'Creates a prompt tag (no tagPromptId) or updates one. Both names are required (trimmed, at most 30 characters) and each must be unused in its language, whatever the case (10409 otherwise).',
    body: AdminSavePromptTagBodySchema,
    data: AdminPromptTagSchema,
    handler: ({ ctx, body }) => adminSavePromptTag(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Delete`,
    auth: 'admin',
    audit: { target: 'promptTag', id: ({ body }) => body.tagPromptId, load: adminGetPromptTag },
    summary: 'Deletes a prompt tag: every prompt carrying it loses it; no prompt is deleted.',
    body: AdminPromptTagIdBodySchema,
    handler: ({ ctx, body }) => adminDeletePromptTag(ctx, body.tagPromptId),
  });
}
