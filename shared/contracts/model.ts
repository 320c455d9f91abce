import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';

/** Plan levels as the client names them; vipPackageLevel 1 to 3, 0 for free users. */
export const VIP_LEVEL_NAMES = ['Free', 'Standard', 'Advanced', 'Super'] as const;
export const VipLevelSchema = z.coerce.number().int().min(0).max(3);

export const AUTO_MODEL_ID = 'auto';

export const ModelMapSchema = z.object({
  isImage: z.boolean(),
  /** File extensions (lower case, no dot) the model accepts besides images. */
  fileTypes: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9]{1,10}$/)).max(50),
});
export type ModelMap = z.infer<typeof ModelMapSchema>;

/** A catalogue model, as served to clients. */
export const CatalogueModelSchema = z.object({
  aiModelId: z.string(),
  name: z.string(),
  description: z.string(),
  minVipLevel: z.number().int(),
  minVipLevelName: z.string(),
  modelMap: ModelMapSchema,
  webSearch: z.boolean(),
  /** Points charged per message. */
  pointsCost: z.number().int(),
  /** Tokens the model reads at most. */
  contextWindow: z.number().int(),
  sort: z.number().int(),
});
export type CatalogueModel = z.infer<typeof CatalogueModelSchema>;

/** A listed model; locked means the caller's plan is below minVipLevel. */
export const ModelListItemSchema = CatalogueModelSchema.extend({ locked: z.boolean() });
export type ModelListItem = z.infer<typeof ModelListItemSchema>;
export const ModelListSchema = z.array(ModelListItemSchema);

export const ModelIdQuerySchema = z.object({ aiModelId: IdSchema });

export const ModelLevelCheckSchema = z.object({
  allowed: z.boolean(),
  minVipLevel: z.number().int(),
  minVipLevelName: z.string(),
  userVipLevel: z.number().int(),
});
export type ModelLevelCheck = z.infer<typeof ModelLevelCheckSchema>;

// ---- admin ----

export const AdminModelSchema = CatalogueModelSchema.extend({
  online: z.boolean(),
  /** 'env', 'ollama' or 'admin': seeding at start-up only updates its own entries. */
  source: z.string(),
  deploymentCount: z.number().int(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminModel = z.infer<typeof AdminModelSchema>;

export const AdminModelListQuerySchema = PageQuerySchema.extend({
  keyword: z.string().trim().max(100).optional(),
});

const modelIdPattern = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'letters, digits, dot, dash and underscore only');

export const SaveModelSchema = z.object({
  /** Absent: a new model whose id is derived from the name. Present: updated, or created with this id. */
  aiModelId: modelIdPattern.optional(),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).default(''),
  minVipLevel: VipLevelSchema.default(0),
  modelMap: ModelMapSchema.default({ isImage: false, fileTypes: [] }),
  webSearch: z.boolean().default(true),
  pointsCost: z.number().int().min(0).max(1_000_000).default(1),
  contextWindow: z.number().int().min(256).max(100_000_000).default(8192),
  sort: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  online: z.boolean().default(true),
});
export type SaveModel = z.infer<typeof SaveModelSchema>;

export const ModelOnlineSchema = z.object({ aiModelId: IdSchema, online: z.boolean() });

export const PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google', 'ollama'] as const;
export const ProviderSchema = z.enum(PROVIDERS);
export type Provider = z.infer<typeof ProviderSchema>;

/** An upstream deployment ("model map"). The key is write-only: only whether one is set and a masked hint come back. */
export const AdminDeploymentSchema = z.object({
  aiModelMapId: z.string(),
  aiModelId: z.string(),
  provider: ProviderSchema,
  baseUrl: z.string().nullable(),
  upstreamModelId: z.string(),
  priority: z.number().int(),
  enabled: z.boolean(),
  source: z.string(),
  hasApiKey: z.boolean(),
  apiKeyHint: z.string().nullable(),
  /** Set while this instance keeps the deployment out of rotation after failures. */
  coolingUntil: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminDeployment = z.infer<typeof AdminDeploymentSchema>;

export const DeploymentListQuerySchema = z.object({ aiModelId: IdSchema });
export const DeploymentIdQuerySchema = z.object({ aiModelMapId: IdSchema });

export const SaveDeploymentSchema = z.object({
  aiModelMapId: IdSchema.optional(),
  aiModelId: IdSchema,
  provider: ProviderSchema,
  /** Empty: the provider's default (Ollama: OLLAMA_URL). */
  baseUrl: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.url({ protocol: /^https?$/ }).max(500).nullable().optional(),
  ),
  /** Omitted (or null): keep the stored key. Empty string: remove it. */
  apiKey: z.string().trim().max(1000).nullable().optional(),
  upstreamModelId: z.string().trim().min(1).max(200),
  /** Lower is tried first. */
  priority: z.number().int().min(-1000).max(1000).default(0),
  enabled: z.boolean().default(true),
});
export type SaveDeployment = z.infer<typeof SaveDeploymentSchema>;

export const ModelIdBodySchema = z.object({ aiModelId: IdSchema });
export const DeploymentIdBodySchema = z.object({ aiModelMapId: IdSchema });
