import type { FastifyInstance } from 'fastify';
import {
  RevokeShareBodySchema,
  SharedChatSchema,
  ShareItemSchema,
  ShareListSchema,
  ShareQuerySchema,
  ShareSessionBodySchema,
} from '../../shared/contracts/share.ts';
import { addRoute } from '../http/route.ts';
import { createShare, listShares, readShare, revokeShare } from '../services/chat/shares.ts';

/** Share links: a public read-only snapshot of a chat, made, listed and revoked by its owner. */
export function registerShareRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/ShareSession',
    auth: 'user',
    summary: "Makes a public read-only link to a snapshot of one of the caller's chats (its finished exchanges); images only with includeImages.",
    body: ShareSessionBodySchema,
    data: ShareItemSchema,
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: ({ ctx, user, body }) => createShare(ctx.db, user.id, body),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetShareList',
    auth: 'user',
    summary: "The caller's live share links, newest first.",
    data: ShareListSchema,
    handler: ({ ctx, user }) => listShares(ctx.db, user.id),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/RevokeShare',
    auth: 'user',
    summary: 'Revokes one of the caller’s share links: it then answers 10404, as a link never made.',
    body: RevokeShareBodySchema,
    handler: async ({ ctx, user, body }) => {
      await revokeShare(ctx.db, user.id, body.shareId);
      return null;
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Share/GetShare',
    auth: 'public',
    summary: 'A shared chat for anyone with the link: title and exchanges, nothing about its owner; 10404 once revoked or deleted.',
    query: ShareQuerySchema,
    data: SharedChatSchema,
    rateLimit: { max: 120, timeWindow: 60_000 },
    handler: ({ ctx, query }) => readShare(ctx, query.shareId),
  });
}
