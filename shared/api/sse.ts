import i18next from 'i18next';
import type { SentMessage } from '../atoms/pending-action.ts';
import {
  ChatStreamDataSchema,
  ChatStreamExtrasSchema,
  type ChatCitation,
  type ChatStreamData,
  type ChatToolCall,
} from '../contracts/chat.ts';
import { Codes } from '../contracts/envelope.ts';
import {
  ApiError,
  JSON_PATCH_CONTENT_TYPE,
  adoptRenewedToken,
  apiUrl,
  httpErrorMessage,
  requestHeaders,
  requestHeadersNow,
  transportError,
  unwrapEnvelope,
} from './request.ts';

/** The answer so far, after each event of the stream. */
export interface StreamUpdate {
  text: string;
  ids: { chatMessageId: string; chatSessionId: string };
  modelName: string;
  modelId: string;
  /** Null until the last event. */
  finishReason: string | null;
  /** The sources the answer cites as [n] (web search), once an event has carried them. */
  citations?: ChatCitation[];
  /** The tool calls so far (each event that carries them has the whole list). */
  toolCalls?: ChatToolCall[];
}

const CitationsField = ChatStreamExtrasSchema.shape.Citations;
const ToolCallsField = ChatStreamExtrasSchema.shape.ToolCalls;

/**
 * The extras an event carries (Citations, ToolCalls), each checked on its own: a field that is absent
 * or does not pass its schema keeps the last value, so a malformed extra never breaks the answer.
 * Unknown fields inside are dropped by the schemas.
 */
function readExtras(data: unknown, previous: StreamUpdate | undefined): Pick<StreamUpdate, 'citations' | 'toolCalls'> {
  const raw = data as { Citations?: unknown; ToolCalls?: unknown };
  let citations = previous?.citations;
  let toolCalls = previous?.toolCalls;
  if (raw.Citations !== undefined) {
    const parsed = CitationsField.safeParse(raw.Citations);
    if (parsed.success && parsed.data) citations = parsed.data;
  }
  if (raw.ToolCalls !== undefined) {
    const parsed = ToolCallsField.safeParse(raw.ToolCalls);
    if (parsed.success && parsed.data) toolCalls = parsed.data;
  }
  return { citations, toolCalls };
}

export interface StreamOptions {
  signal?: AbortSignal;
  onUpdate?: (update: StreamUpdate) => void;
  /** The answer's text the caller already has (a resumed stream continues it). */
  prefix?: string;
  /** The request left already (the side panel's first script: early-message.ts): its answer is read, nothing is sent. */
  sent?: SentMessage;
}

/**
 * The connection failed, or closed before the stream's end. An answer that had started runs on at the
 * server, so the caller may follow it again (ResumeMessage) from the text it has.
 */
export class StreamDroppedError extends ApiError {}

/** The line that ends the stream. */
const DONE = 'DONE';

/**
 * Splits a byte stream into SSE events (the joined `data:` lines of each), whatever the chunking:
 * bytes of one character split across reads, CRLF, CR or LF line ends, a CRLF split across reads.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let finished = false;
  // Returns the event completed by this line, if any.
  const takeLine = (line: string): string | undefined => {
    if (line === '') {
      const event = data.length > 0 ? data.join('\n') : undefined;
      data = [];
      return event;
    }
    // Other fields (event:, id:, retry:) and comments are not part of this protocol.
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    return undefined;
  };
  try {
    while (true) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF: it waits for the next read to tell.
      const usable = !done && buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      let match: RegExpExecArray | null;
      while ((match = lineEnd.exec(buffer)) !== null && match.index < usable) {
        const event = takeLine(buffer.slice(start, match.index));
        start = match.index + match[0].length;
        if (event !== undefined) yield event;
      }
      buffer = buffer.slice(start);
      if (done) {
        // A stream may end without the blank line after its last event.
        const event = takeLine(buffer) ?? takeLine('');
        finished = true;
        if (event !== undefined) yield event;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Sends a message to AddMessage and reads the answer as it streams: POST with the
 * usual headers and no timeout; every event's OutputMessage is appended (or replaces the text when
 * ReplaceMessage is set), the latest Citations and ToolCalls are kept, `onUpdate` sees the answer
 * after each event, and the promise resolves with the last update on `data: DONE`. Failures reject with an ApiError: the
 * event's Msg (or the model-busy message, see docs/api.md#codes) for an error event, 10500 for an
 * unreadable event, 10087 when aborted, and a StreamDroppedError (10500) when the connection failed.
 */
export function streamMessage(path: string, body: unknown, options: StreamOptions = {}): Promise<StreamUpdate> {
  return readAnswerStream({ url: apiUrl(path), method: 'POST', body }, options);
}

/** The same stream by GET (ResumeMessage), its parameters in the query. */
export function streamMessageGet(path: string, query: Record<string, string | number>, options: StreamOptions = {}): Promise<StreamUpdate> {
  return readAnswerStream({ url: apiUrl(path, query), method: 'GET' }, options);
}

/** A request sent before its reader existed: the reader's signal cancels it as it would its own. */
function takeOver(sent: SentMessage, signal: AbortSignal | undefined): Promise<Response> {
  if (signal?.aborted) sent.abort(signal.reason);
  else signal?.addEventListener('abort', () => sent.abort(signal.reason), { once: true });
  return sent.response;
}

async function readAnswerStream(request: { url: string; method: 'GET' | 'POST'; body?: unknown }, options: StreamOptions): Promise<StreamUpdate> {
  const busy = () => i18next.t('chat.modelBusy');
  const headers = options.sent ? null : (requestHeadersNow() ?? (await requestHeaders()));
  if (request.method === 'POST') headers?.set('Content-Type', JSON_PATCH_CONTENT_TYPE);
  headers?.set('Accept', 'text/event-stream');

  let update: StreamUpdate | undefined;
  const apply = (data: ChatStreamData, raw: unknown) => {
    const extras = readExtras(raw, update);
    update = {
      text: data.ReplaceMessage ? data.OutputMessage : (update?.text ?? options.prefix ?? '') + data.OutputMessage,
      ids: { chatMessageId: data.ChatMessageId, chatSessionId: data.ChatSessionId },
      modelName: data.ModelName,
      modelId: data.ModelId,
      finishReason: data.FinishReason,
      ...(extras.citations ? { citations: extras.citations } : {}),
      ...(extras.toolCalls ? { toolCalls: extras.toolCalls } : {}),
    };
    options.onUpdate?.(update);
  };

  try {
    const response = await (options.sent
      ? takeOver(options.sent, options.signal)
      : fetch(request.url, {
          method: request.method,
          headers: headers ?? undefined,
          ...(request.method === 'POST' ? { body: JSON.stringify(request.body) } : {}),
          signal: options.signal,
        }));
    await adoptRenewedToken(response);
    if (!response.ok) throw new ApiError(Codes.ServerError, httpErrorMessage(response.status), response.status);

    // Failures found before the stream starts (not logged in, bad input, no points) come as a
    // plain {Code, Msg, Data} answer.
    if (!response.headers.get('Content-Type')?.includes('text/event-stream') || !response.body) {
      let json: unknown;
      try {
        json = await response.json();
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new ApiError(Codes.ServerError, i18next.t('request.error'));
      }
      await unwrapEnvelope(json, busy());
      // A 10000 envelope instead of a stream is not an answer either.
      throw new ApiError(Codes.ServerError, i18next.t('request.error'));
    }

    for await (const event of sseEvents(response.body)) {
      if (event.trim() === DONE) {
        if (!update) throw new ApiError(Codes.ServerError, busy());
        return update;
      }
      let json: unknown;
      try {
        json = JSON.parse(event);
      } catch {
        throw new ApiError(Codes.ServerError, i18next.t('request.error'));
      }
      await unwrapEnvelope(json, busy());
      const raw = (json as { Data?: unknown }).Data;
      const data = ChatStreamDataSchema.safeParse(raw);
      if (!data.success) throw new ApiError(Codes.ServerError, i18next.t('request.error'));
      apply(data.data, raw);
    }
    // The connection closed before DONE.
    throw new StreamDroppedError(Codes.ServerError, i18next.t('request.networkError'));
  } catch (error) {
    const failure = transportError(error, options.signal);
    // Not a refusal of the server's: the connection failed.
    if (!(error instanceof ApiError) && failure.code !== Codes.Aborted) throw new StreamDroppedError(failure.code, failure.message);
    throw failure;
  }
}
