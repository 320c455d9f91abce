import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, exists, ilike, isNull, or, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import {
  AUTO_MODEL_ID,
  RESPONSES_PROVIDERS,
  type AdminDeployment,
  type AdminModel,
  type AllDeployments,
  type AllDeploymentsQuery,
  type SaveDeployment,
  type SaveModel,
} from '../../../shared/contracts/model.ts';
import type { AppContext } from '../../context.ts';
import { aiDeployments, aiModelTypeLinks, aiModels } from '../../db/schema/models.ts';
import { escapeLike } from '../../db/like.ts';
import { AppError } from '../../core/errors.ts';
import { maskSecret, secretBox } from '../system/secrets.ts';
import { catalogueChanged, toCatalogueModel, typeIdsOf, type DeploymentRow, type ModelRow } from './catalogue.ts';
import { setModelTypes, typesToSave } from './model-types.ts';
import { coolingUntilOf, markSuccess } from './catalogue-health.ts';
import { slugOf } from './catalogue-seed.ts';
import { deploymentHealth } from './catalogue-admin-tools.ts';
import { perMillion } from '../chat/token-metering.ts';

/** Admin: the whole catalogue, offline models and disabled deployments included. */

const iso = (d: Date) => d.toISOString();

async function toAdminModel(ctx: AppContext, row: ModelRow): Promise<AdminModel> {
  const [{ n }] = await ctx.db.select({ n: count() }).from(aiDeployments).where(eq(aiDeployments.aiModelId, row.id));
  const types = await typeIdsOf(ctx.db, [row.id]);
  return {
    ...toCatalogueModel(row, types.get(row.id) ?? []),
    online: row.online,
    source: row.source,
    deploymentCount: n,
    createTime: iso(row.createdAt),
    updateTime: iso(row.updatedAt),
  };
}

export async function adminListModels(
  ctx: AppContext,
  q: { page: number; count: number; keyword?: string; aiModelTypeId?: string },
): Promise<Paged<AdminModel>> {
  const where = and(
    q.keyword ? or(ilike(aiModels.name, `%${q.keyword}%`), ilike(aiModels.id, `%${q.keyword}%`)) : undefined,
    q.aiModelTypeId
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(aiModelTypeLinks)
            .where(and(eq(aiModelTypeLinks.aiModelId, aiModels.id), eq(aiModelTypeLinks.typeId, q.aiModelTypeId))),
        )
      : undefined,
  );
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
    fileTypes: [...new Set(input.modelMap.fileTypes)],
    webSearch: input.webSearch,
    pointsCost: input.pointsCost,
    inputPointsPer1m: input.tokenPrice ? perMillion(input.tokenPrice.inputPer1k) : null,
    outputPointsPer1m: input.tokenPrice ? perMillion(input.tokenPrice.outputPer1k) : null,
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
  const current = existing ? ((await typeIdsOf(ctx.db, [id])).get(id) ?? []) : null;
  const typeIds = typesToSave(input.typeIds, current, input.modelMap.isImage);
  await ctx.db.transaction(async (tx) => {
    if (existing) await tx.update(aiModels).set({ ...values, updatedAt: sql`now()` }).where(eq(aiModels.id, id));
    else await tx.insert(aiModels).values({ id, ...values }).onConflictDoNothing();
    await setModelTypes(tx, id, typeIds);
  });
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

/** A deployment as operators see it, but for its health figures (deploymentHealth, a query of its own). */
function toAdminDeployment(ctx: AppContext, row: DeploymentRow): Omit<AdminDeployment, 'health'> {
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
    protocol: row.protocol,
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

/**
 * GET /api/admin/AiModelMap/GetAiModelListAll: every deployment across models, by model then
 * priority, filtered by model, provider account (provider and base URL; '' the provider's default)
 * and keyword; with the accounts in use for the filter. Keys only as hasApiKey and a masked hint.
 */
export async function adminListAllDeployments(ctx: AppContext, q: AllDeploymentsQuery): Promise<AllDeployments> {
  const like = q.keyword ? `%${escapeLike(q.keyword)}%` : undefined;
  const where = and(
    q.aiModelId ? eq(aiDeployments.aiModelId, q.aiModelId) : undefined,
    q.provider ? eq(aiDeployments.provider, q.provider) : undefined,
    q.baseUrl === undefined ? undefined : q.baseUrl === '' ? isNull(aiDeployments.baseUrl) : eq(aiDeployments.baseUrl, q.baseUrl),
    like ? or(ilike(aiDeployments.upstreamModelId, like), ilike(aiModels.name, like), ilike(aiModels.id, like)) : undefined,
  );
  const [rows, [{ total }], accounts] = await Promise.all([
    ctx.db
      .select({ deployment: aiDeployments, modelName: aiModels.name, modelOnline: aiModels.online })
      .from(aiDeployments)
      .innerJoin(aiModels, eq(aiModels.id, aiDeployments.aiModelId))
      .where(where)
      .orderBy(asc(aiModels.sort), asc(aiModels.name), asc(aiDeployments.priority), asc(aiDeployments.createdAt), asc(aiDeployments.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ total: count() }).from(aiDeployments).innerJoin(aiModels, eq(aiModels.id, aiDeployments.aiModelId)).where(where),
    ctx.db
      .select({ provider: aiDeployments.provider, baseUrl: aiDeployments.baseUrl, deploymentCount: count() })
      .from(aiDeployments)
      .groupBy(aiDeployments.provider, aiDeployments.baseUrl)
      .orderBy(asc(aiDeployments.provider), asc(aiDeployments.baseUrl)),
  ]);
  const health = await deploymentHealth(ctx.db, rows.map((r) => r.deployment.id));
  return {
    list: rows.map((r) => ({
      ...toAdminDeployment(ctx, r.deployment),
      health: health.get(r.deployment.id)!,
      modelName: r.modelName,
      modelOnline: r.modelOnline,
    })),
    total,
    accounts,
  };
}

export async function adminListDeployments(ctx: AppContext, aiModelId: string): Promise<AdminDeployment[]> {
  await modelRow(ctx, aiModelId);
  const rows = await ctx.db
    .select()
    .from(aiDeployments)
    .where(eq(aiDeployments.aiModelId, aiModelId))
    .orderBy(asc(aiDeployments.priority), asc(aiDeployments.createdAt));
  const health = await deploymentHealth(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...toAdminDeployment(ctx, r), health: health.get(r.id)! }));
}

async function deploymentRow(ctx: AppContext, aiModelMapId: string): Promise<DeploymentRow> {
  const [row] = await ctx.db.select().from(aiDeployments).where(eq(aiDeployments.id, aiModelMapId)).limit(1);
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return row;
}

export async function adminGetDeployment(ctx: AppContext, aiModelMapId: string): Promise<AdminDeployment> {
  const row = await deploymentRow(ctx, aiModelMapId);
  const health = await deploymentHealth(ctx.db, [row.id]);
  return { ...toAdminDeployment(ctx, row), health: health.get(row.id)! };
}

/**
 * A deployment as the audit log records it before and after a write: its settings without the
 * health figures, which are traffic rather than the operator's change and cost two aggregates each.
 */
export async function deploymentAuditState(ctx: AppContext, aiModelMapId: string): Promise<Omit<AdminDeployment, 'health'>> {
  return toAdminDeployment(ctx, await deploymentRow(ctx, aiModelMapId));
}

export async function adminSaveDeployment(ctx: AppContext, input: SaveDeployment): Promise<AdminDeployment> {
  await modelRow(ctx, input.aiModelId);
  if (input.protocol === 'responses' && !RESPONSES_PROVIDERS.includes(input.provider)) {
    throw new AppError(Codes.BadRequest, 'deploymentProtocolUnsupported', { provider: input.provider });
  }
  const values = {
    aiModelId: input.aiModelId,
    provider: input.provider,
    ...(input.protocol ? { protocol: input.protocol } : {}),
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
