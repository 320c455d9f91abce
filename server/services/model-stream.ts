import { APICallError } from 'ai';
import type { JSONSchema7, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { Codes } from '../../shared/contracts/envelope.ts';
import { AUTO_MODEL_ID, type CatalogueModel } from '../../shared/contracts/model.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import type { AuthUser } from './auth.ts';
import {
  getCatalogue,
  isCooling,
  markFailure,
  markSuccess,
  upstreamOf,
  vipLevelName,
  type CachedDeployment,
  type CatalogueEntry,
} from './catalogue.ts';

/** An image a user turn shows a vision model: its bytes (already downscaled) and sniffed type. */
export type TurnImage = { mediaType: string; data: Uint8Array };
/** `images` only on user turns, and only for models whose modelMap.isImage (others never receive them). */
export type ChatTurn = { role: 'system' | 'user' | 'assistant'; content: string; images?: TurnImage[] };
/** model is the concrete model ('auto' already resolved); requestedId is what the user picked. */
export type ResolvedModel = { model: CatalogueModel; requestedId: string };
export type StreamPart =
  | { type: 'text'; text: string }
  | { type: 'finish'; reason: string }
  /** The model asks to run a tool; `input` is its arguments as JSON text. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string };
/** A function the model may call (a function plugin); inputSchema is a JSON schema of its arguments. */
export type ModelTool = { name: string; description: string; inputSchema: JSONSchema7 };
/** One round of tool use, fed back to the model after the conversation: what it said and called, then what each call returned. */
export type ToolRound = {
  text: string;
  calls: { toolCallId: string; toolName: string; input: string }[];
  results: { toolCallId: string; toolName: string; output: string; isError: boolean }[];
};
export type OpenedStream = { modelId: string; modelName: string; deploymentId: string; parts: AsyncIterable<StreamPart> };

/** Conversations shorter than this take auto's cheapest model; longer ones its largest context. */
const AUTO_LONG_CHARS = 8000;
/** A deployment that has not sent its first text by then is given up and the next one tried. */
const FIRST_TEXT_TIMEOUT_MS = 30_000;

/** Failed or busy upstream; the message is for logs, never for users. */
export class UpstreamError extends Error {}

const entryOf = (entries: CatalogueEntry[], id: string) => entries.find((e) => e.model.aiModelId === id);
const planRequired = (model: CatalogueModel) =>
  new AppError(Codes.PlanRequired, 'planRequired', { model: model.name, plan: vipLevelName(model.minVipLevel) });

function pickAuto(ctx: AppContext, entries: CatalogueEntry[], vipLevel: number, hasImages: boolean, chars: number): CatalogueModel {
  const allowed = entries.filter((e) => e.model.minVipLevel <= vipLevel);
  if (!allowed.length) throw planRequired([...entries].sort((a, b) => a.model.minVipLevel - b.model.minVipLevel)[0].model);
  const capable = hasImages ? allowed.filter((e) => e.model.modelMap.isImage) : allowed;
  if (!capable.length) {
    const better = entries.find((e) => e.model.modelMap.isImage);
    throw better ? planRequired(better.model) : new AppError(Codes.BadRequest, 'noImageModel');
  }
  const now = Date.now();
  const healthy = capable.filter((e) => e.deployments.some((d) => !isCooling(ctx, d.id, now)));
  const pool = (healthy.length ? healthy : capable).map((e) => e.model);
  const cheapest = (a: CatalogueModel, b: CatalogueModel) => a.pointsCost - b.pointsCost || a.minVipLevel - b.minVipLevel || a.sort - b.sort;
  pool.sort(chars < AUTO_LONG_CHARS ? cheapest : (a, b) => b.contextWindow - a.contextWindow || cheapest(a, b));
  return pool[0];
}

/**
 * Resolves the user's choice (a catalogue id or 'auto') to a concrete model the user may use now:
 * online, with an enabled deployment, allowed by the plan, able to read attached images and (with
 * `webSearch`) allowed to answer from web search results (its webSearch flag).
 */
export async function resolveModel(
  ctx: AppContext,
  req: { user: AuthUser; aiModelId: string; hasImages: boolean; conversationChars: number; webSearch?: boolean },
): Promise<ResolvedModel> {
  const entries = await getCatalogue(ctx);
  if (!entries.length) throw new AppError(Codes.NoModelConfigured, 'noModelConfigured');
  if (req.aiModelId === AUTO_MODEL_ID) {
    // Auto picks among the models that may search, when the message asks for it.
    const searching = req.webSearch ? entries.filter((e) => e.model.webSearch) : entries;
    if (!searching.length) throw new AppError(Codes.BadRequest, 'modelNoWebSearch', { model: 'Auto' });
    return { model: pickAuto(ctx, searching, req.user.vipLevel, req.hasImages, req.conversationChars), requestedId: AUTO_MODEL_ID };
  }
  const entry = entryOf(entries, req.aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  if (entry.model.minVipLevel > req.user.vipLevel) throw planRequired(entry.model);
  if (req.hasImages && !entry.model.modelMap.isImage) throw new AppError(Codes.BadRequest, 'modelNoImages', { model: entry.model.name });
  if (req.webSearch && !entry.model.webSearch) throw new AppError(Codes.BadRequest, 'modelNoWebSearch', { model: entry.model.name });
  return { model: entry.model, requestedId: req.aiModelId };
}

function toPrompt(messages: ChatTurn[], canSeeImages: boolean): LanguageModelV3Prompt {
  return messages.map((m) => {
    if (m.role === 'system') return { role: 'system', content: m.content };
    if (m.role === 'assistant') return { role: 'assistant', content: [{ type: 'text', text: m.content }] };
    // A model that cannot take images never receives them, whatever the caller passed.
    const images = canSeeImages ? (m.images ?? []) : [];
    return {
      role: 'user',
      content: [...images.map((i) => ({ type: 'file' as const, mediaType: i.mediaType, data: i.data })), { type: 'text', text: m.content }],
    };
  });
}

const parseInput = (input: string): unknown => {
  try {
    return JSON.parse(input);
  } catch {
    return {};
  }
};

function roundsToPrompt(rounds: readonly ToolRound[]): LanguageModelV3Prompt {
  return rounds.flatMap((r): LanguageModelV3Prompt => [
    {
      role: 'assistant',
      content: [
        ...(r.text ? [{ type: 'text' as const, text: r.text }] : []),
        ...r.calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: parseInput(c.input) })),
      ],
    },
    {
      role: 'tool',
      content: r.results.map((x) => ({
        type: 'tool-result' as const,
        toolCallId: x.toolCallId,
        toolName: x.toolName,
        output: x.isError ? { type: 'error-text' as const, value: x.output } : { type: 'text' as const, value: x.output },
      })),
    },
  ]);
}

/** Healthy deployments first, each group by priority; cooling ones stay as a last resort. */
function attemptOrder(ctx: AppContext, deployments: CachedDeployment[]): CachedDeployment[] {
  const now = Date.now();
  const healthy = deployments.filter((d) => !isCooling(ctx, d.id, now));
  return healthy.length === deployments.length ? deployments : [...healthy, ...deployments.filter((d) => isCooling(ctx, d.id, now))];
}

/** 4xx answers that blame the request, not the deployment: no cooldown (another deployment is still tried). */
const REQUEST_FAULT = new Set([400, 413, 422]);

function describe(err: unknown): { status?: number; message: string } {
  if (APICallError.isInstance(err)) return { status: err.statusCode, message: err.message };
  if (err instanceof Error) return { message: err.message };
  const inner = (err as { message?: unknown } | null)?.message;
  return { message: typeof inner === 'string' ? inner : JSON.stringify(err) };
}

/** Maps one provider part to ours; undefined for parts we do not forward (reasoning, metadata...). */
function mapPart(part: LanguageModelV3StreamPart): StreamPart | undefined {
  switch (part.type) {
    case 'text-delta':
      return part.delta ? { type: 'text', text: part.delta } : undefined;
    case 'finish':
      return { type: 'finish', reason: part.finishReason.unified };
    case 'tool-call':
      return part.providerExecuted ? undefined : { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    case 'error':
      throw part.error instanceof Error ? part.error : new UpstreamError(describe(part.error).message);
    default:
      return undefined;
  }
}

type Reader = ReadableStreamDefaultReader<LanguageModelV3StreamPart>;

async function readFirst(reader: Reader): Promise<StreamPart> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new UpstreamError('upstream stream ended before any text');
    const part = mapPart(value);
    if (part) return part;
  }
}

async function* rest(first: StreamPart, reader: Reader): AsyncGenerator<StreamPart> {
  let finished = first.type === 'finish';
  try {
    yield first;
    while (!finished) {
      const { done, value } = await reader.read();
      if (done) throw new UpstreamError('upstream stream ended without finishing');
      const part = mapPart(value);
      if (!part) continue;
      finished = part.type === 'finish';
      yield part;
    }
  } finally {
    // The consumer stopped early (or failed): release the upstream connection.
    if (!finished) reader.cancel().catch(() => {});
  }
}

/**
 * Opens the upstream stream with failover across the model's enabled deployments. Resolves once the
 * first text (or finish) has arrived; `parts` yields it first. The caller must iterate `parts` to the
 * end or abort `signal`, so the upstream connection is released.
 */
export async function openModelStream(
  ctx: AppContext,
  resolved: ResolvedModel,
  req: {
    messages: ChatTurn[];
    signal: AbortSignal;
    firstTextTimeoutMs?: number;
    /** Functions the model may call; 'none' (the last round of a tool loop) makes it answer in text. */
    tools?: ModelTool[];
    toolChoice?: 'auto' | 'none';
    toolRounds?: readonly ToolRound[];
  },
): Promise<OpenedStream> {
  const entry = entryOf(await getCatalogue(ctx), resolved.model.aiModelId);
  const turns = toPrompt(req.messages, resolved.model.modelMap.isImage);
  const prompt = req.toolRounds?.length ? [...turns, ...roundsToPrompt(req.toolRounds)] : turns;
  const tools = req.tools?.length
    ? {
        tools: req.tools.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, inputSchema: t.inputSchema })),
        toolChoice: { type: req.toolChoice ?? 'auto' },
      }
    : {};
  for (const deployment of entry ? attemptOrder(ctx, entry.deployments) : []) {
    req.signal.throwIfAborted();
    const attempt = new AbortController();
    const timer = setTimeout(
      () => attempt.abort(new UpstreamError('no text before the first-text timeout')),
      req.firstTextTimeoutMs ?? FIRST_TEXT_TIMEOUT_MS,
    );
    let reader: Reader | undefined;
    try {
      const { stream } = await upstreamOf(ctx, deployment).doStream({
        prompt,
        ...tools,
        abortSignal: AbortSignal.any([req.signal, attempt.signal]),
      });
      reader = stream.getReader();
      const first = await readFirst(reader);
      clearTimeout(timer);
      markSuccess(ctx, deployment.id);
      return { modelId: resolved.model.aiModelId, modelName: resolved.model.name, deploymentId: deployment.id, parts: rest(first, reader) };
    } catch (err) {
      clearTimeout(timer);
      reader?.cancel().catch(() => {});
      req.signal.throwIfAborted();
      const { status, message } = describe(attempt.signal.aborted ? attempt.signal.reason : err);
      if (status === undefined || !REQUEST_FAULT.has(status)) markFailure(ctx, deployment.id);
      // Only the status and message: provider errors carry the prompt and headers.
      ctx.log.warn({ deploymentId: deployment.id, model: resolved.model.aiModelId, status, reason: message }, 'deployment failed; trying the next');
    }
  }
  throw new AppError(Codes.ModelBusy, 'modelBusy');
}
