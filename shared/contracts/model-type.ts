import { z } from 'zod';
import { IdSchema, LanguageSchema } from './common.ts';

/**
 * Model types (the AiModelType route families): what a catalogue model is for. Each model has one or
 * more (a chat model may also be vision). Operators keep the list, named in English and Chinese, in
 * their order, each shown to users or not (`enabled`).
 *
 * Routes (every answer is the usual { Code, Msg, Data } envelope):
 * - GET  /api/AiModelType/GetAiModelTypeAll ?language=  → ModelType[] (public: enabled types, named in
 *        `language`, default the caller's accept-language, in order)
 * - GET  /api/AiModel/GetModelListAll ?aiModelTypeId=  (also /api/Chat/GetModelListAll): each model lists
 *        its `types`; with aiModelTypeId only the models of that type ('auto' counts as chat)
 * - POST /api/Chat/AddMessage refuses a model that is not a chat model, POST /api/Chat/AddDraw one that is
 *        not an image-generation model: 10463 (ModelWrongType)
 * Admin (role admin, 10403 otherwise; every write in the audit log, target `aiModelType`):
 * - GET  /api/admin/AiModelType/GetList → AdminModelType[]; GET GetById ?aiModelTypeId=; POST Save
 *        (AdminSaveModelTypeBody); POST Delete ({ aiModelTypeId }): refused with 10409 while a model has
 *        the type (modelTypeInUse) and for the built-in chat, vision and image (modelTypeBuiltIn)
 * - POST /api/admin/AiModel/Save takes `typeIds`.
 */

/** The types the server's own checks use: a chat message needs chat, reading images vision, drawing image. */
export const MODEL_TYPE_IDS = { chat: 'chat', vision: 'vision', image: 'image' } as const;
/** Built in: they can be renamed, re-ordered and hidden, never deleted. */
export const BUILT_IN_MODEL_TYPES: readonly string[] = Object.values(MODEL_TYPE_IDS);

export const MAX_MODEL_TYPE_NAME_CHARS = 30;
/** How many types one model may have. */
export const MAX_TYPES_PER_MODEL = 10;

export const ModelTypeIdSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(32)
  .regex(/^[a-z][a-z0-9-]*$/, 'modelTypeIdInvalid');

/** A type as users see it: its id and its name in the reader's language. */
export const ModelTypeSchema = z.object({ aiModelTypeId: z.string(), name: z.string(), sort: z.number().int() });
export type ModelType = z.infer<typeof ModelTypeSchema>;
export const ModelTypeListSchema = z.array(ModelTypeSchema);
export const ModelTypeListQuerySchema = z.object({ language: LanguageSchema.optional() });

/** The types a model is saved with (repeats dropped); each must be an existing type, and at least one. */
export const ModelTypeIdsSchema = z
  .array(ModelTypeIdSchema)
  .min(1, 'modelTypesRequired')
  .max(MAX_TYPES_PER_MODEL, 'modelTypesTooMany')
  .transform((ids) => [...new Set(ids)]);

// ---- admin ----

export const AdminModelTypeSchema = z.object({
  aiModelTypeId: z.string(),
  nameEn: z.string(),
  nameZh: z.string(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** chat, vision and image: the server's checks use them, so they cannot be deleted. */
  builtIn: z.boolean(),
  /** Catalogue models (online or not) that have it. */
  modelCount: z.number().int(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminModelType = z.infer<typeof AdminModelTypeSchema>;
export const AdminModelTypeListSchema = z.array(AdminModelTypeSchema);

/** An absent name reads as empty, so it gets its own message rather than "expected string". */
const typeName = z.preprocess((v) => v ?? '', z.string().trim().min(1, 'modelTypeNameRequired').max(MAX_MODEL_TYPE_NAME_CHARS, 'modelTypeNameTooLong'));

export const AdminSaveModelTypeBodySchema = z.object({
  /** An existing type: updated. Otherwise a new type with this id (absent: one derived from nameEn). */
  aiModelTypeId: ModelTypeIdSchema.optional(),
  nameEn: typeName,
  nameZh: typeName,
  /** Absent: after the others (create) or unchanged (update). */
  sort: z.number().int().min(0).max(1_000_000).optional(),
  /** Absent: shown (create) or unchanged (update). */
  enabled: z.boolean().optional(),
});
export type AdminSaveModelTypeBody = z.infer<typeof AdminSaveModelTypeBodySchema>;
export const AdminModelTypeIdQuerySchema = z.object({ aiModelTypeId: IdSchema });
export const AdminModelTypeIdBodySchema = z.object({ aiModelTypeId: IdSchema });
