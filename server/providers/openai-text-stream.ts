import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { createParser } from 'eventsource-parser';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { finished } from 'node:stream';
import { urlToHttpOptions } from 'node:url';

/**
 * The plain chat message, the most common call by far, streamed with less work in between than the
 * AI SDK's OpenAI-compatible client does (bench/proxy-overhead): that client passes every chunk
 * through a text decoder stream, an SSE parser stream, a schema check and a mapping stream, and
 * Node's web streams are slow. Here one reader feeds one SSE parser, and parts go out as they come;
 * the request itself goes through node:http(s) on kept-alive connections, which reaches the first
 * byte about 0.6 ms sooner than fetch on these machines.
 *
 * Only text-only calls take this path: no tools, no images or files, no response format, no
 * provider options. Everything else, and every other method, is the SDK model's own.
 */
export type TextStreamTarget = {
  /** The API's base, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended). */
  baseUrl: string;
  apiKey: string | undefined;
  upstreamModelId: string;
};

export function withLightTextStream(sdk: LanguageModelV3, target: TextStreamTarget): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: sdk.provider,
    modelId: sdk.modelId,
    supportedUrls: sdk.supportedUrls,
    doGenerate: (options) => sdk.doGenerate(options),
    doStream: (options) => (isPlainText(options) ? streamText(target, options) : sdk.doStream(options)),
  };
}

const chatCompletionsUrl = (target: TextStreamTarget) => `${target.baseUrl}/chat/completions`;

function isPlainText(options: LanguageModelV3CallOptions): boolean {
  if (options.tools?.length || options.toolChoice || options.responseFormat?.type === 'json' || options.providerOptions) return false;
  return options.prompt.every((m) => m.role === 'system' || ((m.role === 'user' || m.role === 'assistant') && m.content.every((p) => p.type === 'text')));
}

/** The chat-completions request of a plain text call. */
function requestBodyOf(target: TextStreamTarget, options: LanguageModelV3CallOptions): Record<string, unknown> {
  // stream_options: the token counts in the last event, for metering (the SDK path asks the same).
  const body: Record<string, unknown> = {
    model: target.upstreamModelId,
    messages: messagesOf(options),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (options.maxOutputTokens !== undefined) body.max_tokens = options.maxOutputTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.stopSequences?.length) body.stop = options.stopSequences;
  return body;
}

/** Posts the request; a failure to connect or a non-2xx answer is an APICallError, as the SDK raises them. */
async function openResponse(
  target: TextStreamTarget,
  body: Record<string, unknown>,
  options: LanguageModelV3CallOptions,
): Promise<{ response: IncomingMessage; responseHeaders: Record<string, string> }> {
  const url = chatCompletionsUrl(target);
  const headers = {
    'content-type': 'application/json',
    ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
    ...Object.fromEntries(Object.entries(options.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
  let response: IncomingMessage;
  try {
    response = await post(target, headers, JSON.stringify(body), options.abortSignal);
  } catch (error) {
    // As fetch does: a cancelled call rejects with the signal's reason.
    if (options.abortSignal?.aborted) throw options.abortSignal.reason;
    // Connection refused, DNS, TLS: as the SDK reports them, a retryable call error without a status.
    throw new APICallError({ message: `Cannot connect to API: ${(error as Error).message}`, url, requestBodyValues: body, cause: error, isRetryable: true });
  }
  const status = response.statusCode ?? 0;
  const responseHeaders = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
  if (status >= 200 && status <= 299) return { response, responseHeaders };
  const text = await readAll(response).catch(() => '');
  let message = response.statusMessage || `HTTP ${status}`;
  try {
    message = (JSON.parse(text) as Chunk).error?.message ?? message;
  } catch {
    // Not JSON: the status text stands.
  }
  throw new APICallError({
    message,
    url,
    requestBodyValues: body,
    statusCode: status,
    responseHeaders,
    responseBody: text,
    isRetryable: status === 408 || status === 409 || status === 429 || status >= 500,
  });
}

/** What the SSE events of one answer said so far, turned into parts as they arrive. */
type ParseState = { finishRaw?: string; usage?: Chunk['usage']; ended: boolean; textStarted: boolean };

function eventParser(state: ParseState, emit: (part: LanguageModelV3StreamPart) => void) {
  return createParser({
    onEvent(event) {
      if (event.data === '[DONE]') {
        state.ended = true;
        return;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(event.data) as Chunk;
      } catch (error) {
        emit({ type: 'error', error });
        return;
      }
      if (chunk.error) {
        emit({ type: 'error', error: new Error(chunk.error.message ?? 'upstream error') });
        return;
      }
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const delta = choice?.delta?.content;
      if (delta) {
        if (!state.textStarted) {
          state.textStarted = true;
          emit({ type: 'text-start', id: '0' });
        }
        emit({ type: 'text-delta', id: '0', delta });
      }
      if (choice?.finish_reason) state.finishRaw = choice.finish_reason;
    },
  });
}

/** The finish part: the unified reason and the usage, when the server reported it. */
function finishPart(state: ParseState): LanguageModelV3StreamPart {
  const { usage, finishRaw } = state;
  return {
    type: 'finish',
    finishReason: { unified: (finishRaw && UNIFIED[finishRaw]) || 'other', raw: finishRaw },
    usage: usage
      ? {
          inputTokens: { ...NO_USAGE.inputTokens, total: usage.prompt_tokens },
          outputTokens: { ...NO_USAGE.outputTokens, total: usage.completion_tokens },
        }
      : NO_USAGE,
  };
}

/** Parts the reader may hold before the response is paused: only a consumer far behind holds it up. */
const QUEUED_PARTS = 64;

/**
 * The response body as a stream of parts; one parser for the whole body, as an event may straddle
 * two reads. Parts are made as the body's bytes arrive ('data'), not when the consumer asks: reading
 * through an async iterator over the response added promise turns between the bytes' arrival and the
 * first text's write, per piece (bench/README.md#proxy-overhead, eleventh session). A consumer
 * QUEUED_PARTS behind pauses the response until it reads again.
 */
function partsOf(response: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
  const decoder = new TextDecoder();
  const state: ParseState = { ended: false, textStarted: false };
  let controller!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  let settled = false;
  const emit = (part: LanguageModelV3StreamPart) => controller.enqueue(part);
  const parser = eventParser(state, emit);
  // [DONE] or the body's end: the parts end there. What follows [DONE] (the end of the chunked body)
  // is still read, and dropped, by the 'data' listener, so the connection goes back to the pool.
  const end = () => {
    if (settled) return;
    settled = true;
    if (state.textStarted) emit({ type: 'text-end', id: '0' });
    emit(finishPart(state));
    controller.close();
  };
  const fail = (error: unknown) => {
    if (settled) return;
    settled = true;
    controller.error(signal?.aborted ? signal.reason : error);
  };
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      start(c) {
        controller = c;
        response.on('data', (bytes: Buffer) => {
          if (settled) return;
          parser.feed(decoder.decode(bytes, { stream: true }));
          if (state.ended) end();
          else if ((controller.desiredSize ?? 1) <= 0) response.pause();
        });
        finished(response, (error) => (error ? fail(error) : end()));
      },
      pull() {
        if (!settled && response.isPaused()) response.resume();
      },
      cancel() {
        settled = true;
        response.destroy();
      },
    },
    { highWaterMark: QUEUED_PARTS },
  );
}

/** The prompt as chat-completions messages: text only (isPlainText); a user turn of several parts keeps them apart. */
function messagesOf(options: LanguageModelV3CallOptions): { role: string; content: string | { type: 'text'; text: string }[] }[] {
  return options.prompt.map((m) => {
    if (m.role === 'system') return { role: 'system', content: m.content };
    const parts = m.content as { type: 'text'; text: string }[];
    if (m.role === 'user' && parts.length > 1) return { role: m.role, content: parts.map((p) => ({ type: 'text' as const, text: p.text })) };
    return { role: m.role, content: parts.map((p) => p.text).join('') };
  });
}

const UNIFIED: Record<string, LanguageModelV3FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
};

const NO_USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

type Chunk = {
  error?: { message?: string };
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
};

async function streamText(target: TextStreamTarget, options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
  const body = requestBodyOf(target, options);
  const { response, responseHeaders } = await openResponse(target, body, options);
  return { stream: partsOf(response, options.abortSignal), request: { body }, response: { headers: responseHeaders } };
}

/** Upstream connections stay open between messages: no handshake before each one. */
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * Each deployment's request options, parsed on its first message and kept as long as its model. On
 * first use, not when the model is made: a malformed address fails the call as a connection error.
 */
const endpoints = new WeakMap<TextStreamTarget, { secure: boolean; options: http.RequestOptions }>();

function endpointOf(target: TextStreamTarget) {
  let endpoint = endpoints.get(target);
  if (!endpoint) {
    const url = new URL(chatCompletionsUrl(target));
    endpoint = { secure: url.protocol === 'https:', options: urlToHttpOptions(url) };
    endpoints.set(target, endpoint);
  }
  return endpoint;
}

/**
 * POSTs `body` and resolves with the response once its headers arrive (the body is read by the
 * caller). Every moment before the request leaves delays the first token, so the address is parsed
 * once and the abort is wired after the request is written: http.request's own `signal` option adds
 * about 0.04 ms before it (bench/README.md#proxy-overhead).
 */
function post(target: TextStreamTarget, headers: Record<string, string>, body: string, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const { secure, options } = endpointOf(target);
    const request = (secure ? https : http).request(
      { ...options, method: 'POST', agent: secure ? agents.https : agents.http, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      resolve,
    );
    request.on('error', reject);
    request.end(body);
    if (!signal) return;
    // As the signal option does: an abort destroys the request, and with it the response being read.
    const abort = () => request.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal.removeEventListener('abort', abort));
  });
}

async function readAll(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
