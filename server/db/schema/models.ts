import type { ParamBounds } from '../../../shared/contracts/param-tools.ts';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** What users pick: a catalogue model. It is served by one or more deployments. */
export const aiModels = pgTable('ai_models', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  minVipLevel: integer('min_vip_level').notNull().default(0),
  fileTypes: jsonb('file_types').$type<string[]>().notNull().default([]),
  webSearch: boolean('web_search').notNull().default(false),
  /** Points charged per message; with token prices, the hold taken when the message is sent. */
  pointsCost: integer('points_cost').notNull().default(1),
  /**
   * Token pricing (docs/economy.md#token-pricing): points per million input and output tokens
   * (thousandths of a point per 1,000), both set or both null. Null: the flat pointsCost per message.
   */
  inputPointsPer1m: integer('input_points_per_1m'),
  outputPointsPer1m: integer('output_points_per_1m'),
  contextWindow: integer('context_window').notNull().default(8192),
  /**
   * The bounds of the parameters users may set per chat (ParamTools, docs/api.md#model-parameters):
   * temperature, maximum answer length, a system prompt. Null: the defaults (DEFAULT_PARAM_BOUNDS).
   * Read with the catalogue, so applying them costs the send path no query.
   */
  paramBounds: jsonb('param_bounds').$type<ParamBounds>(),
  sort: integer('sort').notNull().default(0),
  online: boolean('online').notNull().default(true),
  /** 'env', 'ollama' or 'admin': who created it; seeding only touches its own entries. */
  source: text('source').notNull().default('admin'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An upstream deployment: provider account, key (AES-256-GCM, services/system/secrets.ts) and upstream model
 * id. Several may serve one model with the same upstream id (two keys of one account fail over).
 */
export const aiDeployments = pgTable(
  'ai_deployments',
  {
    id: text('id').primaryKey(),
    aiModelId: text('ai_model_id').notNull().references(() => aiModels.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['openai-compatible', 'openai', 'anthropic', 'google', 'ollama'] }).notNull(),
    /** Null: the provider's default (Ollama: OLLAMA_URL). */
    baseUrl: text('base_url'),
    apiKeyEnc: text('api_key_enc'),
    upstreamModelId: text('upstream_model_id').notNull(),
    /**
     * The API an OpenAI-style deployment speaks: 'chat' (chat completions) or 'responses' (OpenAI's
     * Responses API, for models offered only there). Other providers ignore it.
     */
    protocol: text('protocol', { enum: ['chat', 'responses'] }).notNull().default('chat'),
    /** Lower is tried first. */
    priority: integer('priority').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    source: text('source').notNull().default('admin'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_deployments_model_idx').on(t.aiModelId, t.priority)],
);

/**
 * Model types (AiModelType): chat, vision, image generation, embedding, translation and any an operator
 * adds, named in both languages. The id is a short code the server's checks use for the built-in ones
 * (MODEL_TYPE_IDS in shared/contracts/model-type.ts). `enabled` decides whether users are shown it.
 */
export const aiModelTypes = pgTable('ai_model_types', {
  id: text('id').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameZh: text('name_zh').notNull(),
  sort: integer('sort').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which types a catalogue model has (one or more). 'vision' here is what "reads images" means
 * (modelMap.isImage). A type still linked cannot be deleted (restrict): the service says so first.
 */
export const aiModelTypeLinks = pgTable(
  'ai_model_type_links',
  {
    aiModelId: text('ai_model_id')
      .notNull()
      .references(() => aiModels.id, { onDelete: 'cascade' }),
    typeId: text('type_id')
      .notNull()
      .references(() => aiModelTypes.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.aiModelId, t.typeId] }), index('ai_model_type_links_type_idx').on(t.typeId)],
);
