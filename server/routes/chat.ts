import type { FastifyInstance } from 'fastify';
import {
  AddMessageBodySchema,
  ChatMessagePageSchema,
  ChatSessionPageSchema,
  DeleteMessageBodySchema,
  DeleteSessionsBodySchema,
  DeleteSessionsResultSchema,
  MessageListQuerySchema,
  SessionListQuerySchema,
  StopMessageBodySchema,
  UpdateSessionTitleBodySchema,
} from '../../shared/contracts/chat.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { UploadMediaBodySchema, UploadResponseSchema } from '../../shared/contracts/media.ts';
import { AppError } from '../http/errors.ts';
import { addRoute, RAW } from '../http/route.ts';
import { authenticateCached, bearerOf } from '../services/auth.ts';
import { deleteMessage, deleteSessions, listMessages, listSessions, renameSession } from '../services/chat-sessions.ts';
import { prepareChatMessage, startChatBackground, stopChatMessage, streamChatAnswer } from '../services/chat-stream.ts';
import { readWebPage } from '../services/media.ts';

export function registerChatRoutes(app: FastifyInstance): void {
  let stopBackground: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopBackground = startChatBackground(app.ctx);
  });
  // Before the server closes its connections, so running streams can store how they ended.
  app.addHook('preClose', async () => {
    await stopBackground?.();
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/AddMessage',
    auth: 'user',
    cachedAuth: true,
    summary: 'Sends a message and streams the answer (text/event-stream of {Code, Msg, Data} events, then `data: DONE`).',
    body: AddMessageBodySchema,
    handler: async ({ ctx, user, body, reply, lang, req }) => {
      const prepared = await prepareChatMessage(ctx, user, body).catch(async (err: unknown) => {
        // The login check may be a few seconds old: a plan bought since then must count at once.
        if (!(err instanceof AppError) || err.code !== Codes.PlanRequired) throw err;
        const policy = { ttlDays: ctx.config.TOKEN_TTL_DAYS, renewAfterSeconds: ctx.config.TOKEN_RENEW_AFTER_SECONDS };
        const fresh = await authenticateCached(ctx, bearerOf(req.headers.authorization)!, policy, true);
        if (!fresh || fresh.user.vipLevel === user.vipLevel) throw err;
        return prepareChatMessage(ctx, fresh.user, body);
      });
      await streamChatAnswer(ctx, reply, prepared, lang);
      return RAW;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/UploadMedia',
    auth: 'user',
    summary:
      'Reads the public web page at `url` on the server and keeps its readable content as an html media item for AddMessage (chatMediaIds).',
    body: UploadMediaBodySchema,
    data: UploadResponseSchema,
    // Each call makes the server fetch a page: bounded per address like the login calls.
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: ({ ctx, user, body }) => readWebPage(ctx, user.id, body.url),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/StopMessage',
    auth: 'user',
    summary: "Stops the answer of one of the caller's messages, in whichever instance it streams.",
    body: StopMessageBodySchema,
    handler: async ({ ctx, user, body }) => {
      await stopChatMessage(ctx, user.id, body.chatMessageId);
      return null;
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatSessionListBySelf',
    auth: 'user',
    summary: "The caller's sessions, most recently active first; sessionTitle filters by substring.",
    query: SessionListQuerySchema,
    data: ChatSessionPageSchema,
    handler: ({ ctx, user, query }) => listSessions(ctx.db, user.id, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatMessageListBySelfSessionId',
    auth: 'user',
    summary: "The messages of one of the caller's sessions, oldest first.",
    query: MessageListQuerySchema,
    data: ChatMessagePageSchema,
    handler: ({ ctx, user, query }) => listMessages(ctx.db, user.id, query),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/UpdateSessionTitle',
    auth: 'user',
    summary: 'Renames a session.',
    body: UpdateSessionTitleBodySchema,
    handler: async ({ ctx, user, body }) => {
      await renameSession(ctx.db, user.id, body.chatSessionId, body.sessionTitle);
      return null;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/DeleteSessions',
    auth: 'user',
    summary: "Deletes the listed sessions, or all of the caller's with isDelAll.",
    body: DeleteSessionsBodySchema,
    data: DeleteSessionsResultSchema,
    handler: ({ ctx, user, body }) => deleteSessions(ctx.db, user.id, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/DeleteMessage',
    auth: 'user',
    summary: 'Deletes one message of a session.',
    body: DeleteMessageBodySchema,
    handler: async ({ ctx, user, body }) => {
      await deleteMessage(ctx.db, user.id, body.chatMessageId);
      return null;
    },
  });
}
