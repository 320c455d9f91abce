import { Codes } from '../../../shared/contracts/envelope.ts';
import { AUTO_MODEL_ID, type CatalogueModel } from '../../../shared/contracts/model.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { redactText } from '../../core/log-safety.ts';
import { UpstreamFailure, type UpstreamFailureKind } from '../../core/upstream-failure.ts';
import {
  openUpstreamStream,
  upstreamFailureOf,
  type ChatTurn,
  type ModelTool,
  type PartReader,
  type StreamPart,
  type ToolRound,
} from '../../providers/upstream.ts';
import type { AuthUser } from '../accounts/auth.ts';
import { MODEL_TYPE_IDS } from '../../../shared/contracts/model-type.ts';
import { chatEntries, getCatalogue, hasType, upstreamOf, vipLevelName, type CachedDeployment, type CatalogueEntry } from '../catalogue/catalogue.ts';
import { isCooling, markFailure, markSuccess } from '../catalogue/catalogue-health.ts';

/** model is the concrete model ('auto' already resolved); requestedId is what the user picked. */
export type ResolvedModel = { model: CatalogueModel; requestedId: string };
/** firstTokenMs: from sending the request to the answering deployment to its first part (metering). */
export type OpenedStream = { modelId: string; modelName: string; deploymentId: string; firstTokenMs: number; parts: AsyncIterable<StreamPart> };

/** A deployment's failed attempt, for the dashboard's errors and failovers (upstream_failures). */
export type DeploymentFailure = { deploymentId: string; aiModelId: string; error: string; failedOver: boolean };

/** Conversations shorter than this take auto's cheapest model; longer ones its largest context. */
const AUTO_LONG_CHARS = 8000;

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
 * The most conversation text, in characters, that a model the user may get for `aiModelId` can read:
 * a message's history need not be read further back (chat/prepare.ts cuts it to the chosen model's
 * window). At least AUTO_LONG_CHARS, so that auto still tells a long conversation from a short one.
 */
export async function historyBudgetChars(ctx: AppContext, aiModelId: string, charsPerToken: number): Promise<number> {
  const entries = await getCatalogue(ctx);
  const candidates = aiModelId === AUTO_MODEL_ID ? chatEntries(entries) : entries.filter((e) => e.model.aiModelId === aiModelId);
  return Math.max(AUTO_LONG_CHARS, ...candidates.map((e) => e.model.contextWindow * charsPerToken));
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
  const all = await getCatalogue(ctx);
  // Only chat models answer messages; 'auto' picks among them.
  const entries = chatEntries(all);
  if (!entries.length) throw new AppError(Codes.NoModelConfigured, 'noModelConfigured');
  if (req.aiModelId === AUTO_MODEL_ID) {
    // Auto picks among the models that may search, when the message asks for it.
    const searching = req.webSearch ? entries.filter((e) => e.model.webSearch) : entries;
    if (!searching.length) throw new AppError(Codes.BadRequest, 'modelNoWebSearch', { model: 'Auto' });
    return { model: pickAuto(ctx, searching, req.user.vipLevel, req.hasImages, req.conversationChars), requestedId: AUTO_MODEL_ID };
  }
  const entry = entryOf(all, req.aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  if (!hasType(entry.model, MODEL_TYPE_IDS.chat)) throw new AppError(Codes.ModelWrongType, 'modelNotChat', { model: entry.model.name });
  if (entry.model.minVipLevel > req.user.vipLevel) throw planRequired(entry.model);
  if (req.hasImages && !entry.model.modelMap.isImage) throw new AppError(Codes.BadRequest, 'modelNoImages', { model: entry.model.name });
  if (req.webSearch && !entry.model.webSearch) throw new AppError(Codes.BadRequest, 'modelNoWebSearch', { model: entry.model.name });
  return { model: entry.model, requestedId: req.aiModelId };
}

/** Healthy deployments first, each group by priority; cooling ones stay as a last resort. */
function attemptOrder(ctx: AppContext, deployments: CachedDeployment[]): CachedDeployment[] {
  const now = Date.now();
  const healthy = deployments.filter((d) => !isCooling(ctx, d.id, now));
  return healthy.length === deployments.length ? deployments : [...healthy, ...deployments.filter((d) => isCooling(ctx, d.id, now))];
}

async function readFirst(reader: PartReader): Promise<StreamPart> {
  const part = await reader.read();
  if (!part) throw new UpstreamFailure('busy', 'upstream stream ended before any text');
  return part;
}

async function* rest(first: StreamPart, reader: PartReader): AsyncGenerator<StreamPart> {
  let finished = first.type === 'finish';
  try {
    yield first;
    while (!finished) {
      const part = await reader.read();
      if (!part) throw new UpstreamFailure('busy', 'upstream stream ended without finishing');
      finished = part.type === 'finish';
      yield part;
    }
  } finally {
    // The consumer stopped early (or failed): release the upstream connection.
    if (!finished) reader.cancel();
  }
}

/**
 * What the user is told when no deployment answered: the one kind every attempt failed with, a
 * conversation too long for any of them, or else busy (another try may find a deployment that
 * works; the log names each failed one). A model without any enabled deployment is misconfigured.
 */
function overallFailure(kinds: UpstreamFailureKind[]): AppError {
  if (!kinds.length) return new AppError(Codes.ModelMisconfigured, 'modelMisconfigured');
  const all = (k: UpstreamFailureKind) => kinds.every((x) => x === k);
  if (kinds.includes('context-too-long')) return new AppError(Codes.ContextTooLong, 'contextTooLong');
  if (kinds.every((k) => k === 'auth' || k === 'not-found')) return new AppError(Codes.ModelMisconfigured, 'modelMisconfigured');
  if (all('timeout')) return new AppError(Codes.ModelTimeout, 'modelTimeout');
  return new AppError(Codes.ModelBusy, 'modelBusy');
}

export type ModelStreamRequest = {
  messages: ChatTurn[];
  signal: AbortSignal;
  firstTextTimeoutMs?: number;
  /** Functions the model may call; 'none' (the last round of a tool loop) makes it answer in text. */
  tools?: ModelTool[];
  toolChoice?: 'auto' | 'none';
  toolRounds?: readonly ToolRound[];
  /** Told of each failed attempt (kept in memory and stored with the answer's end: no round trip here). */
  onFailure?: (failure: DeploymentFailure) => void;
  /** The chat's parameters, clamped to the model's bounds (ParamTools); absent: not sent. */
  temperature?: number;
  maxOutputTokens?: number;
  /** Only the deployments that speak the Responses API (SendResponses), and with `deploymentIds` only those. */
  responses?: { deploymentIds: string[] | null } | null;
};

/** One deployment's try: its reader and first part, or the failure (already logged and counted). */
async function attemptDeployment(
  ctx: AppContext,
  resolved: ResolvedModel,
  deployment: CachedDeployment,
  req: ModelStreamRequest,
): Promise<{ reader: PartReader; first: StreamPart; firstTokenMs: number } | UpstreamFailure> {
  const attempt = new AbortController();
  const timer = setTimeout(
    () => attempt.abort(new UpstreamFailure('timeout', 'no text before the first-text timeout')),
    // A deployment that has not sent its first text by then is given up and the next one tried.
    req.firstTextTimeoutMs ?? ctx.config.MODEL_FIRST_TEXT_TIMEOUT_SECONDS * 1000,
  );
  let reader: PartReader | undefined;
  const started = performance.now();
  try {
    reader = await openUpstreamStream(upstreamOf(ctx, deployment), {
      messages: req.messages,
      canSeeImages: resolved.model.modelMap.isImage,
      tools: req.tools,
      toolChoice: req.toolChoice,
      toolRounds: req.toolRounds,
      temperature: req.temperature,
      maxOutputTokens: req.maxOutputTokens,
      signal: AbortSignal.any([req.signal, attempt.signal]),
    });
    const first = await readFirst(reader);
    markSuccess(ctx, deployment.id);
    return { reader, first, firstTokenMs: Math.round(performance.now() - started) };
  } catch (err) {
    reader?.cancel();
    req.signal.throwIfAborted();
    const failure = upstreamFailureOf(attempt.signal.aborted ? attempt.signal.reason : err);
    if (failure.kind !== 'request' && failure.kind !== 'context-too-long') markFailure(ctx, deployment.id);
    // The deployment by id, the status and the provider's message (scrubbed by the log): never the
    // key, the prompt or the headers.
    ctx.log.warn(
      { deploymentId: deployment.id, model: resolved.model.aiModelId, kind: failure.kind, status: failure.status, reason: failure.message },
      'deployment failed; trying the next',
    );
    return failure;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens the upstream stream with failover across the model's enabled deployments. Resolves once the
 * first text (or finish) has arrived; `parts` yields it first. The caller must iterate `parts` to the
 * end or abort `signal`, so the upstream connection is released.
 */
export async function openModelStream(ctx: AppContext, resolved: ResolvedModel, req: ModelStreamRequest): Promise<OpenedStream> {
  const entry = entryOf(await getCatalogue(ctx), resolved.model.aiModelId);
  const kinds: UpstreamFailureKind[] = [];
  const only = req.responses;
  const deployments = entry && only ? entry.deployments.filter((d) => d.protocol === 'responses' && (!only.deploymentIds || only.deploymentIds.includes(d.id))) : entry?.deployments;
  const order = deployments ? attemptOrder(ctx, deployments) : [];
  for (const [i, deployment] of order.entries()) {
    req.signal.throwIfAborted();
    const outcome = await attemptDeployment(ctx, resolved, deployment, req);
    if (outcome instanceof UpstreamFailure) {
      kinds.push(outcome.kind);
      // Stored for operators: scrubbed of key-like strings as the log is.
      const error = redactText(`${outcome.kind}${outcome.status ? ` ${outcome.status}` : ''}: ${outcome.message}`).slice(0, 500);
      req.onFailure?.({ deploymentId: deployment.id, aiModelId: resolved.model.aiModelId, error, failedOver: i < order.length - 1 });
      continue;
    }
    const { aiModelId, name } = resolved.model;
    return { modelId: aiModelId, modelName: name, deploymentId: deployment.id, firstTokenMs: outcome.firstTokenMs, parts: rest(outcome.first, outcome.reader) };
  }
  throw overallFailure(kinds);
}
