import type { FastifyInstance } from 'fastify';
import {
  MemoryIdBodySchema,
  MemoryListSchema,
  MemorySchema,
  PersonalizationSchema,
  SaveMemoryBodySchema,
  SavePersonalizationBodySchema,
  SetMemoryEnabledBodySchema,
  SystemPromptPreviewSchema,
  UpdateMemoryBodySchema,
} from '../../shared/contracts/personalization.ts';
import { addRoute } from '../http/route.ts';
import {
  deleteAllMemories,
  deleteMemory,
  getPersonalization,
  listMemories,
  saveMemory,
  savePersonalization,
  systemPromptPreview,
  updateMemory,
} from '../services/personalization/personalization.ts';

/** The caller's personalization and memory (docs/api.md#personalization-and-memory): their own only. */
export function registerPersonalizationRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Personalization/Get',
    auth: 'user',
    summary: "The caller's personalization form, its switches and the onboarding's state",
    data: PersonalizationSchema,
    handler: ({ ctx, user }) => getPersonalization(ctx, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Personalization/Save',
    auth: 'user',
    summary: 'Changes the fields sent (each text at most 500 characters); the next message uses them',
    body: SavePersonalizationBodySchema,
    data: PersonalizationSchema,
    handler: ({ ctx, user, body }) => savePersonalization(ctx, user.id, body),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Personalization/GetSystemPrompt',
    auth: 'user',
    summary: "Exactly the text added to the system prompt of the caller's next message ('' when nothing is)",
    data: SystemPromptPreviewSchema,
    handler: ({ ctx, user }) => systemPromptPreview(ctx, user.id),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Memory/GetList',
    auth: 'user',
    summary: "The caller's remembered facts, newest first",
    data: MemoryListSchema,
    handler: ({ ctx, user }) => listMemories(ctx, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Memory/Save',
    auth: 'user',
    summary: 'Remembers a fact (typed, or proposed by an answer: sourceMessageId); the same fact again answers the one kept',
    body: SaveMemoryBodySchema,
    data: MemorySchema,
    handler: ({ ctx, user, body }) => saveMemory(ctx, user.id, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Memory/Update',
    auth: 'user',
    summary: 'Changes the text of a remembered fact',
    body: UpdateMemoryBodySchema,
    data: MemorySchema,
    handler: ({ ctx, user, body }) => updateMemory(ctx, user.id, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Memory/Delete',
    auth: 'user',
    summary: 'Forgets one remembered fact',
    body: MemoryIdBodySchema,
    handler: async ({ ctx, user, body }) => deleteMemory(ctx, user.id, body.memoryId),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Memory/DeleteAll',
    auth: 'user',
    summary: "Forgets all the caller's remembered facts",
    handler: async ({ ctx, user }) => deleteAllMemories(ctx, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Memory/SetEnabled',
    auth: 'user',
    summary: 'Switches memory on or off: off, no fact is added to messages and none is proposed (the list is kept)',
    body: SetMemoryEnabledBodySchema,
    data: PersonalizationSchema,
    handler: ({ ctx, user, body }) => savePersonalization(ctx, user.id, { memoryEnabled: body.enabled }),
  });
}
