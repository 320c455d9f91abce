import { z } from 'zod';
import { IdSchema, PageQuerySchema } from './common.ts';
import { ModelTypeIdSchema, ModelTypeIdsSchema } from './model-type.ts';

/** Plan levels as the client names them; vipPackageLevel 1 to 3, 0 for free users. */
export const VIP_LEVEL_NAMES = ['Free', 'Standard', 'Advanced', 'Super'] as const;
export const VipLevelSchema = z.coerce.number().int().min(0).max(3);

export const AUTO_MODEL_ID = 'auto';

export const ModelMapSchema = z.object({
  /** Reads images: the model has the vision type (shared/contracts/model-type.ts). */
  isImage: z.boolean(),
  /** File extensions (lower case, no dot) the model accepts besides images. */
  fileTypes: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9]{1,10}$/)).max(50),
});
export type ModelMap = z.infer<typeof ModelMapSchema>;

/** Highest price per 1,000 tokens an operator may set (points). */
export const MAX_POINTS_PER_1K = 1_000_000;
const per1k = z
  .number()
  .min(0)
  .max(MAX_POINTS_PER_1K)
  // Stored in thousandths (points per million tokens): a finer price would be rounded away.
  .refine((v) => Math.abs(Math.round(v * 1000) - v * 1000) < 1e-6, 'priceDecimals');

/**
 * Token pricing (docs/economy.md#token-pricing): points per 1,000 input and output tokens. The
 * message's pointsCost is held when it is sent; when the answer ends its tokens are priced, rounded
 * up to whole points, and the difference is taken or given back.
 */
export const TokenPriceSchema = z.object({ inputPer1k: per1k, outputPer1k: per1k });
export type TokenPrice = z.infer<typeof TokenPriceSchema>;

/** A catalogue model, as served to clients. */
export const CatalogueModelSchema = z.object({
  aiModelId: z.string(),
  name: z.string(),
  description: z.string(),
  minVipLevel: z.number().int(),
  minVipLevelName: z.string(),
  modelMap: ModelMapSchema,
  webSearch: z.boolean(),
  /** Points charged per message: with tokenPrice, the hold taken when it is sent. */
  pointsCost: z.number().int(),
  /** Null (or absent, from an older server): the flat pointsCost per message. */
  tokenPrice: TokenPriceSchema.nullable().default(null),
  /** Tokens the model reads at most. */
  contextWindow: z.number().int(),
  sort: z.number().int(),
  /**
   * Its model types' ids (chat, vision, image, ...: GetAiModelTypeAll names them), in the types' order.
   * Empty only from an older server, whose models were all chat models.
   */
  types: z.array(z.string()).default([]),
});
export type CatalogueModel = z.infer<typeof CatalogueModelSchema>;

/** A listed model; locked means the caller's plan is below minVipLevel. */
export const ModelListItemSchema = CatalogueModelSchema.extend({ locked: z.boolean() });
export type ModelListItem = z.infer<typeof ModelListItemSchema>;
export const ModelListSchema = z.array(ModelListItemSchema);

export const ModelIdQuerySchema = z.object({ aiModelId: IdSchema });

/** GET /api/AiModel/GetModelListAll: only the models of one type ('auto' counts as chat); absent, all. */
export const ModelListQuerySchema = z.object({ aiModelTypeId: ModelTypeIdSchema.optional() });

/** GET /api/AiModel/GetModelListByVipPackageId: a package of the pricing list ('free' for the free plan). */
export const VipPackageModelsQuerySchema = z.object({ vipPackageId: IdSchema });

/** What a package unlocks: the catalogue's models whose minVipLevel its level reaches, in catalogue order ('auto' not among them). */
export const VipPackageModelListSchema = z.object({
  vipPackageId: z.string(),
  /** The package's level: 0 for the free plan, else 1 to 3. */
  level: z.number().int(),
  list: z.array(CatalogueModelSchema),
});
export type VipPackageModelList = z.infer<typeof VipPackageModelListSchema>;

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
  /** Only the models of this type. */
  aiModelTypeId: ModelTypeIdSchema.optional(),
});

const modelIdPattern = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'letters, digits, dot, dash and underscore only');

export const SaveModelSchema = z
  .object({
    /** Absent: a new model whose id is derived from the name. Present: updated, or created with this id. */
    aiModelId: modelIdPattern.optional(),
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(1000).default(''),
    minVipLevel: VipLevelSchema.default(0),
    modelMap: ModelMapSchema.default({ isImage: false, fileTypes: [] }),
    /**
     * Its types. Present: exactly these (modelMap.isImage then follows 'vision'). Absent: a new model
     * is a chat model, an existing one keeps its types; either way with vision as modelMap.isImage says.
     */
    typeIds: ModelTypeIdsSchema.optional(),
    webSearch: z.boolean().default(true),
    pointsCost: z.number().int().min(0).max(1_000_000).default(1),
    /** Absent or null: a flat pointsCost per message. */
    tokenPrice: TokenPriceSchema.nullable().default(null),
    contextWindow: z.number().int().min(256).max(100_000_000).default(8192),
    sort: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    online: z.boolean().default(true),
  })
  // The hold is what a user must have to send: without one, an account with no points would be answered.
  .refine((m) => !m.tokenPrice || m.pointsCost >= 1, { message: 'tokenPriceNeedsHold', path: ['pointsCost'] });
export type SaveModel = z.infer<typeof SaveModelSchema>;

export const ModelOnlineSchema = z.object({ aiModelId: IdSchema, online: z.boolean() });

export const PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google', 'ollama'] as const;
export const ProviderSchema = z.enum(PROVIDERS);
/**
 * What an OpenAI-style deployment (openai, openai-compatible, ollama) speaks: 'chat' (chat completions)
 * or 'responses' (OpenAI's Responses API, for models offered only there). Other providers: 'chat'.
 */
export const DEPLOYMENT_PROTOCOLS = ['chat', 'responses'] as const;
export const DeploymentProtocolSchema = z.enum(DEPLOYMENT_PROTOCOLS);
export type DeploymentProtocol = z.infer<typeof DeploymentProtocolSchema>;
/** The providers whose deployments may speak the Responses API. */
export const RESPONSES_PROVIDERS: readonly Provider[] = ['openai', 'openai-compatible', 'ollama'];
export type Provider = z.infer<typeof ProviderSchema>;

/** Answers of one deployment over a window, from stored messages and recorded upstream failures. */
export const DeploymentWindowStatsSchema = z.object({
  /** Answers this deployment started (first text arrived) plus its recorded failures. */
  attempts: z.number().int(),
  successes: z.number().int(),
  failures: z.number().int(),
  /** successes / attempts, 0 to 1; null without attempts. */
  successRate: z.number().nullable(),
  /** Median time to first token in ms over its answers; null without measured answers. */
  p50FirstTokenMs: z.number().nullable(),
});
export type DeploymentWindowStats = z.infer<typeof DeploymentWindowStatsSchema>;

/** A deployment's health as the console shows it. */
export const DeploymentHealthSchema = z.object({
  /** The latest recorded upstream failure (its error text, never a key or a stack) and when. */
  lastError: z.string().nullable(),
  lastErrorTime: z.string().nullable(),
  /** Over the last 24 hours and the last 7 days. */
  day: DeploymentWindowStatsSchema,
  week: DeploymentWindowStatsSchema,
});
export type DeploymentHealth = z.infer<typeof DeploymentHealthSchema>;

/** An upstream deployment ("model map"). The key is write-only: only whether one is set and a masked hint come back. */
export const AdminDeploymentSchema = z.object({
  aiModelMapId: z.string(),
  aiModelId: z.string(),
  provider: ProviderSchema,
  protocol: DeploymentProtocolSchema,
  baseUrl: z.string().nullable(),
  upstreamModelId: z.string(),
  priority: z.number().int(),
  enabled: z.boolean(),
  source: z.string(),
  hasApiKey: z.boolean(),
  apiKeyHint: z.string().nullable(),
  /** Set while this instance keeps the deployment out of rotation after failures. */
  coolingUntil: z.string().nullable(),
  health: DeploymentHealthSchema,
  createTime: z.string(),
  updateTime: z.string(),
});
export type AdminDeployment = z.infer<typeof AdminDeploymentSchema>;

export const DeploymentListQuerySchema = z.object({ aiModelId: IdSchema });

/**
 * GET /api/admin/AiModelMap/GetAiModelListAll: every deployment across models. A provider account is
 * its provider and base URL; keyword matches the upstream model id or the model's id or name.
 */
export const AllDeploymentsQuerySchema = PageQuerySchema.extend({
  aiModelId: IdSchema.optional(),
  provider: ProviderSchema.optional(),
  /** The account's base URL, exactly; '' the provider's default. */
  baseUrl: z.string().trim().max(500).optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type AllDeploymentsQuery = z.infer<typeof AllDeploymentsQuerySchema>;

/** One row of that list: the deployment (key only as hasApiKey and a masked hint) and its model's name. */
export const AdminDeploymentRowSchema = AdminDeploymentSchema.extend({ modelName: z.string(), modelOnline: z.boolean() });
export type AdminDeploymentRow = z.infer<typeof AdminDeploymentRowSchema>;

/** The provider accounts in use (provider and base URL), for the list's account filter. */
export const ProviderAccountSchema = z.object({ provider: ProviderSchema, baseUrl: z.string().nullable(), deploymentCount: z.number().int() });
export type ProviderAccount = z.infer<typeof ProviderAccountSchema>;
export const AllDeploymentsSchema = z.object({
  list: z.array(AdminDeploymentRowSchema),
  total: z.number().int(),
  accounts: z.array(ProviderAccountSchema),
});
export type AllDeployments = z.infer<typeof AllDeploymentsSchema>;
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
  /** Absent: unchanged ('chat' for a new deployment). 'responses' only for OpenAI-style providers. */
  protocol: DeploymentProtocolSchema.optional(),
  /** Lower is tried first. */
  priority: z.number().int().min(-1000).max(1000).default(0),
  enabled: z.boolean().default(true),
});
export type SaveDeployment = z.infer<typeof SaveDeploymentSchema>;

export const ModelIdBodySchema = z.object({ aiModelId: IdSchema });
export const DeploymentIdBodySchema = z.object({ aiModelMapId: IdSchema });

/** POST /api/admin/AiModel/Sort: the catalogue's order, first to last (sort 10, 20, 30, ...); models not named keep theirs after these. */
export const SortModelsSchema = z.object({
  ids: z
    .array(IdSchema)
    .min(1)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'duplicateIds'),
});
export type SortModels = z.infer<typeof SortModelsSchema>;

/**
 * An upstream to talk to without a saved deployment: a saved deployment's settings (aiModelMapId),
 * each given field replacing the saved one; or, without aiModelMapId, provider and its fields.
 * apiKey omitted (or null) uses the saved key; an empty string means none.
 */
const upstreamTargetFields = {
  aiModelMapId: IdSchema.optional(),
  provider: ProviderSchema.optional(),
  baseUrl: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.url({ protocol: /^https?$/ }).max(500).nullable().optional(),
  ),
  apiKey: z.string().trim().max(1000).nullable().optional(),
  /** Absent: the saved deployment's (or chat completions). */
  protocol: DeploymentProtocolSchema.optional(),
};

/** POST /api/admin/AiModelMap/Test: one short prompt, nobody charged, nothing stored. */
export const TestDeploymentSchema = z
  .object({
    ...upstreamTargetFields,
    upstreamModelId: z.string().trim().min(1).max(200).optional(),
    /** Absent: a short greeting. */
    prompt: z.string().trim().min(1).max(500).optional(),
  })
  .refine((b) => b.aiModelMapId || (b.provider && b.upstreamModelId), 'deploymentTargetRequired');
export type TestDeployment = z.infer<typeof TestDeploymentSchema>;

export const TestDeploymentResultSchema = z.object({
  ok: z.boolean(),
  /** The first tokens of the answer (up to about 200 characters). */
  text: z.string(),
  /** ms from the request to the first text; null when none came. */
  firstTokenMs: z.number().int().nullable(),
  totalMs: z.number().int(),
  /** busy, auth, not-found, context-too-long, timeout, request; null when ok. */
  errorKind: z.string().nullable(),
  /** What went wrong, for the operator (the provider's message, never a stack or the key); null when ok. */
  error: z.string().nullable(),
});
export type TestDeploymentResult = z.infer<typeof TestDeploymentResultSchema>;

/** POST /api/admin/AiModelMap/OpenAiModel: the models an upstream lists (GET {baseUrl}/models; Ollama /api/tags). */
export const UpstreamModelListSchema = z
  .object(upstreamTargetFields)
  .refine((b) => b.aiModelMapId || b.provider, 'deploymentTargetRequired');
export type UpstreamModelListRequest = z.infer<typeof UpstreamModelListSchema>;

export const UpstreamModelEntrySchema = z.object({
  upstreamModelId: z.string(),
  ownedBy: z.string().nullable(),
  /** A deployment of this provider, base URL and upstream model id already exists. */
  imported: z.boolean(),
  /** The catalogue model such a deployment serves, if any. */
  aiModelId: z.string().nullable(),
});
export type UpstreamModelEntry = z.infer<typeof UpstreamModelEntrySchema>;
export const UpstreamModelListResultSchema = z.object({ list: z.array(UpstreamModelEntrySchema) });

/**
 * POST /api/admin/AiModel/SyncModelMap: one catalogue model (id from the upstream id) and one
 * deployment per chosen upstream model. Idempotent: an upstream model that already has a deployment
 * of this provider and base URL is skipped; an existing catalogue model of that id gains the
 * deployment.
 */
export const SyncModelMapSchema = z
  .object({
    ...upstreamTargetFields,
    upstreamModelIds: z
      .array(z.string().trim().min(1).max(200))
      .min(1)
      .max(200)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicateIds'),
    minVipLevel: VipLevelSchema.default(0),
    pointsCost: z.number().int().min(0).max(1_000_000).default(1),
    contextWindow: z.number().int().min(256).max(100_000_000).default(8192),
    isImage: z.boolean().default(false),
    /** The new models' types; absent: chat (and vision with isImage). */
    typeIds: ModelTypeIdsSchema.optional(),
    webSearch: z.boolean().default(true),
    /** New models start offline unless asked, so an operator can check them first. */
    online: z.boolean().default(false),
  })
  .refine((b) => b.aiModelMapId || b.provider, 'deploymentTargetRequired');
export type SyncModelMap = z.infer<typeof SyncModelMapSchema>;

export const SyncModelMapResultSchema = z.object({
  created: z.array(z.object({ upstreamModelId: z.string(), aiModelId: z.string(), aiModelMapId: z.string(), newModel: z.boolean() })),
  /** Already imported: the deployment that serves it. */
  skipped: z.array(z.object({ upstreamModelId: z.string(), aiModelId: z.string(), aiModelMapId: z.string() })),
});
export type SyncModelMapResult = z.infer<typeof SyncModelMapResultSchema>;
