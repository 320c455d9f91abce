import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { ChatFinishReasons, type ChatStreamData } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { EventStream } from '../../core/event-stream.ts';
import { failureOf, type Failure } from '../../core/failures.ts';
import { t } from '../../core/i18n.ts';
import { UpstreamFailure } from '../../core/upstream-failure.ts';
import { createAnswerStore, type AnswerStore } from './answer-store.ts';
import { chatEvent, DONE_EVENT, textEvents } from './events.ts';
import type { PreparedMessage } from './prepare.ts';
import { createLiveAnswer, type LiveAnswer } from './live-answer.ts';
import { runAnswerRounds, type AnswerState } from './rounds.ts';
import { registerRunningStream } from './running.ts';
import { newMetering, tokenCost } from './token-metering.ts';

/**
 * Answers a prepared message (chat/prepare.ts) as `text/event-stream` (the events: chat/events.ts),
 * the last one with the FinishReason (and the failure's Code, if any), then `data: DONE`.
 */

/** The answer's state, wired to the client (events) and the row (store). */
function answerState(
  ctx: AppContext,
  p: PreparedMessage,
  lang: Language,
  io: { send(chunk: string): void; store: AnswerStore; live: LiveAnswer; data: ChatStreamData; signal: AbortSignal; stored: Promise<unknown> },
): AnswerState {
  const textEvent = textEvents(io.data);
  const s: AnswerState = {
    ctx,
    p,
    lang,
    signal: io.signal,
    stored: io.stored,
    output: '',
    modelId: p.resolved.model.aiModelId,
    modelName: p.resolved.model.name,
    citations: [],
    toolCalls: [],
    toolPoints: 0,
    progress: 0,
    metering: newMetering(),
    onText(text) {
      // The model may change between rounds (failover): later events carry the one that answered.
      if (io.data.ModelId !== s.modelId || io.data.ModelName !== s.modelName) Object.assign(io.data, { ModelId: s.modelId, ModelName: s.modelName });
      io.send(textEvent(text, s.modelId, s.modelName));
      io.store.append(text);
      io.live.onText(text);
    },
    onExtras() {
      // A web-searched answer always says what it found, even nothing.
      const extras = { ...(p.webSearch || s.citations.length ? { Citations: s.citations } : {}), ...(s.toolCalls.length ? { ToolCalls: s.toolCalls } : {}) };
      io.send(chatEvent(Codes.Success, '', { ...io.data, ...extras }));
      io.store.saveExtras(s.citations, s.toolCalls);
      io.live.onExtras();
    },
  };
  return s;
}

/** The request an answer is for: its id and log (a failure's report names it), and what preparing it took (ms, Server-Timing). */
export type AnswerRequest = { id: string; log: FastifyBaseLogger; prepareMs: number };

/** How the rounds ended: the upstream's finish reason, or the error they failed with. */
type RoundsOutcome = { finish: string | null } | { error: unknown };

/**
 * An answer runs on when its client goes away (another surface may follow it: chat/resume.ts), so it
 * is bounded here: one that has added nothing (text, sources, a tool call's end) for ANSWER_IDLE_MS,
 * or has run for ANSWER_MAX_MS, is given up as a timeout. The first-text timeout (model-stream.ts)
 * does not cover a model that stalls after its first words, and the plain text path reads the
 * upstream over node:http, which has no body timeout.
 */
const ANSWER_IDLE_MS = 5 * 60_000;
const ANSWER_MAX_MS = 30 * 60_000;
const BOUND_CHECK_MS = 15_000;

/** Calls `giveUp` once the answer stalls or runs too long; returns the cancel. Nothing runs per chunk. */
function boundAnswer(s: AnswerState, giveUp: () => void): () => void {
  const started = Date.now();
  let mark = '';
  let changed = started;
  const timer = setInterval(() => {
    const now = Date.now();
    const settled = s.toolCalls.filter((c) => c.status !== 'running').length;
    const next = `${s.output.length}:${s.citations.length}:${s.toolCalls.length}:${settled}:${s.progress}`;
    if (next !== mark) [mark, changed] = [next, now];
    if (now - changed >= ANSWER_IDLE_MS || now - started >= ANSWER_MAX_MS) giveUp();
  }, BOUND_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Streams the answer and stores it as it streams. The upstream is asked at once, while the statement
 * that charges and stores the message runs (`p.commit`); nothing reaches the client before that
 * statement has committed. If it refuses (points, plan, login, a database failure), the upstream
 * request is aborted, nothing is stored, and this rejects with the refusal before anything was
 * written, so the route answers it as an ordinary envelope. Otherwise resolves when the stream has
 * ended and its outcome is stored. A stop (by the user or a shutdown) ends it with
 * that reason; a failure ends it with the Code of the one failure mapping (server/core/failures.ts).
 * A client that goes away does not stop it: it is finished, stored and charged as usual, and any
 * surface of the user may follow it meanwhile (ResumeMessage, chat/resume.ts).
 */
export async function streamChatAnswer(ctx: AppContext, stream: EventStream, p: PreparedMessage, lang: Language, req: AnswerRequest): Promise<void> {
  const { send } = stream;
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
  const live = createLiveAnswer(ctx, { ...data });
  const finished = registerRunningStream(ctx, p.messageId, stop, live);
  // The statement starts on the next turn of the event loop: the upstream request goes out on this one,
  // so building the statement and its round trip do not delay the request (bench/README.md#proxy-overhead).
  const committed = nextTurn().then(() => p.commit());
  const store = createAnswerStore(ctx, p.messageId, committed);
  const s = answerState(ctx, p, lang, { send, store, live, data, signal: controller.signal, stored: committed });
  live.track(s);
  let timedOut: UpstreamFailure | null = null;
  const unbound = boundAnswer(s, () => {
    if (stopReason || timedOut) return;
    timedOut = new UpstreamFailure('timeout', 'the answer stalled or ran too long');
    controller.abort(timedOut);
  });
  send(chatEvent(Codes.Success, '', data));
  const rounds: Promise<RoundsOutcome> = runAnswerRounds(s).then(
    (finish) => ({ finish }),
    (error: unknown) => ({ error }),
  );
  try {
    await committed;
  } catch (err) {
    // Refused: the upstream request is cut at once and nothing of it is kept.
    stop(ChatFinishReasons.error);
    await rounds;
    unbound();
    store.discard();
    finished();
    throw err;
  }
  stream.open({ 'server-timing': `prepare;dur=${req.prepareMs.toFixed(2)}, store;dur=${p.storeMs.toFixed(2)}, wait;dur=${stream.waitedMs().toFixed(2)}` });
  let outcome = await rounds;
  unbound();
  // However the rounds noticed the abort, a stalled answer ends as the timeout.
  if (timedOut && !stopReason) outcome = { error: timedOut };
  await endAnswer({ ctx, req, p, lang, s, store, live, data, stream }, outcome, stopReason);
  finished();
}

/**
 * A token-priced model's answer costs its tokens (docs/economy.md#token-pricing). Nothing metered
 * (stopped or failed before any deployment answered) keeps the hold as the message's price.
 */
function settlementOf(p: PreparedMessage, s: AnswerState): { userId: string; cost: number } | null {
  const price = p.resolved.model.tokenPrice;
  if (!price || !s.metering.deploymentId) return null;
  return { userId: p.userId, cost: tokenCost(price, s.metering) };
}

/**
 * A flat-priced answer the model broke off is a failed use: its hold goes back, whatever text it had
 * shown (docs/economy.md#cut-off-answers). A token-priced one is settled on the tokens the user got.
 */
function failedFlat(p: PreparedMessage, failure: Failure): boolean {
  return !!failure.cutOff && !p.resolved.model.tokenPrice;
}

/** Stores the outcome and sends the last event (with the failure's Code, if any), then DONE. */
async function endAnswer(
  a: { ctx: AppContext; req: AnswerRequest; p: PreparedMessage; lang: Language; s: AnswerState; store: AnswerStore; live: LiveAnswer; data: ChatStreamData; stream: EventStream },
  outcome: RoundsOutcome,
  stopReason: string | null,
): Promise<void> {
  const { req, p, s, data, stream } = a;
  let finishReason: string = stopReason ?? ChatFinishReasons.stop;
  let failure: (Failure & { detail: string }) | null = null;
  if ('finish' in outcome) finishReason = stopReason ?? outcome.finish ?? ChatFinishReasons.stop;
  else if (!stopReason) {
    const err = outcome.error;
    finishReason = ChatFinishReasons.error;
    failure = { ...failureOf(err, req.id, s.output !== ''), detail: err instanceof Error ? err.message : String(err) };
    if (failure.serverFault) req.log.error({ err, messageId: p.messageId }, 'answering a message failed');
  }
  await a.store.finish({
    output: s.output,
    finishReason,
    errorDetail: failure?.detail ?? null,
    aiModelId: s.modelId,
    modelName: s.modelName,
    citations: s.citations,
    toolCalls: s.toolCalls,
    pointsCost: p.resolved.model.pointsCost + s.toolPoints,
    refund: failure && (!s.output || failedFlat(p, failure)) ? { userId: p.userId, points: p.resolved.model.pointsCost } : null,
    settle: settlementOf(p, s),
    metering: s.metering,
  });
  // Stored: readers on other surfaces end now, those elsewhere reading the rest from the row if they lack it.
  a.live.onEnd({
    finishReason,
    failure: failure && { code: failure.code, key: failure.key, params: failure.params },
    modelId: s.modelId,
    modelName: s.modelName,
    length: s.output.length,
  });
  Object.assign(data, { FinishReason: finishReason, ModelId: s.modelId, ModelName: s.modelName });
  const last = failure ? chatEvent(failure.code, t(a.lang, failure.key, failure.params), data) : chatEvent(Codes.Success, '', data);
  // The last event, DONE and the end of the body in one write: system calls are most of the cost per message.
  stream.end(last + DONE_EVENT);
}
