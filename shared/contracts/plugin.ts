import { z } from 'zod';

/** Plugin types: page plugin 1, function plugin 2 (the only kind the client keeps). */
export const PluginTypes = { page: 1, function: 2 } as const;

/** GET /api/Plugin/GetPluginListAll?scene= : web, extension or h5; absent lists every scene's. */
export const PluginListQuerySchema = z.object({ scene: z.enum(['web', 'extension', 'h5']).optional() });
export type PluginListQuery = z.infer<typeof PluginListQuerySchema>;

export const PluginSchema = z.object({
  pluginId: z.string(),
  pluginName: z.string(),
  description: z.string(),
  pluginType: z.number().int(),
  /** The tool the model calls: web_search, read_url, generate_image. */
  toolName: z.string(),
  icon: z.string(),
  pointsCost: z.number().int(),
  /** False when the server lacks what it needs (no search provider, no images endpoint): shown disabled. */
  available: z.boolean(),
});
export type Plugin = z.infer<typeof PluginSchema>;
export const PluginListSchema = z.array(PluginSchema);

/** POST /api/Chat/AddDraw: generate an image from a prompt (through the configured images endpoint). */
export const AddDrawBodySchema = z.object({
  prompt: z.string().trim().min(1, 'inputMessageRequired').max(4000),
  size: z.enum(['256x256', '512x512', '1024x1024']).default('1024x1024'),
});
export type AddDrawBody = z.infer<typeof AddDrawBodySchema>;
/**
 * The route's body: with `aiModelId`, an image-generation model of the catalogue draws (its first
 * deployment with an images API; its pointsCost charged); without, the operator's IMAGES_* endpoint
 * (the generate_image plugin's points). The chat's generate_image tool takes AddDrawBody only.
 */
export const AddDrawRequestSchema = AddDrawBodySchema.extend({ aiModelId: z.string().trim().min(1).max(64).optional() });
export type AddDrawRequest = z.infer<typeof AddDrawRequestSchema>;
export const AddDrawResultSchema = z.object({ chatMediaId: z.string(), imgSrcAll: z.string() });
export type AddDrawResult = z.infer<typeof AddDrawResultSchema>;

// ---- admin ----

/** A plugin as operators see it: offline ones included, with the scenes it is offered in. */
export const AdminPluginSchema = PluginSchema.extend({
  online: z.boolean(),
  /** Comma-separated scenes (web, extension, h5); '' offers it in every scene. */
  scenes: z.string(),
  sort: z.number().int(),
  updateTime: z.string(),
});
export type AdminPlugin = z.infer<typeof AdminPluginSchema>;
export const AdminPluginListSchema = z.array(AdminPluginSchema);

/** POST /api/admin/Plugin/Save: switch a plugin on or off, or change what each call costs. */
export const SavePluginSchema = z.object({
  pluginId: z.string().trim().min(1).max(64),
  online: z.boolean().optional(),
  pointsCost: z.number().int().min(0).max(1_000_000).optional(),
});
export type SavePlugin = z.infer<typeof SavePluginSchema>;
