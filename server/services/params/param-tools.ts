import { and, asc, eq, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AUTO_MODEL_ID } from '../../../shared/contracts/model.ts';
import {
  DEFAULT_PARAM_BOUNDS,
  type AdminModelParams,
  type ChatParams,
  type EffectiveParams,
  type ParamBounds,
  type SaveModelParamsBody,
  type SaveSessionParamsBody,
  type SessionParams,
} from '../../../shared/contracts/param-tools.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { chatSessions } from '../../db/schema/chat.ts';
import { aiModels } from '../../db/schema/models.ts';
import type { ChatTurn } from '../../providers/upstream.ts';
import { catalogueChanged, getCatalogue } from '../catalogue/catalogue.ts';

/**
 * Model parameters (docs/api.md#model-parameters): the operator's bounds per catalogue model, the
 * values a chat stores, and what the model is sent: the stored values clamped to the answering
 * model's bounds at send time, so a chat's values stay usable after the operator narrows the bounds
 * or the chat switches models. The bounds come with the cached catalogue, the chat's values with its
 * session row: applying them costs the send path no query.
 */

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The bounds of a served model ('auto', or one not served: the defaults). From the cached catalogue. */
export async function boundsOfModel(ctx: AppContext, aiModelId: string): Promise<ParamBounds> {
  if (aiModelId === AUTO_MODEL_ID) return DEFAULT_PARAM_BOUNDS;
  const entry = (await getCatalogue(ctx)).find((e) => e.model.aiModelId === aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  return entry.paramBounds;
}

/** Refuses values outside `bounds` with a message that names the bound (10400). */
export function checkParams(params: ChatParams, bounds: ParamBounds): void {
  const { temperature, maxOutputTokens, systemPrompt } = params;
  if (temperature != null && (temperature < bounds.temperatureMin || temperature > bounds.temperatureMax)) {
    throw new AppError(Codes.BadRequest, 'paramTemperatureOutOfBounds', { min: bounds.temperatureMin, max: bounds.temperatureMax });
  }
  if (maxOutputTokens != null && maxOutputTokens > bounds.maxOutputTokensMax) {
    throw new AppError(Codes.BadRequest, 'paramMaxTokensOutOfBounds', { max: bounds.maxOutputTokensMax });
  }
  if (systemPrompt) {
    if (!bounds.systemPromptAllowed) throw new AppError(Codes.BadRequest, 'paramSystemPromptNotAllowed');
    if (systemPrompt.length > bounds.systemPromptMaxLength) {
      throw new AppError(Codes.BadRequest, 'paramSystemPromptTooLong', { max: bounds.systemPromptMaxLength });
    }
  }
}

/** The stored form: nulls for "the model's default", '' for no system prompt. */
export function normalizeParams(params: ChatParams): { temperature: number | null; maxOutputTokens: number | null; systemPrompt: string } {
  return { temperature: params.temperature ?? null, maxOutputTokens: params.maxOutputTokens ?? null, systemPrompt: params.systemPrompt?.trim() ?? '' };
}

/**
 * What the model is sent: the chat's values (or the model's defaults) clamped to its bounds; a system
 * prompt the model no longer allows is dropped, one now too long is cut. Nothing set: nothing sent.
 */
export function effectiveParams(params: ChatParams | null | undefined, bounds: ParamBounds): EffectiveParams {
  const out: EffectiveParams = {};
  const temperature = params?.temperature ?? bounds.temperatureDefault;
  if (temperature != null) out.temperature = clamp(temperature, bounds.temperatureMin, bounds.temperatureMax);
  const tokens = params?.maxOutputTokens ?? bounds.maxOutputTokensDefault;
  if (tokens != null) out.maxOutputTokens = clamp(tokens, 1, bounds.maxOutputTokensMax);
  const prompt = params?.systemPrompt?.trim();
  if (prompt && bounds.systemPromptAllowed && bounds.systemPromptMaxLength > 0) out.systemPrompt = prompt.slice(0, bounds.systemPromptMaxLength);
  return out;
}

/**
 * The chat's system prompt added to the conversation's: after the personalization's (one system
 * turn at the head, as withPersonalization puts it), or as the head turn when there is none.
 */
export function withChatSystemPrompt(turns: ChatTurn[], systemPrompt: string | undefined): ChatTurn[] {
  if (!systemPrompt) return turns;
  const [first, ...rest] = turns;
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${systemPrompt}` }, ...rest];
  return [{ role: 'system', content: systemPrompt }, ...turns];
}

// ---- the user's routes ----

const toSessionParams = (chatSessionId: string, stored: ChatParams | null, bounds: ParamBounds): SessionParams => {
  const params = normalizeParams(stored ?? {});
  const effective = effectiveParams(params, bounds);
  return {
    chatSessionId,
    params,
    bounds,
    effective: { temperature: effective.temperature ?? null, maxOutputTokens: effective.maxOutputTokens ?? null, systemPrompt: effective.systemPrompt ?? '' },
  };
};

export async function getSessionParams(ctx: AppContext, userId: string, chatSessionId: string, aiModelId: string | undefined): Promise<SessionParams> {
  const bounds = aiModelId ? await boundsOfModel(ctx, aiModelId) : DEFAULT_PARAM_BOUNDS;
  const [row] = await ctx.db
    .select({ params: chatSessions.params })
    .from(chatSessions)
    .where(and(eq(chatSessions.id, chatSessionId), eq(chatSessions.userId, userId)))
    .limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toSessionParams(chatSessionId, row.params, bounds);
}

export async function saveSessionParams(ctx: AppContext, userId: string, body: SaveSessionParamsBody): Promise<SessionParams> {
  const bounds = await boundsOfModel(ctx, body.aiModelId);
  checkParams(body, bounds);
  const params = normalizeParams(body);
  const [row] = await ctx.db
    .update(chatSessions)
    .set({ params })
    .where(and(eq(chatSessions.id, body.chatSessionId), eq(chatSessions.userId, userId)))
    .returning({ id: chatSessions.id });
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toSessionParams(body.chatSessionId, params, bounds);
}

// ---- the operator's routes ----

type ModelBoundsRow = { id: string; name: string; paramBounds: ParamBounds | null };
const toAdmin = (row: ModelBoundsRow): AdminModelParams => ({
  aiModelId: row.id,
  name: row.name,
  bounds: row.paramBounds ?? DEFAULT_PARAM_BOUNDS,
  custom: row.paramBounds !== null,
});
const boundsColumns = { id: aiModels.id, name: aiModels.name, paramBounds: aiModels.paramBounds };

/** Every catalogue model (offline ones too), in the catalogue's order, with its bounds. */
export async function adminListModelParams(ctx: AppContext): Promise<AdminModelParams[]> {
  const rows = await ctx.db.select(boundsColumns).from(aiModels).orderBy(asc(aiModels.sort), asc(aiModels.name));
  return rows.map(toAdmin);
}

export async function adminGetModelParams(ctx: AppContext, aiModelId: string): Promise<AdminModelParams> {
  const [row] = await ctx.db.select(boundsColumns).from(aiModels).where(eq(aiModels.id, aiModelId)).limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'modelNotFound');
  return toAdmin(row);
}

/** Sets (or with null clears) a model's bounds; every instance's catalogue re-reads them. */
export async function adminSaveModelParams(ctx: AppContext, body: SaveModelParamsBody): Promise<AdminModelParams> {
  const [row] = await ctx.db
    .update(aiModels)
    .set({ paramBounds: body.bounds, updatedAt: sql`now()` })
    .where(eq(aiModels.id, body.aiModelId))
    .returning(boundsColumns);
  if (!row) throw new AppError(Codes.NotFound, 'modelNotFound');
  await catalogueChanged(ctx);
  return toAdmin(row);
}
