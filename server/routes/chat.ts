import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AddMessageBodySchema,
  ResponsesFileSchema,
  ResponsesUploadFieldsSchema,
  SendResponsesBodySchema,
  ChatMessagePageSchema,
  ChatSessionItemSchema,
  ChatSessionPageSchema,
  DeleteMessageBodySchema,
  DeleteSessionsBodySchema,
  DeleteSessionsResultSchema,
  MessageListQuerySchema,
  PinSessionBodySchema,
  ResumeMessageQuerySchema,
  SessionListQuerySchema,
  SessionQuerySchema,
  StopMessageBodySchema,
  SwitchVersionBodySchema,
  SwitchVersionResultSchema,
  UpdateSessionTitleBodySchema,
} from '../../shared/contracts/chat.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import {
  MEDIA_LIMITS,
  MediaFileQuerySchema,
  MediaFormFieldsSchema,
  UploadMediaBodySchema,
  UploadResponseSchema,
} from '../../shared/contracts/media.ts';
import { AddDrawRequestSchema, AddDrawResultSchema } from '../../shared/contracts/plugin.ts';
import { BytesSchema, ChatStreamEventSchema, FailureEnvelopeSchema } from '../../shared/contracts/responses.ts';
import { t } from '../core/i18n.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { deferredEventStream } from '../http/event-stream.ts';
import { addRoute, parseInput, RAW } from '../http/route.ts';
import { readUploadForm } from '../http/upload-form.ts';
import { bearerOf } from '../services/accounts/auth.ts';
import { deleteMessage, deleteSessions, getSession, listMessages, listSessions, pinSession, renameSession, switchVersion } from '../services/chat/sessions.ts';
import { prepareToSend } from '../services/chat/send.ts';
import { prepareResponsesSend, uploadResponsesFile } from '../services/chat/responses.ts';
import { resumeChatAnswer, startResumeBackground } from '../services/chat/resume.ts';
import { refuseWhileDraining, startChatBackground, stopChatMessage } from '../services/chat/running.ts';
import { streamChatAnswer } from '../services/chat/stream.ts';
import { addDraw, withFreshImageLinks } from '../services/plugins/draw.ts';
import { forgetDetachedMedia, startMediaSweep } from '../services/media/cleanup.ts';
import { readMediaFile, signedMediaPath } from '../services/media/links.ts';
import { readWebPage, saveUploadedMedia, type UploadPurpose } from '../services/media/upload.ts';

/** A header parameter value in RFC 5987 form (filename*=UTF-8''...). */

/** The chat API: messages and their streams, the media they carry, and the history. */
export function registerChatRoutes(app: FastifyInstance): void {
  registerChatBackground(app);
  registerMessageRoutes(app);
  registerMediaRoutes(app);
  registerHistoryRoutes(app);
}

/** What runs beside the routes: stops from other instances, the sweep of unsent files. */
function registerChatBackground(app: FastifyInstance): void {
  let stopBackground: (() => Promise<void>) | undefined;

  let stopMediaSweep: (() => void) | undefined;
  let stopResume: (() => void) | undefined;

  app.addHook('onReady', async () => {
    stopBackground = startChatBackground(app.ctx);
    stopMediaSweep = startMediaSweep(app.ctx);
    stopResume = startResumeBackground(app.ctx);
  });

  // Before the server closes its connections, so running streams can store how they ended (and
  // readers here of answers that run here get their end); readers of answers running elsewhere are
  // then let go, to resume on another instance.
  app.addHook('preClose', async () => {
    stopMediaSweep?.();
    await stopBackground?.();
    stopResume?.();
  });
}

/** Sending a message (and its stream), stopping it, drawing an image. */
function registerMessageRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/AddMessage',
    auth: 'user',
    cachedAuth: true,
    summary: 'Sends a message and streams the answer (text/event-stream of {Code, Msg, Data} events, then `data: DONE`).',
    body: AddMessageBodySchema,
    raw: {
      description:
        'The answer as it streams: text/event-stream, one `data: {Code, Msg, Data}` event per line, the last with its FinishReason, then the line `data: DONE`. What is refused before the message is stored (input, login, plan, points) is not a stream.',
      content: { 'text/event-stream': ChatStreamEventSchema },
    },
    handler: async ({ ctx, user, body, reply, lang, req }) => {
      refuseWhileDraining(ctx);
      const prepared = await prepareToSend(ctx, user, bearerOf(req.headers.authorization)!, body, lang);
      // Asks the upstream and runs the statement that charges and stores the message side by side; a
      // refusal of the statement rejects here, before anything was streamed (an ordinary envelope).
      // Its Server-Timing header says what the server spent before calling the model (prepare), the
      // statement's time (store) and how long the first answer text waited for it (wait): shown by
      // browser devtools, read by bench/proxy-overhead.
      await streamChatAnswer(ctx, deferredEventStream(reply), prepared, lang, { id: req.id, log: req.log, prepareMs: reply.elapsedTime });
      return RAW;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/SendResponses',
    auth: 'user',
    cachedAuth: true,
    summary:
      "AddMessage through OpenAI's Responses API: the same body plus responsesFileIds (ResponsesUpload ids, the caller's own), the same stream, stored the same way. The model needs a deployment whose protocol is responses (10400 otherwise).",
    body: SendResponsesBodySchema,
    raw: {
      description:
        "The answer as it streams, in AddMessage's format (text/event-stream of {Code, Msg, Data} events, then `data: DONE`). Refusals before the message is stored (input, a file id that is not the caller's: 10404, a model without a Responses deployment: 10400, login, plan, points) are not a stream.",
      content: { 'text/event-stream': ChatStreamEventSchema },
    },
    handler: async ({ ctx, user, body, reply, lang, req }) => {
      refuseWhileDraining(ctx);
      const prepared = await prepareResponsesSend(ctx, user, bearerOf(req.headers.authorization)!, body, lang);
      await streamChatAnswer(ctx, deferredEventStream(reply), prepared, lang, { id: req.id, log: req.log, prepareMs: reply.elapsedTime });
      return RAW;
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/ResumeMessage',
    auth: 'user',
    summary:
      "Follows the answer of one of the caller's messages from `offset` (UTF-16 code units of OutputMessage the client has) to its end, wherever it runs: the same stream as AddMessage's.",
    query: ResumeMessageQuerySchema,
    raw: {
      description:
        'text/event-stream in the AddMessage format: a first event with the text from `offset` (and the sources and tool calls so far), then each new piece, the last event with its FinishReason, then `data: DONE`. An answer that has ended is sent whole at once. Another user\'s message is 10404; an offset past the text is 10400.',
      content: { 'text/event-stream': ChatStreamEventSchema },
    },
    handler: async ({ ctx, user, query, reply, lang }) => {
      await resumeChatAnswer(ctx, deferredEventStream(reply), user.id, query, lang);
      return RAW;
    },
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
    method: 'POST',
    url: '/api/Chat/AddDraw',
    auth: 'user',
    summary:
      "Draws an image from `prompt` and keeps it as the caller's media item: with aiModelId, through that image-generation model (its pointsCost; 10463 for a model that is not one), else through the configured images endpoint (the generate_image plugin's points).",
    body: AddDrawRequestSchema,
    data: AddDrawResultSchema,
    // Each call costs the operator an image: bounded per address.
    rateLimit: { max: 10, timeWindow: 60_000 },
    handler: ({ ctx, user, body }) => addDraw(ctx, user, body),
  });
}

/** What a message carries: pages read by address, uploads, and the stored bytes. */
function registerMediaRoutes(app: FastifyInstance): void {
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

  const uploadRoute = (url: string, purpose: UploadPurpose, maxBytes: number, summary: string) =>
    addRoute(app, {
      method: 'POST',
      url,
      auth: 'user',
      summary: `${summary} multipart/form-data: mediaType (image, file or html), pageTitle, pageUrl, optional aiModelId, and the file as imageFile or pageFile; at most ${maxBytes / 1024 / 1024} MB. See docs/api.md.`,
      data: UploadResponseSchema,
      // Each call reads and keeps up to a few megabytes: bounded per address.
      rateLimit: { max: 60, timeWindow: 60_000 },
      handler: async ({ ctx, user, req, reply, lang }) => {
        const form = await readUploadForm(req, reply, maxBytes);
        const fields = parseInput(MediaFormFieldsSchema, form.fields, lang);
        return saveUploadedMedia(ctx, user.id, fields, form.file, purpose);
      },
    });

  uploadRoute('/api/Chat/AddChatMedia', 'chat', MEDIA_LIMITS.chat.maxBytes, 'Attaches an image, a document or a page read by the extension to the chat.');

  uploadRoute('/api/Chat/UploadMediaByFile', 'chat', MEDIA_LIMITS.chat.maxBytes, 'Same as AddChatMedia.');

  uploadRoute('/api/Chat/AddChatFileToAi', 'ai', MEDIA_LIMITS.generic.maxBytes, 'The generic uploader: one file for the model.');

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/ResponsesUpload',
    auth: 'user',
    summary: `Uploads one file for SendResponses to a Responses deployment of aiModelId (its /files, purpose user_data). multipart/form-data: aiModelId and the file (any field name); at most ${MEDIA_LIMITS.generic.maxBytes / 1024 / 1024} MB. Answers our id for it, usable only by the caller.`,
    data: ResponsesFileSchema,
    // Each call sends a file on to the provider: bounded per address.
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: async ({ ctx, user, req, reply, lang }) => {
      const form = await readUploadForm(req, reply, MEDIA_LIMITS.generic.maxBytes);
      const fields = parseInput(ResponsesUploadFieldsSchema, form.fields, lang);
      return uploadResponsesFile(ctx, user.id, fields.aiModelId, form.file);
    },
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatMedia',
    auth: 'optional',
    summary:
      "The stored bytes of an image or file: to its owner (bearer token) or with the signed link (exp, sig) the server handed out (imgSrcAll, pageFilePath). Anyone else gets HTTP 404 with Code 10404.",
    query: MediaFileQuerySchema,
    raw: {
      description:
        'The stored bytes with their sniffed type: images inline, any other file as a download (Content-Disposition: attachment).',
      content: {
        'image/png': BytesSchema,
        'image/jpeg': BytesSchema,
        'image/webp': BytesSchema,
        // A stored .json file is served with its own type, so application/json is either.
        'application/json': z.union([FailureEnvelopeSchema, z.unknown().describe('A stored JSON file, as a download (Content-Disposition: attachment).')]),
        '*/*': BytesSchema.describe('Any other stored file (PDF, Word, text, ...), as a download.'),
      },
      notFoundStatus: true,
    },
    handler: async ({ ctx, user, query, reply, lang }) => {
      const found = await readMediaFile(ctx, user?.id ?? null, query);
      if (!found) {
        reply.code(404).send({ Code: Codes.NotFound, Msg: t(lang, 'notFound'), Data: null });
        return RAW;
      }
      reply
        .header('content-type', found.mimeType)
        .header('x-content-type-options', 'nosniff')
        // Only images show in the page; anything else is a download, never a document of this origin.
        .header('content-disposition', contentDisposition(found.isImage ? 'inline' : 'attachment', found.fileName))
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600');
      reply.send(found.bytes);
      return RAW;
    },
  });
}

/** The chat history: sessions and their messages, renamed and deleted. */
function registerHistoryRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatSessionListBySelf',
    auth: 'user',
    summary: "The caller's sessions: the pinned ones first (most recently pinned first), then the others, most recently active first; sessionTitle filters by substring.",
    query: SessionListQuerySchema,
    data: ChatSessionPageSchema,
    handler: ({ ctx, user, query }) => listSessions(ctx.db, user.id, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatSession',
    auth: 'user',
    summary: "One of the caller's sessions: its title, snippet, creation time and whether an answer is being written.",
    query: SessionQuerySchema,
    data: ChatSessionItemSchema,
    handler: ({ ctx, user, query }) => getSession(ctx.db, user.id, query.chatSessionId),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/Chat/GetChatMessageListBySelfSessionId',
    auth: 'user',
    summary: "The messages of one of the caller's sessions: the branch it shows (answer versions), oldest first or newest first (order=desc).",
    query: MessageListQuerySchema,
    data: ChatMessagePageSchema,
    handler: async ({ ctx, user, query }) =>
      withFreshImageLinks(ctx, await listMessages(ctx.db, user.id, query, (id) => signedMediaPath(ctx, id))),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/SwitchVersion',
    auth: 'user',
    summary:
      "Shows another version of a turn (or the branch of a search hit): the chat then shows the branch through one of the caller's exchanges, and the answer lists it from that exchange down to its end, oldest first. See docs/api.md#answer-versions.",
    body: SwitchVersionBodySchema,
    data: SwitchVersionResultSchema,
    handler: async ({ ctx, user, body }) =>
      withFreshImageLinks(ctx, await switchVersion(ctx.db, user.id, body, (id) => signedMediaPath(ctx, id))),
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
    url: '/api/Chat/PinSession',
    auth: 'user',
    summary: 'Pins a session to the top of the history (pinned: true), most recently pinned first, or unpins it.',
    body: PinSessionBodySchema,
    handler: async ({ ctx, user, body }) => {
      await pinSession(ctx.db, user.id, body.chatSessionId, body.pinned);
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
    handler: async ({ ctx, user, body }) => {
      const { deleted, mediaIds } = await deleteSessions(ctx.db, user.id, body);
      await forgetDetachedMedia(ctx, user.id, mediaIds);
      return { deleted };
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/Chat/DeleteMessage',
    auth: 'user',
    summary: 'Deletes one message of a session; the messages after it stay, re-attached to the one before it (docs/api.md#answer-versions).',
    body: DeleteMessageBodySchema,
    handler: async ({ ctx, user, body }) => {
      await forgetDetachedMedia(ctx, user.id, await deleteMessage(ctx.db, user.id, body.chatMessageId));
      return null;
    },
  });
}
