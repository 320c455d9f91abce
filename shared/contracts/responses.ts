import { z } from 'zod';
import { ChatStreamDataSchema, ChatStreamExtrasSchema } from './chat.ts';
import { Codes, type Code } from './envelope.ts';

/**
 * What the API answers, as the API reference declares it (server/http/api-doc.ts): the envelope of
 * a success and of a failure, the events of the chat stream, and the few answers that are not an
 * envelope. Only the server and the tests import this file, so its prose stays out of the client.
 */

export type CodeName = keyof typeof Codes;

/**
 * Each code for people: what it means and what the person who got it can do. The API reference
 * lists these (its description and `x-codes`); docs/api.md#codes has the same table, and
 * tests/server/openapi.test.ts holds the two to `Codes`.
 */
export const CodeDocs: Record<CodeName, { meaning: string; action: string }> = {
  Success: { meaning: 'The call did what was asked; Data holds the result.', action: 'Nothing.' },
  BadRequest: {
    meaning: 'Bad input: a field is missing, of the wrong type or out of range; the body is not JSON or not of a JSON content type; a broken URL; a NUL character.',
    action: 'Correct the input; Msg names the fields (at most three).',
  },
  LoginFailed: {
    meaning: 'Wrong e-mail or password, a closed account at login, or a temp key that is unknown, used or expired.',
    action: 'Check the e-mail and password, or log in again for a new temp key.',
  },
  NotLoggedIn: {
    meaning: 'The route needs a logged-in user: the token is missing, malformed, unknown, expired or revoked.',
    action: 'Log in again (the client clears its token and opens the login dialog).',
  },
  Forbidden: { meaning: 'Logged in, but the role does not allow the call (admin routes).', action: 'Ask an administrator; nothing was changed.' },
  NotFound: {
    meaning: 'The thing named does not exist or belongs to someone else (answered alike on purpose); also unknown URLs.',
    action: 'Check the id; reload the list it came from.',
  },
  Conflict: {
    meaning: "Conflicts with what exists: an e-mail already registered, a model id already taken, a translation's requestId already used for another text.",
    action: 'Choose another e-mail or id, or log in; send a new requestId.',
  },
  PayloadTooLarge: { meaning: 'The body or the uploaded file is larger than the route accepts, or a text too complex to make a PDF of in time.', action: 'Send less: a smaller file or a shorter text.' },
  UploadRefused: {
    meaning: 'A page or file that cannot be used: an address that is not public, a type the model does not accept, damaged or empty content, too large to read.',
    action: 'Msg says which; use another page or file, or another model.',
  },
  RateLimited: { meaning: 'Too many calls from one address in a short time, or too many documents being read or PDFs being made.', action: 'Wait the seconds Msg names and try again.' },
  PlanRequired: { meaning: 'The model needs a higher plan than the caller has; nothing was charged.', action: 'Pick another model or upgrade the plan.' },
  NoModelConfigured: { meaning: 'No AI model is configured or online on this server.', action: 'An operator configures a model (Msg says how).' },
  NotConfigured: {
    meaning: 'A feature the call needs (web search, image generation, a plugin needing either) is not set up on this server; nothing was charged.',
    action: 'Go without the feature, or ask an operator to set it up (Msg says how).',
  },
  ModelMisconfigured: {
    meaning: 'The model’s provider refused its key or does not know the model, or it has no enabled deployment.',
    action: 'Pick another model; an administrator fixes the deployment.',
  },
  ModelWrongType: {
    meaning: 'The model is not of the type the call needs: a message to a model that is not a chat model, a drawing by one that is not an image-generation model; nothing was charged.',
    action: 'Pick a model of the right type (GetModelListAll?aiModelTypeId=chat or image).',
  },
  ContextTooLong: { meaning: 'The conversation with its attachments does not fit the model’s context.', action: 'Start a new chat, remove attachments or pick a model with a larger context.' },
  NotEnoughPoints: { meaning: 'The balance does not cover the model’s cost.', action: 'Check in for points, wait for the daily points or upgrade the plan.' },
  ModelBusy: { meaning: 'The upstream model failed or is busy and no other deployment could answer.', action: 'Try again later or pick another model.' },
  ModelTimeout: { meaning: 'No deployment of the model sent text in time.', action: 'Try again, or pick another model.' },
  ServiceFailed: { meaning: 'The web search provider or the images service failed or was too slow; the points are given back.', action: 'Try again later.' },
  ServerError: {
    meaning: 'The server’s own fault (HTTP 500; in a stream, the last event); also an upload the file store could not keep (HTTP 200).',
    action: 'Try again later; if it persists, give the administrator the request id in Msg.',
  },
  Aborted: { meaning: 'Never sent by the server: the client’s own code for a request it aborted.', action: 'Nothing.' },
};

/** Codes the server sends for a failure: all but Success and the client's own Aborted. */
export const FAILURE_CODES = Object.values(Codes).filter((c) => c !== Codes.Success && c !== Codes.Aborted) as Exclude<Code, 10000 | 10087>[];

/** A successful answer: Code 10000, an empty Msg, Data as the route declares it (null for routes that answer none). */
export const successEnvelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ Code: z.literal(Codes.Success), Msg: z.literal(''), Data: data });

/**
 * The schemas below carry an id: the API reference lists each once under components.schemas and
 * routes refer to it (fastify-type-provider-zod reads ids from zod's global registry).
 */
const failureEnvelope = <C extends Code>(id: string, codes: readonly [C, ...C[]], description: string) =>
  z
    .object({
      Code: z.literal(codes).describe('See the list of codes in this document’s description (and its x-codes).'),
      Msg: z.string().min(1).describe('A sentence a person can act on, in the caller’s language (accept-language).'),
      Data: z.null(),
    })
    .meta({ id, description });

/** A handled failure (HTTP 200, or 404 where a route says so): a failure Code, a message, no Data. */
export const FailureEnvelopeSchema = failureEnvelope(
  'FailureEnvelope',
  FAILURE_CODES as [Exclude<Code, 10000 | 10087>],
  'A handled failure: Code says which, Msg says what to do, Data is null.',
);

/** The server's own fault, answered with HTTP 500. */
export const ServerFaultEnvelopeSchema = failureEnvelope('ServerFaultEnvelope', [Codes.ServerError], 'The server’s own fault; Msg names the request id of the log line.');

/** A media item the caller may not have, answered with HTTP 404 by the routes that serve bytes. */
export const NotFoundEnvelopeSchema = failureEnvelope('NotFoundEnvelope', [Codes.NotFound], 'Not found, or not the caller’s, alike on purpose.');

/**
 * One event of the AddMessage stream: each `data:` line of the text/event-stream holds one as JSON,
 * and the stream ends with the line `data: DONE` (not JSON). Only the last event may carry a
 * failure Code (with a Msg and FinishReason `error`); its Data is still the message's.
 */
export const ChatStreamEventSchema = z
  .object({
    Code: z.literal([Codes.Success, ...FAILURE_CODES] as [Code, ...Code[]]),
    Msg: z.string(),
    Data: ChatStreamDataSchema.extend(ChatStreamExtrasSchema.shape),
  })
  .meta({
    id: 'ChatStreamEvent',
    description:
      'text/event-stream: each event is one line `data: <this object as JSON>` and a blank line. FinishReason is null until the last event; the last event may carry a failure Code and Msg (FinishReason `error`). After it the stream ends with the line `data: DONE` (literal text, not JSON).',
  });

/** Bytes as they are (an image, a stored file). */
export const BytesSchema = z.string().meta({ format: 'binary' });

/**
 * What the HTTP framework answers itself, not in the envelope, to a request that arrives while the
 * server shuts down (Fastify's return503OnClosing): retry on another instance or later.
 */
export const ShuttingDownSchema = z
  .object({ error: z.string(), message: z.string(), statusCode: z.literal(503) })
  .meta({ id: 'ShuttingDown', description: 'Fastify’s own answer while the server shuts down; not an envelope. Retry later or on another instance.' });
