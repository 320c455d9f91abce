import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ChatFinishReasons,
  ChatToolCallSchema,
  type ChatCitation,
  type ChatStreamData,
  type ChatStreamExtras,
  type ResumeMessageQuery,
} from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { EventStream } from '../../core/event-stream.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { AppError } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { chatEvent, DONE_EVENT, textEvents } from './events.ts';
import { extrasOf, LIVE_CHANNEL, LiveMessageSchema, WATCH_CHANNEL, WatchSchema, type AnswerEnd, type LiveAnswer, type LiveMessage } from './live-answer.ts';
import { liveAnswerOf } from './running.ts';

/**
 * Following an answer that is being written, from any surface of its user (ResumeMessage): the side
 * panel closed, the chat opened on the web app or a phone, a connection that dropped. The answer
 * itself runs on to its end whoever listens (chat/stream.ts); a reader gets the text from its
 * offset and then the rest live, in AddMessage's event format, ending with the last event and DONE.
 *
 * In the instance that runs the answer, a reader listens to it in memory (`LiveAnswer`, kept in the
 * registry of chat/running.ts). In another instance, a reader starts from the stored text (a prefix
 * of the answer, stored every 500 ms by chat/answer-store.ts) and asks the owner over the bus to
 * publish the answer's new text (a "watch", renewed while the reader stays). The owner publishes
 * pieces with their start offsets, so the reader drops what it has and, on a gap, asks again from
 * where it is. An answer nobody watches publishes nothing: the hot path only checks a number.
 * The end is published once stored; a reader also looks at the row every few seconds, which ends it
 * when the owner died (the message is then marked interrupted) or a bus message was lost.
 * Offsets are UTF-16 code units, as the client counts OutputMessage.length.
 */

/** A reader elsewhere renews its watch and looks at the stored row this often. */
const POLL_MS = 2_000;
/** A gap asks for the text again at most this often. */
const GAP_RETRY_MS = 1_000;
/** Nobody follows longer than this; an answer is given up well before (chat/stream.ts). */
const MAX_FOLLOW_MS = 40 * 60_000;

/** AddMessage's events for one answer (chat/events.ts), as a reader gets them. */
function eventsOf(data: ChatStreamData) {
  const event = (code: number, msg: string, fields: Partial<ChatStreamData>, extras: ChatStreamExtras = {}) =>
    chatEvent(code, msg, { ...data, ...fields, ReplaceMessage: false, ...extras });
  /** Text with the sources and tool calls so far. */
  const withExtras = (text: string, modelId: string, modelName: string, extras: ChatStreamExtras) =>
    event(Codes.Success, '', { OutputMessage: text, FinishReason: null, ModelId: modelId, ModelName: modelName }, extras);
  return {
    text: textEvents(data),
    /** The first event: the text from the reader's offset, with the sources and tool calls so far. */
    opening: withExtras,
    extras: (modelId: string, modelName: string, extras: ChatStreamExtras) => withExtras('', modelId, modelName, extras),
    /** The last event (with the failure's Code and message, in the reader's language), then DONE. */
    last(end: Omit<AnswerEnd, 'length'>, lang: Language): string {
      const fields = { OutputMessage: '', FinishReason: end.finishReason, ModelId: end.modelId, ModelName: end.modelName };
      const f = end.failure;
      return (f ? event(f.code, t(lang, f.key, f.params), fields) : event(Codes.Success, '', fields)) + DONE_EVENT;
    },
  };
}

const beyond = (length: number) => new AppError(Codes.BadRequest, 'resumeOffsetBeyond', { length });

type MessageRow = {
  id: string;
  sessionId: string;
  inputMessage: string;
  outputMessage: string;
  finishReason: string | null;
  aiModelId: string | null;
  requestedModelId: string;
  modelName: string | null;
  citations: ChatCitation[];
  toolCalls: unknown[];
};

const rowColumns = {
  id: chatMessages.id,
  sessionId: chatMessages.sessionId,
  inputMessage: chatMessages.inputMessage,
  outputMessage: chatMessages.outputMessage,
  finishReason: chatMessages.finishReason,
  aiModelId: chatMessages.aiModelId,
  requestedModelId: chatMessages.requestedModelId,
  modelName: chatMessages.modelName,
  citations: chatMessages.citations,
  toolCalls: chatMessages.toolCalls,
};

const toolCallsOf = (row: MessageRow) => ChatToolCallSchema.array().catch([]).parse(row.toolCalls);

/**
 * ResumeMessage: the caller's answer `chatMessageId` from `offset` on, then live to its end. Refusals
 * (not the caller's message, an offset past the text) come before the stream, as an envelope.
 */
export async function resumeChatAnswer(ctx: AppContext, out: EventStream, userId: string, q: ResumeMessageQuery, lang: Language): Promise<void> {
  const [row] = await ctx.db
    .select(rowColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.id, q.chatMessageId), eq(chatMessages.userId, userId)));
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  const live = liveAnswerOf(ctx, row.id);
  if (live) return followHere(out, live, q.offset, lang);
  const data: ChatStreamData = {
    ChatMessageId: row.id,
    ChatSessionId: row.sessionId,
    InputMessage: row.inputMessage,
    OutputMessage: '',
    FinishReason: null,
    ModelName: row.modelName ?? '',
    ModelId: row.aiModelId ?? row.requestedModelId,
    ReplaceMessage: false,
  };
  if (row.finishReason !== null) {
    if (q.offset > row.outputMessage.length) throw beyond(row.outputMessage.length);
    const events = eventsOf(data);
    out.open();
    out.send(events.opening(row.outputMessage.slice(q.offset), data.ModelId, data.ModelName, extrasOf(row.citations, toolCallsOf(row))));
    out.end(events.last({ finishReason: row.finishReason, failure: null, modelId: data.ModelId, modelName: data.ModelName }, lang));
    return;
  }
  followElsewhere(ctx, out, { row, data, offset: q.offset, lang });
}

/** The answer runs in this instance: from memory, every piece as it comes. */
function followHere(out: EventStream, live: LiveAnswer, offset: number, lang: Language): void {
  const s = live.state();
  if (offset > s.output.length) throw beyond(s.output.length);
  const events = eventsOf(live.data);
  out.open();
  out.send(events.opening(s.output.slice(offset), s.modelId, s.modelName, extrasOf(s.citations, s.toolCalls)));
  const ended = live.ended();
  if (ended) return out.end(events.last(ended, lang));
  const unlisten = live.listen({
    text: (piece, st) => out.send(events.text(piece, st.modelId, st.modelName)),
    extras: (st) => out.send(events.extras(st.modelId, st.modelName, extrasOf(st.citations, st.toolCalls))),
    end: (e) => out.end(events.last(e, lang)),
  });
  out.onClose(unlisten);
}

/** Readers in this instance following answers that run elsewhere: by message id, and all of them (to end them at shutdown). */
type Followers = { byMessage: Map<string, Set<(m: LiveMessage) => void>>; all: Set<() => void> };
const followersOf = new WeakMap<AppContext, Followers>();

/**
 * Serves the bus for resumed answers: watches (this instance publishes an answer it runs) and pieces
 * (for its readers of answers running elsewhere). Returns the stop, which also ends those readers'
 * streams without DONE, so their clients resume on an instance that stays.
 */
export function startResumeBackground(ctx: AppContext): () => void {
  const followers: Followers = { byMessage: new Map(), all: new Set() };
  followersOf.set(ctx, followers);
  const parse = <T>(schema: z.ZodType<T>, payload: string): T | null => {
    try {
      const parsed = schema.safeParse(JSON.parse(payload));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };
  const offWatch = ctx.bus.subscribe(WATCH_CHANNEL, (payload) => {
    const w = parse(WatchSchema, payload);
    if (w) liveAnswerOf(ctx, w.m)?.watch(w.f);
  });
  const offLive = ctx.bus.subscribe(LIVE_CHANNEL, (payload) => {
    const m = parse(LiveMessageSchema, payload);
    const handlers = m && followers.byMessage.get(m.m);
    if (handlers) for (const h of handlers) h(m);
  });
  return () => {
    offWatch();
    offLive();
    for (const drop of [...followers.all]) drop();
    followersOf.delete(ctx);
  };
}

/**
 * The answer runs in another instance (or has just ended): the stored text first, then the owner's
 * pieces over the bus, until the end is published or seen in the row.
 */
function followElsewhere(ctx: AppContext, out: EventStream, f: { row: MessageRow; data: ChatStreamData; offset: number; lang: Language }): void {
  const followers = followersOf.get(ctx);
  if (!followers) throw new AppError(Codes.ServerError, 'shuttingDown');
  const { row, data, offset, lang } = f;
  const id = row.id;
  const events = eventsOf(data);
  out.open();
  let { ModelId: modelId, ModelName: modelName } = data;
  /** Text known here (UTF-16 code units from the start), and how much of it the client has. */
  let have = row.outputMessage.length;
  out.send(events.opening(offset <= have ? row.outputMessage.slice(offset) : '', modelId, modelName, extrasOf(row.citations, toolCallsOf(row))));
  let sent = Math.max(offset, have);
  /** Adds text that starts at `from`; false when it starts past what is known here (a gap). */
  const take = (from: number, piece: string): boolean => {
    if (from > have) return false;
    const fresh = piece.slice(have - from);
    if (!fresh) return true;
    const start = have;
    have += fresh.length;
    if (have > sent) {
      out.send(events.text(fresh.slice(Math.max(0, sent - start)), modelId, modelName));
      sent = have;
    }
    return true;
  };
  const watch = (from: number | null) =>
    void ctx.bus.publish(WATCH_CHANNEL, JSON.stringify({ m: id, f: from })).catch((err: unknown) => ctx.log.warn({ err, messageId: id }, 'asking for an answer over the bus failed'));
  let lastAsk = 0;
  let done = false;

  const stop = () => {
    done = true;
    clearInterval(poll);
    clearTimeout(cap);
    const handlers = followers.byMessage.get(id);
    handlers?.delete(onMessage);
    if (handlers?.size === 0) followers.byMessage.delete(id);
    followers.all.delete(drop);
  };
  /** Ends the stream without DONE: the client asks again (a shutdown, or an answer that never ends). */
  const drop = () => {
    stop();
    out.end();
  };
  /** The end: what is missing comes from the row, which holds the whole answer by now. */
  const finish = async (end: AnswerEnd | null) => {
    if (done) return;
    stop();
    if (end && have >= end.length) return out.end(events.last(end, lang));
    const [stored] = await ctx.db.select(rowColumns).from(chatMessages).where(eq(chatMessages.id, id)).catch(() => []);
    if (stored) take(0, stored.outputMessage);
    const last = end ?? {
      finishReason: stored?.finishReason ?? ChatFinishReasons.interrupted,
      failure: null,
      modelId: stored?.aiModelId ?? modelId,
      modelName: stored?.modelName ?? modelName,
    };
    out.end(events.last(last, lang));
  };
  function onMessage(m: LiveMessage) {
    if (done) return;
    if (m.k === 'text') {
      modelId = m.mi;
      modelName = m.mn;
      if (!take(m.o, m.t) && Date.now() - lastAsk >= GAP_RETRY_MS) {
        lastAsk = Date.now();
        watch(have);
      }
    } else if (m.k === 'extras') out.send(events.extras(modelId, modelName, extrasOf(m.c, m.tc)));
    else void finish(m.e);
  }
  const poll = setInterval(() => {
    watch(null);
    ctx.db
      .select({ finishReason: chatMessages.finishReason })
      .from(chatMessages)
      .where(eq(chatMessages.id, id))
      .then(
        ([r]) => void ((!r || r.finishReason !== null) && finish(null)),
        (err: unknown) => ctx.log.warn({ err, messageId: id }, 'reading a followed answer failed'),
      );
  }, POLL_MS);
  const cap = setTimeout(drop, MAX_FOLLOW_MS);
  let handlers = followers.byMessage.get(id);
  if (!handlers) followers.byMessage.set(id, (handlers = new Set()));
  handlers.add(onMessage);
  followers.all.add(drop);
  out.onClose(stop);
  // Subscribed first: the owner's answer to this watch starts with the text after the stored prefix.
  lastAsk = Date.now();
  watch(have);
}
