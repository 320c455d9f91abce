import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  BUILT_IN_MODEL_TYPES,
  MODEL_TYPE_IDS,
  type AdminModelType,
  type AdminSaveModelTypeBody,
  type ModelType,
} from '../../../shared/contracts/model-type.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { aiModelTypeLinks, aiModelTypes } from '../../db/schema/models.ts';
import { isForeignKeyViolation } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';
import { catalogueChanged } from './catalogue.ts';

/**
 * Model types (AiModelType, docs/api.md#model-types): what each catalogue model is for. The links
 * go with the model (cascade); a type is deleted only once no model has it (restrict, checked first
 * for a clear message). chat, vision and image are built in: the server's own checks use them.
 */

/** What links can be written in: the database or a transaction. */
type Writer = Pick<Db, 'select' | 'insert' | 'delete'>;

const typeOrder = [asc(aiModelTypes.sort), asc(aiModelTypes.createdAt), asc(aiModelTypes.id)];
const nameIn = (lang: Language) => (lang === 'zh' ? aiModelTypes.nameZh : aiModelTypes.nameEn);

/** GET /api/AiModelType/GetAiModelTypeAll: the enabled types, named in `lang`, in order. */
export async function listModelTypes(ctx: AppContext, lang: Language): Promise<ModelType[]> {
  return ctx.db
    .select({ aiModelTypeId: aiModelTypes.id, name: nameIn(lang), sort: aiModelTypes.sort })
    .from(aiModelTypes)
    .where(eq(aiModelTypes.enabled, true))
    .orderBy(...typeOrder);
}

/**
 * The types a model is saved with: `typeIds` when given, else `current` (a new model: chat); either
 * way vision follows `isImage` unless typeIds decided it.
 */
export function typesToSave(typeIds: string[] | undefined, current: string[] | null, isImage: boolean): string[] {
  if (typeIds) return typeIds;
  const base = (current ?? [MODEL_TYPE_IDS.chat]).filter((id) => id !== MODEL_TYPE_IDS.vision);
  return isImage ? [...base, MODEL_TYPE_IDS.vision] : base;
}

/** Gives a model exactly `typeIds` (call inside the transaction that saves it); an unknown type is refused (10400). */
export async function setModelTypes(db: Writer, aiModelId: string, typeIds: string[]): Promise<void> {
  if (typeIds.length === 0) throw new AppError(Codes.BadRequest, 'modelTypesRequired');
  const found = await db.select({ id: aiModelTypes.id }).from(aiModelTypes).where(inArray(aiModelTypes.id, typeIds));
  const unknown = typeIds.filter((id) => !found.some((f) => f.id === id));
  if (unknown.length) throw new AppError(Codes.BadRequest, 'modelTypeUnknown', { id: unknown.join(', ') });
  await db.delete(aiModelTypeLinks).where(eq(aiModelTypeLinks.aiModelId, aiModelId));
  await db.insert(aiModelTypeLinks).values(typeIds.map((typeId) => ({ aiModelId, typeId })));
}

// ---- operators ----

const modelCount = sql<number>`(select count(*)::int from ${aiModelTypeLinks} where ${aiModelTypeLinks.typeId} = ${aiModelTypes.id})`;

async function adminRows(ctx: AppContext, id?: string): Promise<AdminModelType[]> {
  const rows = await ctx.db
    .select({
      id: aiModelTypes.id,
      nameEn: aiModelTypes.nameEn,
      nameZh: aiModelTypes.nameZh,
      sort: aiModelTypes.sort,
      enabled: aiModelTypes.enabled,
      createdAt: aiModelTypes.createdAt,
      updatedAt: aiModelTypes.updatedAt,
      modelCount,
    })
    .from(aiModelTypes)
    .where(id === undefined ? undefined : eq(aiModelTypes.id, id))
    .orderBy(...typeOrder);
  return rows.map((r) => ({
    aiModelTypeId: r.id,
    nameEn: r.nameEn,
    nameZh: r.nameZh,
    sort: r.sort,
    enabled: r.enabled,
    builtIn: BUILT_IN_MODEL_TYPES.includes(r.id),
    modelCount: Number(r.modelCount),
    createTime: r.createdAt.toISOString(),
    updateTime: r.updatedAt.toISOString(),
  }));
}

export function adminListModelTypes(ctx: AppContext): Promise<AdminModelType[]> {
  return adminRows(ctx);
}

/** One type, or 10404. */
export async function adminGetModelType(ctx: AppContext, id: string): Promise<AdminModelType> {
  const found = (await adminRows(ctx, id))[0];
  if (!found) throw new AppError(Codes.NotFound, 'modelTypeNotFound', { id });
  return found;
}

/** The audit log's before and after: null when there is none. */
export async function modelTypeAuditState(ctx: AppContext, id: string): Promise<AdminModelType | null> {
  return (await adminRows(ctx, id))[0] ?? null;
}

/** A type id from an English name: 'Speech to text' → 'speech-to-text'. */
function idFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return /^[a-z]/.test(slug) ? slug : `type-${slug || Date.now().toString(36)}`.slice(0, 32);
}

/** Creates a type (an id not in use, or none: one from nameEn) or updates the one named. */
export async function adminSaveModelType(ctx: AppContext, body: AdminSaveModelTypeBody): Promise<AdminModelType> {
  const id = body.aiModelTypeId ?? idFromName(body.nameEn);
  const [existing] = await ctx.db.select({ id: aiModelTypes.id }).from(aiModelTypes).where(eq(aiModelTypes.id, id)).limit(1);
  if (existing && !body.aiModelTypeId) throw new AppError(Codes.Conflict, 'modelTypeIdTaken', { id });
  if (existing) {
    await ctx.db
      .update(aiModelTypes)
      .set({
        nameEn: body.nameEn,
        nameZh: body.nameZh,
        ...(body.sort === undefined ? {} : { sort: body.sort }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
        updatedAt: sql`now()`,
      })
      .where(eq(aiModelTypes.id, id));
  } else {
    const [last] = await ctx.db.select({ n: sql<number>`coalesce(max(${aiModelTypes.sort}), 0)::int` }).from(aiModelTypes);
    await ctx.db
      .insert(aiModelTypes)
      .values({ id, nameEn: body.nameEn, nameZh: body.nameZh, sort: body.sort ?? (last?.n ?? 0) + 10, enabled: body.enabled ?? true })
      .onConflictDoNothing();
  }
  // The models' lists carry type ids only, but a re-read keeps every instance's picture in step.
  await catalogueChanged(ctx);
  return adminGetModelType(ctx, id);
}

/** Deletes a type no model has; a built-in one, or one in use, is refused (10409) with what to do. */
export async function adminDeleteModelType(ctx: AppContext, id: string): Promise<void> {
  if (BUILT_IN_MODEL_TYPES.includes(id)) throw new AppError(Codes.Conflict, 'modelTypeBuiltIn', { id });
  const [used] = await ctx.db.select({ n: count() }).from(aiModelTypeLinks).where(eq(aiModelTypeLinks.typeId, id));
  if ((used?.n ?? 0) > 0) throw new AppError(Codes.Conflict, 'modelTypeInUse', { id, count: used!.n });
  try {
    const gone = await ctx.db.delete(aiModelTypes).where(eq(aiModelTypes.id, id)).returning({ id: aiModelTypes.id });
    if (gone.length === 0) throw new AppError(Codes.NotFound, 'modelTypeNotFound', { id });
  } catch (err) {
    // A model given the type between the check and the delete: the foreign key refuses it.
    if (isForeignKeyViolation(err)) throw new AppError(Codes.Conflict, 'modelTypeInUse', { id, count: 1 });
    throw err;
  }
  await catalogueChanged(ctx);
}
