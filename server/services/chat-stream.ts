import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import {
  ChatFinishReasons,
  type AddMessageBody,
  type ChatCitation,
  type ChatStreamData,
  type ChatStreamExtras,
  type ChatToolCall,
} from '../../shared/contracts/chat.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { Codes, type Code } from '../../shared/contracts/envelope.ts';
import type { AppContext } from '../context.ts';
import { chatMessages } from '../db/schema/chat.ts';
import { AppError } from '../http/errors.ts';
import { t, type MessageKey } from '../http/i18n.ts';
import type { AuthUser } from './auth.ts';
import { sessionDescribeFrom, sessionTitleFrom } from './chat-sessions.ts';
import { runToolCall, toolsOf, type ToolScope } from './chat-tools.ts';
import { openModelStream, resolveModel, type ChatTurn, type ResolvedModel, type StreamPart, type ToolRound } from './model-stream.ts';
import { imageOfMedia, loadOwnMedia, withAttachments, type AttachedMedia } from './media.ts';
import { loadMessagePlugins, type MessagePlugin } from './plugins.ts';
import { chargeCtes, refundPoints } from './points.ts';
import { citationsOf, readSources, requireSearchProvider, searchWeb, sourcesPreamble } from './web-search.ts';

/** Streamed text reaches the database at least this often, or sooner when this much is pending. */
const FLUSH_MS = 500;
const FLUSH_BYTES = 4096;
/** A running stream touches its row this often, so recovery can tell it from a dead one. */
const HEARTBEAT_MS = 30_000;
/** An unfinished message untouched for this long belongs to an instance that died. */
const STALE_MS = 120_000;
const RECOVERY_INTERVAL_MS = 60_000;
/** Upper bound of history read per message; the model's context window cuts it further. */
const HISTORY_MAX_CHARS = 2_000_000;
/** Characters per token, roughly, to fit history into a context window given in tokens. */
const CHARS_PER_TOKEN = 3;
/** Of the model's context, the share the pages of a web-searched message may take. */
const SOURCES_SHARE_OF_CONTEXT = 0.3;
/** Rounds of tool calls one answer may make; the round after the last must answer in text. */
const MAX_TOOL_ROUNDS = 4;

const STOP_CHANNEL = 'chat-stop';

export type PreparedMessage = {
  messageId: string;
  sessionId: string;
  userId: string;
  input: string;
  resolved: ResolvedModel;
  turns: ChatTurn[];
  /** Search the web for the input first and give the model the pages as numbered sources. */
  webSearch: boolean;
  /** Function plugins the model may call while answering. */
  plugins: MessagePlugin[];
  /** Milliseconds the statement that charges and stores the message took (Server-Timing). */
  storeMs: number;
};

type RunningStream = { stop(reason: string): void; done: Promise<void> };

/** Streams running in one app instance, by message id. Per instance, so two apps in one process stay apart. */
const running = new WeakMap<AppContext, Map<string, RunningStream>>();
function runningIn(ctx: AppContext): Map<string, RunningStream> {
  let map = running.get(ctx);
  if (!map) running.set(ctx, (map = new Map()));
  return map;
}

type HistoryRow = { input: string; output: string; mediaIds: string[] };

/**
 * The caller's session (null when it is not theirs) with its latest finished exchanges, newest first,
 * in one round trip.
 */
async function loadSession(ctx: AppContext, userId: string, sessionId: string): Promise<HistoryRow[] | null> {
  const result = await ctx.db.execute<{ history: HistoryRow[] | string }>(sql`
    select coalesce((
      select json_agg(json_build_object('input', h.input_message, 'output', h.output_message, 'mediaIds', h.media_ids) order by h.created_at desc, h.id desc)
      from (
        select m.id, m.created_at, m.input_message, m.output_message, m.media_ids,
          sum(length(m.input_message) + length(m.output_message)) over (order by m.created_at desc, m.id desc) as running
        from chat_messages m
        where m.session_id = s.id and m.finish_reason is not null and m.output_message <> ''
      ) h
      where h.running - length(h.input_message) - length(h.output_message) < ${HISTORY_MAX_CHARS}
    ), '[]'::json) as history
    from chat_sessions s where s.id = ${sessionId} and s.user_id = ${userId}`);
  const row = result.rows[0];
  if (!row) return null;
  return typeof row.history === 'string' ? (JSON.parse(row.history) as HistoryRow[]) : row.history;
}

/** Of the model's context, the share attached pages and files may take in one message. */
const PAGE_SHARE_OF_CONTEXT = 0.6;

/**
 * The newest exchanges that fit the model's context (roughly), oldest first, then the new input; each
 * user message with the pages and files attached to it (the caller's own, from `media`). The new
 * input carries its images; earlier messages name theirs in a note (they are not sent again).
 */
function buildTurns(
  history: HistoryRow[],
  input: { text: string; mediaIds: string[]; images: NonNullable<ChatTurn['images']> },
  media: Map<string, AttachedMedia>,
  contextWindow: number,
): ChatTurn[] {
  const contextChars = contextWindow * CHARS_PER_TOKEN;
  const pageBudget = Math.floor(contextChars * PAGE_SHARE_OF_CONTEXT);
  const userContent = (text: string, ids: string[], imageNotes: boolean) =>
    withAttachments(
      text,
      ids.flatMap((id) => media.get(id) ?? []),
      pageBudget,
      { imageNotes },
    );
  const content = userContent(input.text, input.mediaIds, false);
  let budget = contextChars - content.length;
  const turns: ChatTurn[] = [{ role: 'user', content, ...(input.images.length ? { images: input.images } : {}) }];
  for (const h of history) {
    const asked = userContent(h.input, h.mediaIds ?? [], true);
    budget -= asked.length + h.output.length;
    if (budget < 0) break;
    turns.unshift({ role: 'user', content: asked }, { role: 'assistant', content: h.output });
  }
  return turns;
}

/**
 * Everything before the upstream call: ownership, model gating, points, and the stored message.
 * Failures here are ordinary envelopes, not streams.
 */
export async function prepareChatMessage(ctx: AppContext, user: AuthUser, body: AddMessageBody): Promise<PreparedMessage> {
  // Web search that is not set up, and plugins that are off, are refused before anything is charged.
  if (body.webSearch) requireSearchProvider(ctx);
  const plugins = body.pluginIds?.length ? await loadMessagePlugins(ctx, body.pluginIds) : [];
  const history = body.chatSessionId ? await loadSession(ctx, user.id, body.chatSessionId) : [];
  if (!history) throw new AppError(Codes.NotFound, 'notFound');
  // Attached media must be the caller's own; the history's are looked up in the same query.
  const media = await loadOwnMedia(ctx, user.id, [...body.chatMediaIds, ...history.flatMap((h) => h.mediaIds ?? [])]);
  if (body.chatMediaIds.some((id) => !media.has(id))) throw new AppError(Codes.NotFound, 'notFound');
  const attachedChars = body.chatMediaIds.reduce((n, id) => n + (media.get(id)?.contentText.length ?? 0), 0);
  const conversationChars = history.reduce((n, h) => n + h.input.length + h.output.length, body.inputMessage.length + attachedChars);
  // Attached images need a vision model: 'auto' picks one, and a model that cannot see refuses (modelNoImages).
  const attachedImages = body.chatMediaIds.flatMap((id) => (media.get(id)?.mediaType === 'image' ? [media.get(id)!] : []));
  const hasImages = attachedImages.length > 0;
  const resolved = await resolveModel(ctx, { user, aiModelId: body.aiModelId, hasImages, conversationChars, webSearch: !!body.webSearch });
  const { model } = resolved;
  // Read (and scaled down) before anything is charged: a missing image is an ordinary refusal.
  const images = await Promise.all(attachedImages.map((m) => imageOfMedia(ctx, m)));

  const messageId = randomUUID();
  const cost = model.pointsCost;
  const sessionId = body.chatSessionId ?? randomUUID();
  const describe = sessionDescribeFrom(body.inputMessage);
  const messageValues = sql`${messageId}, s.id, ${user.id}, ${body.inputMessage}, ${JSON.stringify(body.chatMediaIds)}::jsonb,
    ${resolved.requestedId}, ${model.aiModelId}, ${model.name}, ${cost}`;
  const ifCharged = sql`exists (select 1 from charged)`;
  // One statement (one round trip, one commit) takes the points, creates or touches the session and
  // stores the message, before the upstream is called.
  const storeStarted = performance.now();
  const result = await ctx.db.execute<{ charged: boolean; message_id: string | null }>(sql`
    with ${chargeCtes(user.id, cost, ctx.config.FREE_DAILY_POINTS, { reason: 'chat', refId: messageId })},
    s as (${
      body.chatSessionId
        ? sql`update chat_sessions set last_active_at = now(), describe = ${describe}
              where id = ${sessionId} and user_id = ${user.id} and ${ifCharged} returning id`
        : sql`insert into chat_sessions (id, user_id, title, describe)
              select ${sessionId}, ${user.id}, ${sessionTitleFrom(body.inputMessage)}, ${describe} where ${ifCharged} returning id`
    }),
    m as (
      insert into chat_messages (id, session_id, user_id, input_message, media_ids, requested_model_id, ai_model_id, model_name, points_cost)
      select ${messageValues} from s returning id
    )
    select ${ifCharged} as charged, (select id from m) as message_id`);
  const storeMs = performance.now() - storeStarted;
  const { charged, message_id: inserted } = result.rows[0];
  if (!charged) throw new AppError(Codes.NotEnoughPoints, 'notEnoughPoints');
  if (!inserted) {
    // The session was deleted since it was checked.
    await refundPoints(ctx.db, user.id, cost, { reason: 'chat-refund', refId: messageId });
    throw new AppError(Codes.NotFound, 'notFound');
  }
  return {
    messageId,
    sessionId,
    userId: user.id,
    input: body.inputMessage,
    resolved,
    turns: buildTurns(history, { text: body.inputMessage, mediaIds: body.chatMediaIds, images }, media, model.contextWindow),
    webSearch: !!body.webSearch,
    plugins,
    storeMs,
  };
}

const event = (code: number, msg: string, data: ChatStreamData & ChatStreamExtras) =>
  `data: ${JSON.stringify({ Code: code, Msg: msg, Data: data })}\n\n`;

/**
 * The event of one piece of text. Everything but the text is the same for a whole stream (and the
 * input may be 32k characters), so it is encoded once, not per chunk.
 */
function textEvents(d: ChatStreamData): (text: string) => string {
  const j = JSON.stringify;
  const head = `data: {"Code":${Codes.Success},"Msg":"","Data":{"ChatMessageId":${j(d.ChatMessageId)},"ChatSessionId":${j(d.ChatSessionId)},"InputMessage":${j(d.InputMessage)},"OutputMessage":`;
  const tail = `,"FinishReason":null,"ModelName":${j(d.ModelName)},"ModelId":${j(d.ModelId)},"ReplaceMessage":false}}\n\n`;
  return (text) => head + j(text) + tail;
}

/** A high surrogate at the end would be stored as U+FFFD, breaking the emoji its next chunk completes. */
const endsInsidePair = (text: string) => {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
};

/**
 * Answers the prepared message as `text/event-stream` and stores the answer as it streams. Resolves
 * when the stream has ended and its outcome is stored.
 */
export async function streamChatAnswer(ctx: AppContext, reply: FastifyReply, p: PreparedMessage, lang: Language): Promise<void> {
  const raw = reply.raw;
  // Headers set so far (CORS, a renewed Authorization) would be lost by writing the raw response alone.
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined));
  reply.hijack();
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  raw.on('error', () => {});

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
  const send = (chunk: string) => {
    if (!raw.destroyed) raw.write(chunk);
  };

  const controller = new AbortController();
  let stopReason: string | null = null;
  const stop = (reason: string) => {
    if (stopReason) return;
    stopReason = reason;
    controller.abort(new Error(reason));
  };
  let finished!: () => void;
  const streams = runningIn(ctx);
  streams.set(p.messageId, { stop, done: new Promise<void>((r) => (finished = r)) });
  const onClose = () => {
    if (!raw.writableFinished) stop(ChatFinishReasons.clientDisconnected);
  };
  raw.on('close', onClose);

  const db = ctx.db;
  const rowOf = eq(chatMessages.id, p.messageId);
  let output = '';
  let pending = '';
  let lastWrite = Date.now();
  let writes = Promise.resolve();
  const flush = () => {
    const keep = endsInsidePair(pending) ? 1 : 0;
    const piece = pending.slice(0, pending.length - keep);
    pending = pending.slice(pending.length - keep);
    lastWrite = Date.now();
    writes = writes
      .then(() =>
        db
          .update(chatMessages)
          .set({ outputMessage: sql`${chatMessages.outputMessage} || ${piece}`, updatedAt: sql`now()` })
          .where(rowOf),
      )
      .then(
        () => {},
        (err: unknown) => ctx.log.error({ err, messageId: p.messageId }, 'storing streamed text failed'),
      );
  };
  const timer = setInterval(() => {
    if (pending || Date.now() - lastWrite >= HEARTBEAT_MS) flush();
  }, FLUSH_MS);

  // Sources (web search) and tool calls: sent whole each time they change, and stored as they do.
  const citations: ChatCitation[] = [];
  const toolCalls: ChatToolCall[] = [];
  let toolPoints = 0;
  const sendExtras = () => {
    // A web-searched answer always says what it found, even nothing.
    const extras = { ...(p.webSearch || citations.length ? { Citations: citations } : {}), ...(toolCalls.length ? { ToolCalls: toolCalls } : {}) };
    send(event(Codes.Success, '', { ...data, ...extras }));
    const values = { citations: [...citations], toolCalls: [...toolCalls] };
    writes = writes
      .then(() => db.update(chatMessages).set(values).where(rowOf))
      .then(
        () => {},
        (err: unknown) => ctx.log.error({ err, messageId: p.messageId }, 'storing citations or tool calls failed'),
      );
  };
  const toolScope: ToolScope = {
    ctx,
    userId: p.userId,
    messageId: p.messageId,
    lang,
    signal: controller.signal,
    contextWindow: p.resolved.model.contextWindow,
    citations,
  };
  /** Runs one round's calls in parallel; waits for all of them, so none outlives a stop. */
  const runCalls = async (calls: Extract<StreamPart, { type: 'tool-call' }>[]): Promise<ToolRound['results']> => {
    const settled = await Promise.allSettled(
      calls.map(async (call) => {
        const { toolCallId, toolName, input } = call;
        const slot = toolCalls.push({ toolCallId, toolName, input, status: 'running', output: '', images: [] }) - 1;
        sendExtras();
        const outcome = await runToolCall(toolScope, p.plugins.find((x) => x.toolName === call.toolName), call);
        toolCalls[slot] = outcome.call;
        toolPoints += outcome.charged;
        sendExtras();
        return { toolCallId: call.toolCallId, toolName: call.toolName, output: outcome.modelOutput, isError: outcome.isError };
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<ToolRound['results'][number]>).value);
  };

  let finishReason: string = ChatFinishReasons.stop;
  let failure: { code: Code; key: MessageKey; detail: string } | null = null;
  try {
    send(event(Codes.Success, '', data));
    let turns = p.turns;
    if (p.webSearch) {
      const results = await searchWeb(ctx, p.input, controller.signal);
      const budgetChars = Math.floor(p.resolved.model.contextWindow * CHARS_PER_TOKEN * SOURCES_SHARE_OF_CONTEXT);
      const sources = await readSources(ctx, results, { signal: controller.signal, budgetChars });
      citations.push(...citationsOf(sources));
      sendExtras();
      turns = [{ role: 'system', content: sourcesPreamble(sources) }, ...turns];
    }
    const tools = p.plugins.length ? toolsOf(p.plugins) : undefined;
    const rounds: ToolRound[] = [];
    for (let round = 0; ; round++) {
      const lastRound = round === MAX_TOOL_ROUNDS;
      const opened = await openModelStream(ctx, p.resolved, {
        messages: turns,
        signal: controller.signal,
        ...(tools ? { tools, toolRounds: rounds, toolChoice: lastRound ? 'none' : 'auto' } : {}),
      });
      data.ModelId = opened.modelId;
      data.ModelName = opened.modelName;
      const textEvent = textEvents(data);
      let upstreamFinish: string | null = null;
      const calls: Extract<StreamPart, { type: 'tool-call' }>[] = [];
      let said = '';
      for await (const part of opened.parts) {
        if (part.type === 'finish') {
          upstreamFinish = part.reason;
          continue;
        }
        if (part.type === 'tool-call') {
          calls.push(part);
          continue;
        }
        if (!part.text) continue;
        // Text after a round of tool calls starts a paragraph of its own.
        const text = round > 0 && !said && output && !/\s$/.test(output) ? `\n\n${part.text}` : part.text;
        output += text;
        pending += text;
        if (tools) said += text;
        send(textEvent(text));
        if (pending.length >= FLUSH_BYTES) flush();
      }
      // A provider that ends its answer in error (Gemini's MALFORMED_FUNCTION_CALL) failed like any other.
      if (upstreamFinish === 'error') throw new Error('the model ended its answer with an error');
      if (!calls.length || lastRound) {
        // A model that still asks for tools after the last round has answered what it could.
        finishReason = stopReason ?? (upstreamFinish === 'tool-calls' ? null : upstreamFinish) ?? ChatFinishReasons.stop;
        break;
      }
      rounds.push({ text: said, calls, results: await runCalls(calls) });
    }
  } catch (err) {
    if (stopReason) finishReason = stopReason;
    else {
      finishReason = ChatFinishReasons.error;
      failure =
        err instanceof AppError
          ? { code: err.code, key: err.key, detail: err.message }
          : { code: Codes.ModelBusy, key: 'modelBusy', detail: err instanceof Error ? err.message : String(err) };
    }
  } finally {
    clearInterval(timer);
    raw.off('close', onClose);
  }

  try {
    await writes;
    await db
      .update(chatMessages)
      .set({
        outputMessage: output,
        finishReason,
        errorMessage: failure?.detail ?? null,
        aiModelId: data.ModelId,
        modelName: data.ModelName,
        updatedAt: sql`now()`,
        finishedAt: sql`now()`,
        ...(citations.length ? { citations } : {}),
        ...(toolCalls.length
          ? {
              // A call cut short by a stop did not finish.
              toolCalls: toolCalls.map((c) => (c.status === 'running' ? { ...c, status: 'error' as const, output: finishReason } : c)),
              pointsCost: p.resolved.model.pointsCost + toolPoints,
            }
          : {}),
      })
      .where(rowOf);
    if (failure && !output) {
      await refundPoints(db, p.userId, p.resolved.model.pointsCost, { reason: 'chat-refund', refId: p.messageId });
    }
  } catch (err) {
    ctx.log.error({ err, messageId: p.messageId }, 'storing the end of a stream failed');
  } finally {
    streams.delete(p.messageId);
    finished();
  }

  if (finishReason === ChatFinishReasons.clientDisconnected) {
    raw.destroy();
    return;
  }
  data.FinishReason = finishReason;
  send(failure ? event(failure.code, t(lang, failure.key), data) : event(Codes.Success, '', data));
  send('data: DONE\n\n');
  raw.end();
}

/** Stops a stream running in this instance; false when it runs elsewhere or has ended. */
function stopLocal(ctx: AppContext, messageId: string, reason: string): boolean {
  const stream = runningIn(ctx).get(messageId);
  stream?.stop(reason);
  return !!stream;
}

/** Stops the caller's message wherever its stream runs (here, or in another instance through the bus). */
export async function stopChatMessage(ctx: AppContext, userId: string, messageId: string): Promise<void> {
  const own = await ctx.db
    .select({ id: chatMessages.id, finishReason: chatMessages.finishReason })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId)));
  if (own.length === 0) throw new AppError(Codes.NotFound, 'notFound');
  if (own[0].finishReason !== null) return;
  if (!stopLocal(ctx, messageId, ChatFinishReasons.userStopped)) await ctx.bus.publish(STOP_CHANNEL, messageId);
}

/** Marks unfinished messages whose instance died: untouched for `staleMs`, or all of them when null. */
async function markInterrupted(ctx: AppContext, staleMs: number | null): Promise<number> {
  const marked = await ctx.db
    .update(chatMessages)
    .set({ finishReason: ChatFinishReasons.interrupted, finishedAt: sql`now()` })
    .where(
      and(
        isNull(chatMessages.finishReason),
        staleMs === null ? undefined : lt(chatMessages.updatedAt, sql`now() - make_interval(secs => ${staleMs / 1000})`),
      ),
    )
    .returning({ id: chatMessages.id });
  return marked.length;
}

/**
 * At start-up: a message left unfinished by a crash ends as 'interrupted'. PGlite runs in one process,
 * so every unfinished message there is a dead one; on PostgreSQL other instances may be streaming.
 */
export async function recoverInterruptedMessages(ctx: AppContext): Promise<void> {
  const n = await markInterrupted(ctx, ctx.database.kind === 'pglite' ? null : STALE_MS);
  if (n > 0) ctx.log.warn({ count: n }, 'marked interrupted chat messages');
}

/**
 * While the instance runs: obey stops published by other instances and sweep messages of instances
 * that died. Returns the shutdown, which stops this instance's streams as 'interrupted' and waits
 * until they are stored.
 */
export function startChatBackground(ctx: AppContext): () => Promise<void> {
  const unsubscribe = ctx.bus.subscribe(STOP_CHANNEL, (id) => void stopLocal(ctx, id, ChatFinishReasons.userStopped));
  const sweep = setInterval(() => {
    markInterrupted(ctx, STALE_MS).catch((err: unknown) => ctx.log.error({ err }, 'sweeping interrupted chat messages failed'));
  }, RECOVERY_INTERVAL_MS);
  sweep.unref();
  return async () => {
    unsubscribe();
    clearInterval(sweep);
    const streams = [...runningIn(ctx).values()];
    for (const s of streams) s.stop(ChatFinishReasons.interrupted);
    await Promise.all(streams.map((s) => s.done));
  };
}
