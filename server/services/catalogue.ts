import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, ilike, inArray, notInArray, or, sql } from 'drizzle-orm';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { Paged } from '../../shared/contracts/common.ts';
import { DOCUMENT_EXTENSIONS } from '../../shared/contracts/media.ts';
import {
  AUTO_MODEL_ID,
  VIP_LEVEL_NAMES,
  type AdminDeployment,
  type AdminModel,
  type CatalogueModel,
  type ModelListItem,
  type Provider,
  type SaveDeployment,
  type SaveModel,
} from '../../shared/contracts/model.ts';
import type { AppContext } from '../context.ts';
import { aiDeployments, aiModels } from '../db/schema/models.ts';
import { AppError } from '../http/errors.ts';
import { createUpstreamModel, OPENAI_DEFAULT_BASE_URL, type UpstreamModel } from '../providers/llm.ts';
import { maskSecret, secretBox } from './secrets.ts';

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
  priority: number;
  /** The AI SDK model object, made on first use; dropped with the cache when anything changes. */
  upstream?: UpstreamModel;
};

export type CatalogueEntry = { model: CatalogueModel; deployments: CachedDeployment[] };

type Health = { failures: number; coolingUntil: number };

type State = {
  entries: CatalogueEntry[] | null;
  loading: Promise<CatalogueEntry[]> | null;
  generation: number;
  health: Map<string, Health>;
};

const CATALOGUE_CHANNEL = 'catalogue';
const COOLDOWN_BASE_MS = 30_000;
const COOLDOWN_MAX_MS = 5 * 60_000;

const states = new WeakMap<AppContext, State>();

function stateOf(ctx: AppContext): State {
  let state = states.get(ctx);
  if (!state) {
    const created: State = { entries: null, loading: null, generation: 0, health: new Map() };
    states.set(ctx, created);
    ctx.bus.subscribe(CATALOGUE_CHANNEL, () => dropCache(created));
    state = created;
  }
  return state;
}

function dropCache(state: State) {
  state.generation++;
  state.entries = null;
  state.loading = null;
}

/** After any change: this instance re-reads at once, the others when the bus delivers. */
async function catalogueChanged(ctx: AppContext): Promise<void> {
  dropCache(stateOf(ctx));
  await ctx.bus.publish(CATALOGUE_CHANNEL, 'changed').catch((err: Error) => ctx.log.error({ err }, 'catalogue change not published'));
}

export const vipLevelName = (level: number) => VIP_LEVEL_NAMES[level] ?? `Level ${level}`;

type ModelRow = typeof aiModels.$inferSelect;
type DeploymentRow = typeof aiDeployments.$inferSelect;

function toCatalogueModel(row: ModelRow): CatalogueModel {
  return {
    aiModelId: row.id,
    name: row.name,
    description: row.description,
    minVipLevel: row.minVipLevel,
    minVipLevelName: vipLevelName(row.minVipLevel),
    modelMap: { isImage: row.isImage, fileTypes: row.fileTypes },
    webSearch: row.webSearch,
    pointsCost: row.pointsCost,
    contextWindow: row.contextWindow,
    sort: row.sort,
  };
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
      priority: d.priority,
    });
    byModel.set(d.aiModelId, list);
  }
  // A model without a usable deployment cannot answer: users do not see it.
  return models.filter((m) => byModel.has(m.id)).map((m) => ({ model: toCatalogueModel(m), deployments: byModel.get(m.id)! }));
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

export function upstreamOf(ctx: AppContext, deployment: CachedDeployment): UpstreamModel {
  deployment.upstream ??= createUpstreamModel(deployment, ctx.config.OLLAMA_URL);
  return deployment.upstream;
}

// ---- deployment health (per instance) ----

export function isCooling(ctx: AppContext, deploymentId: string, now = Date.now()): boolean {
  const h = stateOf(ctx).health.get(deploymentId);
  return !!h && h.coolingUntil > now;
}

/** Consecutive failures cool a deployment down for 30 s, doubling up to 5 min. */
export function markFailure(ctx: AppContext, deploymentId: string): void {
  const health = stateOf(ctx).health;
  const failures = (health.get(deploymentId)?.failures ?? 0) + 1;
  const cooldown = Math.min(COOLDOWN_BASE_MS * 2 ** (failures - 1), COOLDOWN_MAX_MS);
  health.set(deploymentId, { failures, coolingUntil: Date.now() + cooldown });
}

export function markSuccess(ctx: AppContext, deploymentId: string): void {
  const health = stateOf(ctx).health;
  if (health.size) health.delete(deploymentId);
}

function coolingUntilOf(ctx: AppContext, deploymentId: string): string | null {
  const h = stateOf(ctx).health.get(deploymentId);
  return h && h.coolingUntil > Date.now() ? new Date(h.coolingUntil).toISOString() : null;
}

// ---- what users see ----

/** The 'auto' entry: it stands for the whole catalogue, so it shows what the best of it offers. */
export function autoModel(entries: CatalogueEntry[]): CatalogueModel {
  const models = entries.map((e) => e.model);
  return {
    aiModelId: AUTO_MODEL_ID,
    name: 'Auto',
    description: 'Picks a model for each message: your plan, attached images and the length of the chat decide.',
    minVipLevel: 0,
    minVipLevelName: vipLevelName(0),
    modelMap: {
      isImage: models.some((m) => m.modelMap.isImage),
      fileTypes: [...new Set(models.flatMap((m) => m.modelMap.fileTypes))],
    },
    webSearch: models.some((m) => m.webSearch),
    pointsCost: models.length ? Math.min(...models.map((m) => m.pointsCost)) : 0,
    contextWindow: models.length ? Math.max(...models.map((m) => m.contextWindow)) : 0,
    sort: Number.MIN_SAFE_INTEGER,
  };
}

export async function listModels(ctx: AppContext, vipLevel: number): Promise<ModelListItem[]> {
  const entries = await getCatalogue(ctx);
  return [autoModel(entries), ...entries.map((e) => e.model)].map((m) => ({ ...m, locked: m.minVipLevel > vipLevel }));
}

/** A served model by id ('auto' included), or NotFound. */
export async function findModel(ctx: AppContext, aiModelId: string): Promise<CatalogueModel> {
  const entries = await getCatalogue(ctx);
  if (aiModelId === AUTO_MODEL_ID) return autoModel(entries);
  const entry = entries.find((e) => e.model.aiModelId === aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  return entry.model;
}

// ---------------------------------------------------------------------------------------------
// Seeding from the environment at start-up. Only rows whose source is 'env' / 'ollama' are
// updated or removed; an operator's edit turns a row into source 'admin', which seeding leaves alone.

type SeedModel = { upstreamId: string; level: number };
type SeedSource = 'env' | 'ollama';
type SeedAccount = { provider: Provider; baseUrl: string | null; apiKey: string | null; models: SeedModel[]; source: SeedSource };

const POINTS_BY_LEVEL = [1, 2, 5, 10];

/** `upstreamId` or `upstreamId:level` (level 0 to 3); Ollama tags like `llama3:8b` keep their colon. */
export function parseModelList(items: string[]): SeedModel[] {
  return items.map((item) => {
    const m = /^(.+):([0-3])$/.exec(item);
    return m ? { upstreamId: m[1], level: Number(m[2]) } : { upstreamId: item, level: 0 };
  });
}

export function slugOf(upstreamId: string): string {
  return (
    upstreamId
      .toLowerCase()
      .replace(/:latest$/, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-._]+|[-._]+$/g, '')
      .slice(0, 64) || 'model'
  );
}

const looksLikeVision = (id: string) => /gpt-4o|gpt-4\.1|gpt-5|claude-(3|4|sonnet|opus|haiku)|gemini|llava|-vl\b|-vl-|vision/i.test(id);

function contextWindowOf(id: string): number {
  if (/gemini/i.test(id)) return 1_000_000;
  if (/claude/i.test(id)) return 200_000;
  if (/gpt-4\.1/i.test(id)) return 1_000_000;
  if (/gpt-4o|gpt-4-turbo|gpt-5|\bo[134]\b|o[134]-|deepseek/i.test(id)) return 128_000;
  return 8192;
}

async function ollamaModels(ctx: AppContext): Promise<string[] | null> {
  try {
    const res = await fetch(`${ctx.config.OLLAMA_URL.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(1500) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { models?: { name?: unknown; model?: unknown }[] };
    return (body.models ?? []).map((m) => String(m.name ?? m.model ?? '')).filter(Boolean);
  } catch (err) {
    ctx.log.info({ url: ctx.config.OLLAMA_URL, reason: (err as Error).message }, 'Ollama not reachable; its models are not imported');
    return null;
  }
}

function envAccounts(ctx: AppContext): SeedAccount[] {
  const c = ctx.config;
  const accounts: SeedAccount[] = [];
  const add = (provider: Provider, key: string | undefined, baseUrl: string | null, models: string[], name: string) => {
    if (!key) return;
    if (!models.length) {
      ctx.log.warn(`${name}_API_KEY is set but ${name}_MODELS is empty: no ${name} model is added`);
      return;
    }
    accounts.push({ provider, baseUrl, apiKey: key, models: parseModelList(models), source: 'env' });
  };
  add('openai-compatible', c.OPENAI_API_KEY, c.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL, c.OPENAI_MODELS, 'OPENAI');
  add('anthropic', c.ANTHROPIC_API_KEY, c.ANTHROPIC_BASE_URL ?? null, c.ANTHROPIC_MODELS, 'ANTHROPIC');
  add('google', c.GOOGLE_GENERATIVE_AI_API_KEY, c.GOOGLE_BASE_URL ?? null, c.GOOGLE_MODELS, 'GOOGLE');
  return accounts;
}

async function seedAccount(ctx: AppContext, account: SeedAccount, keep: Set<string>): Promise<void> {
  const box = account.apiKey ? secretBox(ctx) : null;
  for (const { upstreamId, level } of account.models) {
    const id = slugOf(upstreamId);
    const values = {
      name: upstreamId,
      description: '',
      minVipLevel: level,
      isImage: looksLikeVision(upstreamId),
      // Every model reads text, and the server turns these files into text (an operator may narrow it).
      fileTypes: [...DOCUMENT_EXTENSIONS],
      webSearch: true,
      pointsCost: POINTS_BY_LEVEL[level],
      contextWindow: contextWindowOf(upstreamId),
    };
    await ctx.db
      .insert(aiModels)
      .values({ id, ...values, source: account.source })
      .onConflictDoUpdate({
        target: aiModels.id,
        set: { ...values, updatedAt: sql`now()` },
        setWhere: eq(aiModels.source, account.source),
      });
    const [existing] = await ctx.db
      .select({ id: aiDeployments.id, source: aiDeployments.source })
      .from(aiDeployments)
      .where(
        and(eq(aiDeployments.aiModelId, id), eq(aiDeployments.provider, account.provider), eq(aiDeployments.upstreamModelId, upstreamId)),
      )
      .limit(1);
    const deployment = { baseUrl: account.baseUrl, apiKeyEnc: box && account.apiKey ? box.encrypt(account.apiKey) : null };
    if (!existing) {
      const depId = randomUUID();
      await ctx.db.insert(aiDeployments).values({
        id: depId,
        aiModelId: id,
        provider: account.provider,
        upstreamModelId: upstreamId,
        source: account.source,
        ...deployment,
      });
      keep.add(depId);
    } else if (existing.source === account.source) {
      await ctx.db.update(aiDeployments).set({ ...deployment, updatedAt: sql`now()` }).where(eq(aiDeployments.id, existing.id));
      keep.add(existing.id);
    }
  }
}

/** Removes what a source created and no longer provides: its deployments, then its models left without any. */
async function pruneSource(ctx: AppContext, source: SeedSource, keep: Set<string>): Promise<void> {
  await ctx.db
    .delete(aiDeployments)
    .where(and(eq(aiDeployments.source, source), keep.size ? notInArray(aiDeployments.id, [...keep]) : undefined));
  await ctx.db
    .delete(aiModels)
    .where(
      and(eq(aiModels.source, source), sql`not exists (select 1 from ${aiDeployments} d where d.ai_model_id = ${aiModels.id})`),
    );
}

/**
 * Creates catalogue entries from OPENAI_*, ANTHROPIC_*, GOOGLE_* and a reachable Ollama. Idempotent:
 * a restart with the same environment changes nothing; a changed one updates what it created.
 */
export async function seedCatalogue(ctx: AppContext): Promise<void> {
  stateOf(ctx);
  const envKeep = new Set<string>();
  for (const account of envAccounts(ctx)) await seedAccount(ctx, account, envKeep);
  await pruneSource(ctx, 'env', envKeep);

  const tags = await ollamaModels(ctx);
  if (tags) {
    const wanted = ctx.config.OLLAMA_MODELS.length
      ? parseModelList(ctx.config.OLLAMA_MODELS).filter((m) => tags.includes(m.upstreamId) || tags.includes(`${m.upstreamId}:latest`))
      : tags.map((upstreamId) => ({ upstreamId, level: 0 }));
    const ollamaKeep = new Set<string>();
    await seedAccount(ctx, { provider: 'ollama', baseUrl: null, apiKey: null, models: wanted, source: 'ollama' }, ollamaKeep);
    await pruneSource(ctx, 'ollama', ollamaKeep);
    ctx.log.info({ models: wanted.map((m) => m.upstreamId) }, 'Ollama models imported');
  }
  await catalogueChanged(ctx);
  const entries = await getCatalogue(ctx);
  if (!entries.length) {
    ctx.log.warn('No AI model is configured: set OPENAI_API_KEY + OPENAI_MODELS (or another provider), run Ollama, or add one in the admin console');
  }
}

// ---------------------------------------------------------------------------------------------
// Admin: the whole catalogue, offline models and disabled deployments included.

const iso = (d: Date) => d.toISOString();

async function toAdminModel(ctx: AppContext, row: ModelRow): Promise<AdminModel> {
  const [{ n }] = await ctx.db.select({ n: count() }).from(aiDeployments).where(eq(aiDeployments.aiModelId, row.id));
  return {
    ...toCatalogueModel(row),
    online: row.online,
    source: row.source,
    deploymentCount: n,
    createTime: iso(row.createdAt),
    updateTime: iso(row.updatedAt),
  };
}

export async function adminListModels(ctx: AppContext, q: { page: number; count: number; keyword?: string }): Promise<Paged<AdminModel>> {
  const where = q.keyword ? or(ilike(aiModels.name, `%${q.keyword}%`), ilike(aiModels.id, `%${q.keyword}%`)) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(aiModels)
      .where(where)
      .orderBy(asc(aiModels.sort), asc(aiModels.minVipLevel), asc(aiModels.name))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(aiModels).where(where),
  ]);
  return { list: await Promise.all(rows.map((r) => toAdminModel(ctx, r))), total };
}

async function modelRow(ctx: AppContext, aiModelId: string): Promise<ModelRow> {
  const [row] = await ctx.db.select().from(aiModels).where(eq(aiModels.id, aiModelId)).limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'modelNotFound');
  return row;
}

export async function adminGetModel(ctx: AppContext, aiModelId: string): Promise<AdminModel> {
  return toAdminModel(ctx, await modelRow(ctx, aiModelId));
}

export async function adminSaveModel(ctx: AppContext, input: SaveModel): Promise<AdminModel> {
  const values = {
    name: input.name,
    description: input.description,
    minVipLevel: input.minVipLevel,
    isImage: input.modelMap.isImage,
    fileTypes: [...new Set(input.modelMap.fileTypes)],
    webSearch: input.webSearch,
    pointsCost: input.pointsCost,
    contextWindow: input.contextWindow,
    sort: input.sort,
    online: input.online,
    // From now on the operator owns this entry: start-up seeding leaves it alone.
    source: 'admin',
  };
  const id = input.aiModelId ?? slugOf(input.name);
  if (id === AUTO_MODEL_ID) throw new AppError(Codes.Conflict, 'modelIdReserved');
  const [existing] = await ctx.db.select({ id: aiModels.id }).from(aiModels).where(eq(aiModels.id, id)).limit(1);
  if (existing && !input.aiModelId) throw new AppError(Codes.Conflict, 'modelIdTaken', { id });
  if (existing) await ctx.db.update(aiModels).set({ ...values, updatedAt: sql`now()` }).where(eq(aiModels.id, id));
  else await ctx.db.insert(aiModels).values({ id, ...values }).onConflictDoNothing();
  await catalogueChanged(ctx);
  return adminGetModel(ctx, id);
}

/** Deletes a model and its deployments; past messages keep the model's id and name as text. */
export async function adminDeleteModel(ctx: AppContext, aiModelId: string): Promise<void> {
  const deleted = await ctx.db.delete(aiModels).where(eq(aiModels.id, aiModelId)).returning({ id: aiModels.id });
  if (!deleted.length) throw new AppError(Codes.NotFound, 'modelNotFound');
  await catalogueChanged(ctx);
}

export async function adminSetOnline(ctx: AppContext, aiModelId: string, online: boolean): Promise<AdminModel> {
  const updated = await ctx.db
    .update(aiModels)
    .set({ online, source: 'admin', updatedAt: sql`now()` })
    .where(eq(aiModels.id, aiModelId))
    .returning({ id: aiModels.id });
  if (!updated.length) throw new AppError(Codes.NotFound, 'modelNotFound');
  await catalogueChanged(ctx);
  return adminGetModel(ctx, aiModelId);
}

function toAdminDeployment(ctx: AppContext, row: DeploymentRow): AdminDeployment {
  let apiKeyHint: string | null = null;
  if (row.apiKeyEnc) {
    try {
      apiKeyHint = maskSecret(secretBox(ctx).decrypt(row.apiKeyEnc));
    } catch {
      apiKeyHint = '(unreadable: SECRET_KEY changed?)';
    }
  }
  return {
    aiModelMapId: row.id,
    aiModelId: row.aiModelId,
    provider: row.provider,
    baseUrl: row.baseUrl,
    upstreamModelId: row.upstreamModelId,
    priority: row.priority,
    enabled: row.enabled,
    source: row.source,
    hasApiKey: !!row.apiKeyEnc,
    apiKeyHint,
    coolingUntil: coolingUntilOf(ctx, row.id),
    createTime: iso(row.createdAt),
    updateTime: iso(row.updatedAt),
  };
}

export async function adminListDeployments(ctx: AppContext, aiModelId: string): Promise<AdminDeployment[]> {
  await modelRow(ctx, aiModelId);
  const rows = await ctx.db
    .select()
    .from(aiDeployments)
    .where(eq(aiDeployments.aiModelId, aiModelId))
    .orderBy(asc(aiDeployments.priority), asc(aiDeployments.createdAt));
  return rows.map((r) => toAdminDeployment(ctx, r));
}

export async function adminGetDeployment(ctx: AppContext, aiModelMapId: string): Promise<AdminDeployment> {
  const [row] = await ctx.db.select().from(aiDeployments).where(eq(aiDeployments.id, aiModelMapId)).limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toAdminDeployment(ctx, row);
}

export async function adminSaveDeployment(ctx: AppContext, input: SaveDeployment): Promise<AdminDeployment> {
  await modelRow(ctx, input.aiModelId);
  const values = {
    aiModelId: input.aiModelId,
    provider: input.provider,
    baseUrl: input.baseUrl ?? null,
    upstreamModelId: input.upstreamModelId,
    priority: input.priority,
    enabled: input.enabled,
    source: 'admin',
    // Absent or null keeps the stored key; an empty string removes it.
    ...(input.apiKey == null ? {} : { apiKeyEnc: input.apiKey === '' ? null : secretBox(ctx).encrypt(input.apiKey) }),
  };
  let id = input.aiModelMapId;
  if (id) {
    const updated = await ctx.db
      .update(aiDeployments)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(aiDeployments.id, id))
      .returning({ id: aiDeployments.id });
    if (!updated.length) throw new AppError(Codes.NotFound, 'notFound');
  } else {
    id = randomUUID();
    await ctx.db.insert(aiDeployments).values({ id, ...values });
  }
  markSuccess(ctx, id);
  await catalogueChanged(ctx);
  return adminGetDeployment(ctx, id);
}

export async function adminDeleteDeployment(ctx: AppContext, aiModelMapId: string): Promise<void> {
  const deleted = await ctx.db.delete(aiDeployments).where(eq(aiDeployments.id, aiModelMapId)).returning({ id: aiDeployments.id });
  if (!deleted.length) throw new AppError(Codes.NotFound, 'notFound');
  await catalogueChanged(ctx);
}
