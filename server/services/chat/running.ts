import { and, eq } from 'drizzle-orm';
import { ChatFinishReasons } from '../../../shared/contracts/chat.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { AppError } from '../../core/errors.ts';
import type { LiveAnswer } from './live-answer.ts';

/**
 * The answers streaming in this instance, and how they are stopped: by their user (StopMessage, on
 * any instance: the stop travels over the bus) or by a shutdown. Answers of an instance that died
 * are ended by the crash recovery of instances.ts.
 */

const STOP_CHANNEL = 'chat-stop';

/** `live` lets readers on other surfaces follow the answer (chat/resume.ts). */
type RunningStream = { stop(reason: string): void; done: Promise<void>; live?: LiveAnswer };

/** Streams running in one app instance, by message id. Per instance, so two apps in one process stay apart. */
const running = new WeakMap<AppContext, Map<string, RunningStream>>();
function runningIn(ctx: AppContext): Map<string, RunningStream> {
  let map = running.get(ctx);
  if (!map) running.set(ctx, (map = new Map()));
  return map;
}

/** Registers a stream so it can be stopped; call the returned function once its outcome is stored. */
export function registerRunningStream(ctx: AppContext, messageId: string, stop: (reason: string) => void, live?: LiveAnswer): () => void {
  let finished!: () => void;
  const streams = runningIn(ctx);
  streams.set(messageId, { stop, done: new Promise<void>((r) => (finished = r)), live });
  return () => {
    streams.delete(messageId);
    finished();
  };
}

/** The answer of `messageId` if it streams in this instance. */
export const liveAnswerOf = (ctx: AppContext, messageId: string): LiveAnswer | undefined => runningIn(ctx).get(messageId)?.live;

/** Instances that are shutting down: they start no new answers and tell the health check so. */
const draining = new WeakSet<AppContext>();

export const isDraining = (ctx: AppContext) => draining.has(ctx);

/** A new message on an instance that is shutting down: refused, so the client retries on another. */
export function refuseWhileDraining(ctx: AppContext): void {
  if (draining.has(ctx)) throw new AppError(Codes.ServerError, 'shuttingDown');
}

/**
 * The first half of a graceful shutdown: new messages are refused and the health check answers 503,
 * while the answers already running get up to `graceMs` to finish. Resolves with how many were
 * still running then; the close that follows ends those as interrupted, their text stored.
 */
export async function drainRunningStreams(ctx: AppContext, graceMs: number): Promise<number> {
  draining.add(ctx);
  const streams = [...runningIn(ctx).values()];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all(streams.map((s) => s.done)), deadline]);
  clearTimeout(timer);
  return runningIn(ctx).size;
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

/**
 * While the instance runs: obey stops published by other instances. Returns the shutdown, which
 * stops this instance's streams as 'interrupted' and waits until they are stored.
 */
export function startChatBackground(ctx: AppContext): () => Promise<void> {
  const unsubscribe = ctx.bus.subscribe(STOP_CHANNEL, (id) => void stopLocal(ctx, id, ChatFinishReasons.userStopped));
  return async () => {
    unsubscribe();
    const streams = [...runningIn(ctx).values()];
    for (const s of streams) s.stop(ChatFinishReasons.interrupted);
    await Promise.all(streams.map((s) => s.done));
  };
}
