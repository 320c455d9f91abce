import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { PluginTypes, type AdminPlugin, type Plugin, type PluginListQuery, type SavePlugin } from '../../../shared/contracts/plugin.ts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { plugins } from '../../db/schema/plugins.ts';
import { AppError } from '../../core/errors.ts';
import { imagesConfigured } from '../../providers/images.ts';
import { searchProviderName } from '../../providers/web-search.ts';

/**
 * The function plugins the server implements (server/services/chat/tools.ts runs them). `remember` is
 * not a plugin anyone switches on: the chat offers it when memory is on (server/services/personalization/personalization.ts).
 */
export type ToolName = 'web_search' | 'read_url' | 'generate_image' | 'remember';

type BuiltIn = { toolName: ToolName; name: string; description: string; pointsCost: number; sort: number };

/** Seeded at start-up with the tool name as id; operators may switch them off and change their cost. */
const BUILT_INS: readonly BuiltIn[] = [
  {
    toolName: 'web_search',
    name: 'Web search',
    description: 'Lets the assistant search the web when a question needs recent or outside information, and cite its sources.',
    pointsCost: 1,
    sort: 10,
  },
  {
    toolName: 'read_url',
    name: 'Read web page',
    description: 'Lets the assistant open a public web page by its address and read it.',
    pointsCost: 1,
    sort: 20,
  },
  {
    toolName: 'generate_image',
    name: 'Image generation',
    description: 'Lets the assistant draw an image from a description.',
    pointsCost: 10,
    sort: 30,
  },
];

const isToolName = (name: string): name is ToolName => BUILT_INS.some((b) => b.toolName === name);

/** Whether the server has what a tool needs: a search provider, an images endpoint. */
export function toolAvailable(config: Config, toolName: string): boolean {
  switch (toolName) {
    case 'web_search':
      return searchProviderName(config) !== null;
    case 'read_url':
      return true;
    case 'generate_image':
      return imagesConfigured(config);
    default:
      return false;
  }
}

/**
 * Creates the built-in plugins, and keeps their names and descriptions current. What an operator
 * sets (online, pointsCost, sort, scenes) is left as it is.
 */
export async function seedPlugins(ctx: AppContext): Promise<void> {
  for (const b of BUILT_INS) {
    const text = { name: b.name, description: b.description, pluginType: PluginTypes.function };
    await ctx.db
      .insert(plugins)
      .values({ id: b.toolName, toolName: b.toolName, pointsCost: b.pointsCost, sort: b.sort, ...text })
      .onConflictDoUpdate({ target: plugins.toolName, set: text });
  }
}

type PluginRow = typeof plugins.$inferSelect;

const toPlugin = (config: Config, row: PluginRow): Plugin => ({
  pluginId: row.id,
  pluginName: row.name,
  description: row.description,
  pluginType: row.pluginType,
  toolName: row.toolName,
  icon: row.icon,
  pointsCost: row.pointsCost,
  available: toolAvailable(config, row.toolName),
});

const offeredIn = (row: PluginRow, scene: string | undefined) =>
  !scene || !row.scenes || row.scenes.split(',').map((s) => s.trim()).includes(scene);

/** The online plugins offered in `scene` (every scene's when absent). */
export async function listPlugins(ctx: AppContext, query: PluginListQuery): Promise<Plugin[]> {
  const rows = await ctx.db.select().from(plugins).where(eq(plugins.online, true)).orderBy(asc(plugins.sort), asc(plugins.name));
  return rows.filter((r) => offeredIn(r, query.scene)).map((r) => toPlugin(ctx.config, r));
}

/** A function plugin switched on for a message: what the tool loop needs to offer, run and charge it. */
export type MessagePlugin = { pluginId: string; name: string; toolName: ToolName; pointsCost: number };

/**
 * The plugins a message switched on (AddMessage pluginIds). Each must be an online function plugin
 * the server can run; otherwise the message is refused before anything is charged.
 */
export async function loadMessagePlugins(ctx: AppContext, ids: readonly (string | number)[]): Promise<MessagePlugin[]> {
  const wanted = [...new Set(ids.map(String))];
  if (!wanted.length) return [];
  const rows = await ctx.db
    .select()
    .from(plugins)
    .where(and(inArray(plugins.id, wanted), eq(plugins.online, true), eq(plugins.pluginType, PluginTypes.function)));
  if (rows.length !== wanted.length) throw new AppError(Codes.NotFound, 'pluginNotFound');
  const found: MessagePlugin[] = [];
  for (const row of rows) {
    if (!isToolName(row.toolName)) throw new AppError(Codes.NotFound, 'pluginNotFound');
    if (!toolAvailable(ctx.config, row.toolName)) throw new AppError(Codes.NotConfigured, 'pluginNotConfigured', { plugin: row.name });
    found.push({ pluginId: row.id, name: row.name, toolName: row.toolName, pointsCost: row.pointsCost });
  }
  return found;
}

// ---- admin ----

const toAdminPlugin = (config: Config, row: PluginRow): AdminPlugin => ({
  ...toPlugin(config, row),
  online: row.online,
  scenes: row.scenes,
  sort: row.sort,
  updateTime: row.updatedAt.toISOString(),
});

export async function adminListPlugins(ctx: AppContext): Promise<AdminPlugin[]> {
  const rows = await ctx.db.select().from(plugins).orderBy(asc(plugins.sort), asc(plugins.name));
  return rows.map((r) => toAdminPlugin(ctx.config, r));
}

export async function adminSavePlugin(ctx: AppContext, input: SavePlugin): Promise<AdminPlugin> {
  const [row] = await ctx.db
    .update(plugins)
    .set({
      ...(input.online === undefined ? {} : { online: input.online }),
      ...(input.pointsCost === undefined ? {} : { pointsCost: input.pointsCost }),
      updatedAt: sql`now()`,
    })
    .where(eq(plugins.id, input.pluginId))
    .returning();
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return toAdminPlugin(ctx.config, row);
}
