import { Codes, type Code } from '../../shared/contracts/envelope.ts';
import { sqlStateOf } from './db-errors.ts';
import { UpstreamFailure, type UpstreamFailureKind } from './upstream-failure.ts';
import { AppError } from './errors.ts';
import type { MessageKey } from './i18n.ts';

/**
 * The one mapping from a failure to what the caller is told, used by the JSON error handler and by
 * the chat stream alike (docs/api.md#codes):
 * - a handled outcome (AppError) keeps its Code;
 * - a model failure says what went wrong: busy, misconfigured, conversation too long, timeout;
 * - a malformed request caught by the HTTP framework is bad input (or too large, or wrong type);
 * - a value the database refuses is bad input, a duplicate a conflict;
 * - anything else is our own fault: 10500, logged with its stack and the request id.
 */
export type Failure = {
  code: Code;
  key: MessageKey;
  params?: Record<string, string | number>;
  /** Our own fault: log it as an error with the stack, answer HTTP 500 outside a stream. */
  serverFault: boolean;
  /** The HTTP status of a JSON answer (handled outcomes are 200: the client reads Code). */
  status: number;
  /**
   * An answer the model broke off after it had sent text (the stream errored or the connection
   * dropped): the user has part of an answer, and its price follows docs/economy.md#cut-off-answers.
   */
  cutOff?: true;
};

const UPSTREAM: Record<UpstreamFailureKind, { code: Code; key: MessageKey }> = {
  busy: { code: Codes.ModelBusy, key: 'modelBusy' },
  request: { code: Codes.ModelBusy, key: 'modelBusy' },
  auth: { code: Codes.ModelMisconfigured, key: 'modelMisconfigured' },
  'not-found': { code: Codes.ModelMisconfigured, key: 'modelMisconfigured' },
  'context-too-long': { code: Codes.ContextTooLong, key: 'contextTooLong' },
  timeout: { code: Codes.ModelTimeout, key: 'modelTimeout' },
};

const handled = (code: Code, key: MessageKey, params?: Failure['params']): Failure => ({ code, key, params, serverFault: false, status: 200 });

type FrameworkError = Error & { statusCode?: number; code?: string };

/** Errors Fastify raises before a route runs: unreadable URL or body, too large, wrong content type. */
function frameworkFailure(err: FrameworkError): Failure | null {
  const status = err.statusCode;
  if (err.code === 'FST_ERR_BAD_URL') return handled(Codes.BadRequest, 'badUrl');
  if (status === 413) return handled(Codes.PayloadTooLarge, 'payloadTooLarge');
  if (status === 415) return handled(Codes.BadRequest, 'unsupportedMediaType');
  if (status === undefined || status < 400 || status >= 500) return null;
  if (err.code?.startsWith('FST_ERR_CTP')) return handled(Codes.BadRequest, 'invalidJson');
  // Any other 4xx of the framework: its message names the field or header, never user data.
  return handled(Codes.BadRequest, 'badRequest', { detail: err.message });
}

/**
 * A statement the database refused because of a value it was given: text too long for its column or
 * index, a number out of range, a malformed value (SQLSTATE class 22), a missing or dangling
 * reference or a failed check (23502, 23503, 23514), a value too large to index (54000). The input
 * guard (input-guard.ts) and the contracts refuse most such input first; what still reaches the
 * database is the caller's input, not our fault. A duplicate is a conflict.
 */
function databaseFailure(err: unknown): Failure | null {
  const code = sqlStateOf(err);
  if (!code) return null;
  if (code === '23505') return handled(Codes.Conflict, 'valueConflict');
  if (code.startsWith('22') || ['23502', '23503', '23514', '54000'].includes(code)) return handled(Codes.BadRequest, 'invalidValue');
  return null;
}

/** Kinds that, once text has been shown, mean the answer was broken off (not a refusal of the request). */
const BREAKS = new Set<UpstreamFailureKind>(['busy', 'request']);

/** `answered`: the failure came after the user had seen text of the answer (a chat stream only). */
export function failureOf(err: unknown, requestId: string, answered = false): Failure {
  if (err instanceof AppError) return handled(err.code, err.key, err.params);
  if (err instanceof UpstreamFailure && answered && BREAKS.has(err.kind)) return { ...handled(Codes.ModelBusy, 'answerCutOff'), cutOff: true };
  if (err instanceof UpstreamFailure) return handled(UPSTREAM[err.kind].code, UPSTREAM[err.kind].key);
  const framework = err instanceof Error ? frameworkFailure(err as FrameworkError) : null;
  if (framework) return framework;
  const database = databaseFailure(err);
  if (database) return database;
  return { code: Codes.ServerError, key: 'internalError', params: { requestId }, serverFault: true, status: 500 };
}
