import type { FastifyInstance } from 'fastify';
import { MessageSearchPageSchema, MessageSearchQuerySchema } from '../../shared/contracts/chat-search.ts';
import { addRoute } from '../http/route.ts';
import { searchMessages } from '../services/chat/search.ts';

/** Full-text search over the caller's chats (the search dialog's "in messages" results). */
export function registerChatSearchRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/SearchMessages',
    auth: 'user',
    summary:
      "The caller's messages whose question or answer contains q (any case, any script), newest first, each with a snippet and the match's place in it; total counts at most 100.",
    query: MessageSearchQuerySchema,
    data: MessageSearchPageSchema,
    handler: ({ ctx, user, query }) => searchMessages(ctx.db, user.id, query),
  });
}
