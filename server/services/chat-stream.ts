import type { FastifyReply } from 'fastify';
import { ChatFinishReasons, type ChatStreamData, type ChatStreamExtras } from '../../shared/contracts/chat.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { AppContext } from '../context.ts';
import { failureOf, type Failure } from '../http/failures.ts';
import { t } from '../http/i18n.ts';
import { createAnswerStore, type AnswerStore } from './chat-answer-store.ts';
import type { PreparedMessage } from './chat-prepare.ts';
import { runAnswerRounds, type AnswerState } from './chat-rounds.ts';
import { registerRunningStream } from './chat-running.ts';

/**
 * Answers a prepared message (chat-prepare.ts) as `text/event-stream`: `data: {Code, Msg, Data}`
 * events, the last one with the FinishReason (and the failure's Code, if any), then `data: DONE`.
 * docs/api.md#the-chat-stream describes the events.
 */

const event = (code: number, msg: string, data: ChatStreamData & ChatStreamExtras) =>
  `data: ${JSON.stringify({ Code: code, Msg: msg, Data: data })}\n\n`;

/**
 * The event of one piece of text. Everything but the text is the same for a whole round (and the
 * input may be 32k characters), so it is encoded once, not per chunk.
 */
function textEvents(d: ChatStreamData): (text: string) => string {
  const j = JSON.stringify;
  const head = `data: {"Code":${Codes.Success},"Msg":"","Data":{"ChatMessageId":${j(d.ChatMessageId)},"ChatSessionId":${j(d.ChatSessionId)},"InputMessage":${j(d.InputMessage)},"OutputMessage":`;
  const tail = `,"FinishReason":null,"ModelName":${j(d.ModelName)},"ModelId":${j(d.ModelId)},"ReplaceMessage":false}}\n\n`;
  return (text) => head + j(text) + tail;
}

/** Takes over the raw response for the event stream; `send` drops what a gone client cannot take. */
function openEventStream(reply: FastifyReply): { send(chunk: string): void; raw: FastifyReply['raw'] } {
  const raw = reply.raw;
  // Headers set so far (CORS, nosniff, a renewed Authorization) would be lost by writing the raw response alone.
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined));
  reply.hijack();
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  raw.on('error', () => {});
  return { raw, send: (chunk) => void (raw.destroyed || raw.write(chunk)) };
}

/** The answer's state, wired to the client (events) and the row (store). */
function answerState(
  ctx: AppContext,
  p: PreparedMessage,
  lang: Language,
  io: { send(chunk: string): void; store: AnswerStore; data: ChatStreamData; signal: AbortSignal },
): AnswerState {
  let textEvent = textEvents(io.data);
  const s: AnswerState = {
    ctx,
    p,
    lang,
    signal: io.signal,
    output: '',
    modelId: p.resolved.model.aiModelId,
    modelName: p.resolved.model.name,
    citations: [],
    toolCalls: [],
    toolPoints: 0,
    onText(text) {
      if (io.data.ModelId !== s.modelId || io.data.ModelName !== s.modelName) {
        Object.assign(io.data, { ModelId: s.modelId, ModelName: s.modelName });
        textEvent = textEvents(io.data);
      }
      io.send(textEvent(text));
      io.store.append(text);
    },
    onExtras() {
      // A web-searched answer always says what it found, even nothing.
      const extras = { ...(p.webSearch || s.citations.length ? { Citations: s.citations } : {}), ...(s.toolCalls.length ? { ToolCalls: s.toolCalls } : {}) };
      io.send(event(Codes.Success, '', { ...io.data, ...extras }));
      io.store.saveExtras(s.citations, s.toolCalls);
    },
  };
  return s;
}

/**
 * Streams the answer and stores it as it streams. Resolves when the stream has ended and its
 * outcome is stored. A stop (by the user, a gone client or a shutdown) ends it with that reason;
 * a failure ends it with the Code of the one failure mapping (server/http/failures.ts).
 */
export async function streamChatAnswer(ctx: AppContext, reply: FastifyReply, p: PreparedMessage, lang: Language): Promise<void> {
  const { raw, send } = openEventStream(reply);
  const data: ChatStreamData = {
    ChatMessageId: p.messageId,
    ChatSessionId: p.sessionId,
    InputMessage: p.input,
    OutputMessage: '',
    FinishReason: null,
    ModelName: p.resolved.model.name,
    ModelId: p.resolved.model.aiModelId,
    ReplaceMessage: false,
  };
  const controller = new AbortController();
  let stopReason: string | null = null;
  const stop = (reason: string) => {
    if (stopReason) return;
    stopReason = reason;
    controller.abort(new Error(reason));
  };
  const finished = registerRunningStream(ctx, p.messageId, stop);
  const onClose = () => {
    if (!raw.writableFinished) stop(ChatFinishReasons.clientDisconnected);
  };
  raw.on('close', onClose);
  const store = createAnswerStore(ctx, p.messageId);
  const s = answerState(ctx, p, lang, { send, store, data, signal: controller.signal });

  let finishReason: string = ChatFinishReasons.stop;
  let failure: (Failure & { detail: string }) | null = null;
  try {
    send(event(Codes.Success, '', data));
    const upstreamFinish = await runAnswerRounds(s);
    finishReason = stopReason ?? upstreamFinish ?? ChatFinishReasons.stop;
  } catch (err) {
    if (stopReason) finishReason = stopReason;
    else {
      finishReason = ChatFinishReasons.error;
      failure = { ...failureOf(err, reply.request.id), detail: err instanceof Error ? err.message : String(err) };
      if (failure.serverFault) reply.log.error({ err, messageId: p.messageId }, 'answering a message failed');
    }
  } finally {
    raw.off('close', onClose);
  }

  await store.finish({
    output: s.output,
    finishReason,
    errorDetail: failure?.detail ?? null,
    aiModelId: s.modelId,
    modelName: s.modelName,
    citations: s.citations,
    toolCalls: s.toolCalls,
    pointsCost: p.resolved.model.pointsCost + s.toolPoints,
    refund: failure && !s.output ? { userId: p.userId, points: p.resolved.model.pointsCost } : null,
  });
  finished();
  if (finishReason === ChatFinishReasons.clientDisconnected) return void raw.destroy();
  Object.assign(data, { FinishReason: finishReason, ModelId: s.modelId, ModelName: s.modelName });
  send(failure ? event(failure.code, t(lang, failure.key, failure.params), data) : event(Codes.Success, '', data));
  send('data: DONE\n\n');
  raw.end();
}
