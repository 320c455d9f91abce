import { and, asc, eq, inArray } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { MODEL_TYPE_IDS } from '../../../shared/contracts/model-type.ts';
import { AUTO_MODEL_ID, VIP_LEVEL_NAMES, type CatalogueModel, type ModelListItem, type Provider, type TokenPrice } from '../../../shared/contracts/model.ts';
import type { AppContext } from '../../context.ts';
import { aiDeployments, aiModelTypeLinks, aiModelTypes, aiModels } from '../../db/schema/models.ts';
import { AppError } from '../../core/errors.ts';
import { DEFAULT_PARAM_BOUNDS, type ParamBounds } from '../../../shared/contracts/param-tools.ts';
import { createUpstreamModel, type DeploymentProtocol, type UpstreamModel } from '../../providers/llm.ts';
import { secretBox } from '../system/secrets.ts';

// ---------------------------------------------------------------------------------------------
// The served catalogue: online models with their enabled deployments, read once and cached per
// instance. An admin change publishes on the bus channel 'catalogue' so every instance re-reads.

export type CachedDeployment = {
  id: string;
  aiModelId: string;
  provider: Provider;
  baseUrl: string | null;
  apiKey: string | null;
  upstreamModelId: string;
  /** Chat completions or the Responses API (OpenAI-style providers only). */
  protocol: DeploymentProtocol;
  priority: number;
  /** The AI SDK model object, made on first use; dropped with the cache when anything changes. */
  upstream?: UpstreamModel;
};

/** paramBounds: the operator's bounds of the chat parameters (ParamTools), or the defaults. */
export type CatalogueEntry = { model: CatalogueModel; deployments: CachedDeployment[]; paramBounds: ParamBounds };

type State = {
  entries: CatalogueEntry[] | null;
  loading: Promise<CatalogueEntry[]> | null;
  generation: number;
};

const CATALOGUE_CHANNEL = 'catalogue';

const states = new WeakMap<AppContext, State>();

function stateOf(ctx: AppContext): State {
  let state = states.get(ctx);
  if (!state) {
    const created: State = { entries: null, loading: null, generation: 0 };
    states.set(ctx, created);
    ctx.bus.subscribe(CATALOGUE_CHANNEL, () => dropCache(created));
    state = created;
  }
  return state;
}

/** Joins this instance to catalogue changes (the bus channel) before the first read. */
export function watchCatalogueChanges(ctx: AppContext): void {
  stateOf(ctx);
}

function dropCache(state: State) {
  state.generation++;
  state.entries = null;
  state.loading = null;
}

/** After any change: this instance re-reads at once, the others when the bus delivers. */
export async function catalogueChanged(ctx: AppContext): Promise<void> {
  dropCache(stateOf(ctx));
  await ctx.bus.publish(CATALOGUE_CHANNEL, 'changed').catch((err: Error) => ctx.log.error({ err }, 'catalogue change not published'));
}

export const vipLevelName = (level: number) => VIP_LEVEL_NAMES[level] ?? `Level ${level}`;

export type ModelRow = typeof aiModels.$inferSelect;
export type DeploymentRow = typeof aiDeployments.$inferSelect;

/** A model row as served; `types` are its type ids in the types' order (vision is what isImage says). */
export function toCatalogueModel(row: ModelRow, types: string[]): CatalogueModel {
  return {
    aiModelId: row.id,
    name: row.name,
    description: row.description,
    minVipLevel: row.minVipLevel,
    minVipLevelName: vipLevelName(row.minVipLevel),
    modelMap: { isImage: types.includes(MODEL_TYPE_IDS.vision), fileTypes: row.fileTypes },
    webSearch: row.webSearch,
    pointsCost: row.pointsCost,
    tokenPrice: tokenPriceOf(row),
    contextWindow: row.contextWindow,
    sort: row.sort,
    types,
  };
}

/** Each model's type ids (of `modelIds`), in the types' order. */
export async function typeIdsOf(db: AppContext['db'], modelIds: string[]): Promise<Map<string, string[]>> {
  const byModel = new Map<string, string[]>();
  if (modelIds.length === 0) return byModel;
  const rows = await db
    .select({ aiModelId: aiModelTypeLinks.aiModelId, typeId: aiModelTypeLinks.typeId })
    .from(aiModelTypeLinks)
    .innerJoin(aiModelTypes, eq(aiModelTypes.id, aiModelTypeLinks.typeId))
    .where(inArray(aiModelTypeLinks.aiModelId, modelIds))
    .orderBy(asc(aiModelTypes.sort), asc(aiModelTypes.createdAt), asc(aiModelTypes.id));
  for (const { aiModelId, typeId } of rows) byModel.set(aiModelId, [...(byModel.get(aiModelId) ?? []), typeId]);
  return byModel;
}

/** Whether a model has a type. */
export const hasType = (model: CatalogueModel, typeId: string) => model.types.includes(typeId);

/** The stored thousandths as points per 1,000 tokens; null unless both prices are set. */
function tokenPriceOf(row: ModelRow): TokenPrice | null {
  if (row.inputPointsPer1m === null || row.outputPointsPer1m === null) return null;
  return { inputPer1k: row.inputPointsPer1m / 1000, outputPer1k: row.outputPointsPer1m / 1000 };
}

async function loadEntries(ctx: AppContext): Promise<CatalogueEntry[]> {
  const models = await ctx.db
    .select()
    .from(aiModels)
    .where(eq(aiModels.online, true))
    .orderBy(asc(aiModels.sort), asc(aiModels.minVipLevel), asc(aiModels.name));
  const deployments = models.length
    ? await ctx.db
        .select()
        .from(aiDeployments)
        .where(and(eq(aiDeployments.enabled, true), inArray(aiDeployments.aiModelId, models.map((m) => m.id))))
        .orderBy(asc(aiDeployments.priority), asc(aiDeployments.createdAt))
    : [];
  const types = await typeIdsOf(ctx.db, models.map((m) => m.id));
  const byModel = new Map<string, CachedDeployment[]>();
  for (const d of deployments) {
    let apiKey: string | null = null;
    if (d.apiKeyEnc) {
      try {
        apiKey = secretBox(ctx).decrypt(d.apiKeyEnc);
      } catch {
        ctx.log.error({ deploymentId: d.id }, 'cannot decrypt the key of a deployment (SECRET_KEY changed?); it is skipped');
        continue;
      }
    }
    const list = byModel.get(d.aiModelId) ?? [];
    list.push({
      id: d.id,
      aiModelId: d.aiModelId,
      provider: d.provider,
      baseUrl: d.baseUrl,
      apiKey,
      upstreamModelId: d.upstreamModelId,
      protocol: d.protocol,
      priority: d.priority,
    });
    byModel.set(d.aiModelId, list);
  }
  // A model without a usable deployment cannot answer: users do not see it.
  return models
    .filter((m) => byModel.has(m.id))
    .map((m) => ({ model: toCatalogueModel(m, types.get(m.id) ?? []), deployments: byModel.get(m.id)!, paramBounds: m.paramBounds ?? DEFAULT_PARAM_BOUNDS }));
}

/** The served catalogue, from memory after the first read. */
export async function getCatalogue(ctx: AppContext): Promise<CatalogueEntry[]> {
  const state = stateOf(ctx);
  if (state.entries) return state.entries;
  if (!state.loading) {
    const generation = state.generation;
    const loading = loadEntries(ctx).then(
      (entries) => {
        if (state.generation === generation) state.entries = entries;
        return entries;
      },
      (err: unknown) => {
        if (state.loading === loading) state.loading = null;
        throw err;
      },
    );
    state.loading = loading;
  }
  return state.loading;
}

/** A served model's entry (its deployments and parameter bounds), from memory; undefined when not served. */
export async function catalogueEntryOf(ctx: AppContext, aiModelId: string): Promise<CatalogueEntry | undefined> {
  return (await getCatalogue(ctx)).find((e) => e.model.aiModelId === aiModelId);
}

export function upstreamOf(ctx: AppContext, deployment: CachedDeployment): UpstreamModel {
  deployment.upstream ??= createUpstreamModel(deployment, ctx.config.OLLAMA_URL);
  return deployment.upstream;
}

// ---- what users see ----

/** The catalogue's chat models: the ones a message may go to (and 'auto' picks among). */
export const chatEntries = (entries: CatalogueEntry[]) => entries.filter((e) => hasType(e.model, MODEL_TYPE_IDS.chat));

/** The 'auto' entry: it stands for the chat models, so it shows what the best of them offers. */
export function autoModel(entries: CatalogueEntry[]): CatalogueModel {
  const models = chatEntries(entries).map((e) => e.model);
  const isImage = models.some((m) => m.modelMap.isImage);
  return {
    aiModelId: AUTO_MODEL_ID,
    name: 'Auto',
    description: 'Picks a model for each message: your plan, attached images and the length of the chat decide.',
    minVipLevel: 0,
    minVipLevelName: vipLevelName(0),
    modelMap: {
      isImage,
      fileTypes: [...new Set(models.flatMap((m) => m.modelMap.fileTypes))],
    },
    webSearch: models.some((m) => m.webSearch),
    pointsCost: models.length ? Math.min(...models.map((m) => m.pointsCost)) : 0,
    // Each pick is priced as the model picked is.
    tokenPrice: null,
    contextWindow: models.length ? Math.max(...models.map((m) => m.contextWindow)) : 0,
    sort: Number.MIN_SAFE_INTEGER,
    types: isImage ? [MODEL_TYPE_IDS.chat, MODEL_TYPE_IDS.vision] : [MODEL_TYPE_IDS.chat],
  };
}

/** The catalogue ('auto' first); with `typeId`, only the models of that type ('auto' is a chat model). */
export async function listModels(ctx: AppContext, vipLevel: number, typeId?: string): Promise<ModelListItem[]> {
  const entries = await getCatalogue(ctx);
  const all = [autoModel(entries), ...entries.map((e) => e.model)];
  return (typeId ? all.filter((m) => hasType(m, typeId)) : all).map((m) => ({ ...m, locked: m.minVipLevel > vipLevel }));
}

/** A served model by id ('auto' included), or NotFound. */
export async function findModel(ctx: AppContext, aiModelId: string): Promise<CatalogueModel> {
  const entries = await getCatalogue(ctx);
  if (aiModelId === AUTO_MODEL_ID) return autoModel(entries);
  const entry = entries.find((e) => e.model.aiModelId === aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  return entry.model;
}

