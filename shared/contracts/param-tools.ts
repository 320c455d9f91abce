import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * Model parameters (the ParamTools route families, docs/api.md#model-parameters): per chat, the user
 * sets the temperature, the maximum answer length and a system prompt, within bounds the operator
 * sets per catalogue model. The send path applies them clamped to the answering model's bounds, so a
 * value stored before the operator narrowed them (or before the chat switched models) still fits.
 *
 * Routes (every answer is the usual { Code, Msg, Data } envelope):
 * - GET  /api/ParamTools/GetByModelId ?aiModelId=   → ParamBounds (the model's, or the defaults; 'auto': the defaults)
 * - GET  /api/ParamTools/GetBySession ?chatSessionId=&aiModelId= → SessionParams (the caller's chat only, 10404 otherwise)
 * - POST /api/ParamTools/SaveBySession (SaveSessionParamsBody) → SessionParams; out of bounds: 10400 with the bound
 * - AddMessage's `chatParams` (a new chat): validated the same way, stored with the new session.
 * Admin (role admin; writes in the audit log, target `paramTools`):
 * - GET  /api/admin/ParamTools/GetList → AdminModelParams[] (every catalogue model, its bounds or the defaults)
 * - GET  /api/admin/ParamTools/GetByModelId ?aiModelId= → AdminModelParams
 * - POST /api/admin/ParamTools/Save (SaveModelParamsBody) → AdminModelParams; `bounds: null` restores the defaults
 */

export const TEMPERATURE_LIMIT = 2;
export const MAX_OUTPUT_TOKENS_LIMIT = 1_000_000;
export const SYSTEM_PROMPT_LIMIT = 20_000;

const temperature = z.number().min(0).max(TEMPERATURE_LIMIT);
const tokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS_LIMIT);

export const ParamBoundsSchema = z
  .object({
    temperatureMin: temperature,
    temperatureMax: temperature,
    /** Used when the chat sets none; null: none sent (the provider's own). */
    temperatureDefault: temperature.nullable(),
    /** The longest answer a chat may ask for, in tokens. */
    maxOutputTokensMax: tokens,
    /** Used when the chat sets none; null: none sent (the provider's own, which the maximum does not cap). */
    maxOutputTokensDefault: tokens.nullable(),
    systemPromptAllowed: z.boolean(),
    systemPromptMaxLength: z.number().int().min(0).max(SYSTEM_PROMPT_LIMIT),
  })
  .superRefine((b, ctx) => {
    if (b.temperatureMin > b.temperatureMax) ctx.addIssue({ code: 'custom', path: ['temperatureMin'], message: 'paramBoundsTemperatureOrder' });
    if (b.temperatureDefault !== null && (b.temperatureDefault < b.temperatureMin || b.temperatureDefault > b.temperatureMax))
      ctx.addIssue({ code: 'custom', path: ['temperatureDefault'], message: 'paramBoundsTemperatureDefault' });
    if (b.maxOutputTokensDefault !== null && b.maxOutputTokensDefault > b.maxOutputTokensMax)
      ctx.addIssue({ code: 'custom', path: ['maxOutputTokensDefault'], message: 'paramBoundsTokensDefault' });
  });
export type ParamBounds = z.infer<typeof ParamBoundsSchema>;

/** The bounds of a model the operator has not set: anything a provider takes, nothing sent unless the chat sets it. */
export const DEFAULT_PARAM_BOUNDS: ParamBounds = {
  temperatureMin: 0,
  temperatureMax: TEMPERATURE_LIMIT,
  temperatureDefault: null,
  maxOutputTokensMax: 32_768,
  maxOutputTokensDefault: null,
  systemPromptAllowed: true,
  systemPromptMaxLength: 4000,
};

/** What a chat stores: each absent or null means "the model's default". */
export const ChatParamsSchema = z.object({
  temperature: temperature.nullish(),
  maxOutputTokens: tokens.nullish(),
  /** Added to the system prompt (after the user's personalization); '' or null: none. */
  systemPrompt: z.string().trim().max(SYSTEM_PROMPT_LIMIT).nullish(),
});
export type ChatParams = z.infer<typeof ChatParamsSchema>;

/** The values the model is sent: each undefined when nothing is sent. */
export type EffectiveParams = { temperature?: number; maxOutputTokens?: number; systemPrompt?: string };

export const ModelParamsQuerySchema = z.object({ aiModelId: IdSchema });
export const SessionParamsQuerySchema = z.object({
  chatSessionId: IdSchema,
  /** The model the chat uses now: `effective` is clamped to its bounds. Absent: the defaults. */
  aiModelId: IdSchema.optional(),
});

export const SessionParamsSchema = z.object({
  chatSessionId: z.string(),
  /** What the chat stored (nulls: the model's defaults). */
  params: z.object({ temperature: z.number().nullable(), maxOutputTokens: z.number().int().nullable(), systemPrompt: z.string() }),
  /** The model's bounds these are checked against. */
  bounds: ParamBoundsSchema,
  /** What the model is sent now: the stored values clamped to `bounds` (the operator may have narrowed them since). */
  effective: z.object({ temperature: z.number().nullable(), maxOutputTokens: z.number().int().nullable(), systemPrompt: z.string() }),
});
export type SessionParams = z.infer<typeof SessionParamsSchema>;

export const SaveSessionParamsBodySchema = ChatParamsSchema.extend({
  chatSessionId: IdSchema,
  /** The model the chat uses: the values must fit its bounds ('auto': the defaults). */
  aiModelId: IdSchema,
});
export type SaveSessionParamsBody = z.infer<typeof SaveSessionParamsBodySchema>;

export const AdminModelParamsSchema = z.object({
  aiModelId: z.string(),
  name: z.string(),
  /** The bounds in force: the operator's, or the defaults. */
  bounds: ParamBoundsSchema,
  /** False: the operator set none, `bounds` are the defaults. */
  custom: z.boolean(),
});
export type AdminModelParams = z.infer<typeof AdminModelParamsSchema>;
export const AdminModelParamsListSchema = z.array(AdminModelParamsSchema);

export const SaveModelParamsBodySchema = z.object({
  aiModelId: IdSchema,
  /** null: back to the defaults. */
  bounds: ParamBoundsSchema.nullable(),
});
export type SaveModelParamsBody = z.infer<typeof SaveModelParamsBodySchema>;
