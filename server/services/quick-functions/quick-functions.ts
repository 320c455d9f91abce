import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  MAX_QF_DEPTH,
  MAX_USER_QUICK_FUNCTIONS,
  type AdminQuickFunction,
  type AdminSaveQuickFunctionBody,
  type QuickFunctionExport,
  type QuickFunctionItem,
  type QuickFunctionNode,
  type SaveUserQuickFunctionBody,
  type UserQuickFunction,
} from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { quickFunctions, userQuickFunctions } from '../../db/schema/quick-functions.ts';
import { AppError } from '../../core/errors.ts';
import { buildQuickFunctionTree, flattenTree } from './quick-function-tree.ts';
import { lockUser } from '../accounts/user-lock.ts';
import { setOwnPromptTags, tagIdsOfOwnPrompts } from '../prompts/prompt-tags.ts';
import { toolLabel } from '../../../shared/utils/tool-label.ts';

/**
 * Quick functions (prompt tools): operators' built-ins and users' own (custom prompts). The menu
 * tree (GetQuickFunctionListAll2) and the AddMessage lookup read a per-instance cache: built-ins per
 * language, dropped on every instance through the bus channel 'quick-functions' when an operator
 * changes them; a user's own, per user, dropped (here and on the other instances) when they change them.
 */

type BuiltInRow = typeof quickFunctions.$inferSelect;
type UserRow = typeof userQuickFunctions.$inferSelect;

const CHANNEL = 'quick-functions';
const BUILT_INS_MESSAGE = 'built-ins';
/** Own items kept in memory at once, all users together (least recently used users dropped first). */
const USER_CACHE_MAX_ROWS = 50_000;

type State = {
  builtIns: { rows: BuiltInRow[]; trees: Map<Language, QuickFunctionNode[]> } | null;
  loading: Promise<BuiltInRow[]> | null;
  generation: number;
  users: Map<string, UserRow[]>;
  /** How many rows `users` holds. */
  userRows: number;
  userGenerations: Map<string, number>;
};

const states = new WeakMap<AppContext, State>();

function stateOf(ctx: AppContext): State {
  let state = states.get(ctx);
  if (!state) {
    const created: State = { builtIns: null, loading: null, generation: 0, users: new Map(), userRows: 0, userGenerations: new Map() };
    states.set(ctx, created);
    ctx.bus.subscribe(CHANNEL, (message) => (message === BUILT_INS_MESSAGE ? dropBuiltIns(created) : dropUser(created, message)));
    state = created;
  }
  return state;
}

/** Joins this instance to quick-function changes (the bus channel) before the first read. */
export function watchQuickFunctionChanges(ctx: AppContext): void {
  stateOf(ctx);
}

function dropBuiltIns(state: State) {
  state.generation++;
  state.builtIns = null;
  state.loading = null;
}

function forgetRows(state: State, userId: string) {
  state.userRows -= state.users.get(userId)?.length ?? 0;
  state.users.delete(userId);
}

function dropUser(state: State, userId: string) {
  forgetRows(state, userId);
  state.userGenerations.set(userId, (state.userGenerations.get(userId) ?? 0) + 1);
}

async function publish(ctx: AppContext, message: string) {
  await ctx.bus.publish(CHANNEL, message).catch((err: Error) => ctx.log.error({ err }, 'quick function change not published'));
}

/** After an operator's change: this instance re-reads at once, the others when the bus delivers. */
export async function builtInsChanged(ctx: AppContext): Promise<void> {
  dropBuiltIns(stateOf(ctx));
  await publish(ctx, BUILT_INS_MESSAGE);
}

async function userChanged(ctx: AppContext, userId: string): Promise<void> {
  dropUser(stateOf(ctx), userId);
  await publish(ctx, userId);
}

async function builtInRows(ctx: AppContext): Promise<BuiltInRow[]> {
  const state = stateOf(ctx);
  if (state.builtIns) return state.builtIns.rows;
  if (!state.loading) {
    const generation = state.generation;
    const loading = ctx.db.select().from(quickFunctions).orderBy(asc(quickFunctions.sort), asc(quickFunctions.id));
    state.loading = loading.then((rows) => {
      // A change that arrived while reading makes this read stale: keep it out of the cache.
      if (state.generation === generation) state.builtIns = { rows, trees: new Map() };
      return rows;
    });
    state.loading.catch(() => {
      if (state.generation === generation) state.loading = null;
    });
  }
  return state.loading;
}

async function userRows(ctx: AppContext, userId: string): Promise<UserRow[]> {
  const state = stateOf(ctx);
  const cached = state.users.get(userId);
  if (cached) {
    // Most recently used last: the first key is the one to drop.
    state.users.delete(userId);
    state.users.set(userId, cached);
    return cached;
  }
  const generation = state.userGenerations.get(userId) ?? 0;
  const rows = await ctx.db
    .select()
    .from(userQuickFunctions)
    .where(eq(userQuickFunctions.userId, userId))
    .orderBy(asc(userQuickFunctions.sort), asc(userQuickFunctions.createdAt));
  if ((state.userGenerations.get(userId) ?? 0) === generation) {
    forgetRows(state, userId);
    state.users.set(userId, rows);
    state.userRows += rows.length;
    for (const oldest of state.users.keys()) {
      if (state.userRows <= USER_CACHE_MAX_ROWS || oldest === userId) break;
      forgetRows(state, oldest);
    }
  }
  return rows;
}

/** What a built-in and a user's own item carry alike: where and when it shows, and what runs it. */
const placement = (row: BuiltInRow | UserRow) => ({
  category: row.category,
  appliesTo: row.appliesTo,
  aiModelId: row.aiModelId,
  pinned: row.pinned,
  online: row.online,
  sort: row.sort,
  isGroup: row.isGroup,
});

const builtInItem = (row: BuiltInRow, lang: Language): QuickFunctionItem => ({
  quickFunctionId: row.id,
  userQuickFunctionId: null,
  parentId: row.parentId,
  name: lang === 'zh' ? row.nameZh : row.nameEn,
  icon: row.icon,
  description: lang === 'zh' ? row.descriptionZh : row.descriptionEn,
  template: lang === 'zh' ? row.templateZh : row.templateEn,
  ...placement(row),
});

const userItem = (row: UserRow, tagIds: string[] = []): UserQuickFunction => ({
  quickFunctionId: row.id,
  userQuickFunctionId: row.id,
  parentId: row.parentId,
  name: row.name,
  icon: row.icon,
  description: row.description,
  template: row.template,
  ...placement(row),
  updateTime: row.updatedAt.toISOString(),
  tagIds,
});

/**
 * The menu: online built-ins in the caller's language, then the caller's own online items. A hidden
 * item hides what is under it (its children's parent is then missing from the list).
 */
export async function quickFunctionMenu(ctx: AppContext, userId: string | null, lang: Language): Promise<QuickFunctionNode[]> {
  const rows = await builtInRows(ctx);
  const state = stateOf(ctx);
  let builtIn = state.builtIns?.rows === rows ? state.builtIns.trees.get(lang) : undefined;
  if (!builtIn) {
    builtIn = buildQuickFunctionTree(
      rows.filter((r) => r.online).map((r) => builtInItem(r, lang)),
      MAX_QF_DEPTH,
    );
    if (state.builtIns?.rows === rows) state.builtIns.trees.set(lang, builtIn);
  }
  if (!userId) return builtIn;
  const own = (await userRows(ctx, userId)).filter((r) => r.online).map((r) => userItem(r));
  return [...builtIn, ...buildQuickFunctionTree(own.map(({ updateTime: _t, tagIds: _tags, ...item }) => item), MAX_QF_DEPTH)];
}

/** A quick function used in a message, from the cache: a built-in (online) or one of the user's own. */
export type MessageTool = { quickFunctionId: string; name: string; icon: string; template: string };

/** The tool's name keeps its group's verb (toolLabel), as the bubble and the chat's title show it. */
export async function quickFunctionForMessage(ctx: AppContext, userId: string, id: string, lang: Language): Promise<MessageTool> {
  const builtIns = await builtInRows(ctx);
  const builtIn = builtIns.find((r) => r.id === id && r.online);
  const owns = builtIn ? [] : await userRows(ctx, userId);
  const own = owns.find((r) => r.id === id);
  const item = builtIn ? builtInItem(builtIn, lang) : own ? userItem(own) : null;
  if (!item) throw new AppError(Codes.NotFound, 'notFound');
  if (item.isGroup || !item.template) throw new AppError(Codes.BadRequest, 'quickFunctionIsGroup');
  const parent = builtIn ? builtIns.find((r) => r.id === builtIn.parentId) : owns.find((r) => r.id === own?.parentId);
  const parentName = parent && ('nameEn' in parent ? builtInItem(parent, lang).name : parent.name);
  return { quickFunctionId: item.quickFunctionId, name: parentName ? toolLabel(parentName, item.name) : item.name, icon: item.icon, template: item.template };
}

// ---- the user's own ----

/** The caller's own, with their tags (read from the database each time: the cache keeps the menu's fields only). */
export async function listOwnQuickFunctions(ctx: AppContext, userId: string): Promise<UserQuickFunction[]> {
  const [rows, tags] = await Promise.all([userRows(ctx, userId), tagIdsOfOwnPrompts(ctx.db, userId)]);
  return rows.map((row) => userItem(row, tags.get(row.id)));
}

const notFound = () => new AppError(Codes.NotFound, 'notFound');

/** How many levels the subtree under `id` spans (1 for an item without children). */
function heightOf(rows: { id: string; parentId: string | null }[], id: string, seen = new Set<string>()): number {
  if (seen.has(id)) return 1;
  seen.add(id);
  return 1 + rows.filter((r) => r.parentId === id).reduce((m, r) => Math.max(m, heightOf(rows, r.id, seen)), 0);
}

/**
 * A parent must exist among `rows`, must not be the item itself or anything under it, and the item
 * with everything under it must still fit MAX_QF_DEPTH levels.
 */
function checkParent(rows: { id: string; parentId: string | null }[], itemId: string | null, parentId: string | null) {
  if (!parentId) return;
  const byId = new Map(rows.map((r) => [r.id, r]));
  let at = byId.get(parentId);
  if (!at) throw new AppError(Codes.BadRequest, 'promptGroupInvalid');
  let parentLevel = 0;
  for (; at && parentLevel <= rows.length; parentLevel++) {
    if (at.id === itemId) throw new AppError(Codes.BadRequest, 'promptGroupInvalid');
    at = at.parentId ? byId.get(at.parentId) : undefined;
  }
  const height = itemId ? heightOf(rows, itemId) : 1;
  if (parentLevel + height > MAX_QF_DEPTH) throw new AppError(Codes.BadRequest, 'promptGroupInvalid');
}

export async function saveOwnQuickFunction(ctx: AppContext, userId: string, body: SaveUserQuickFunctionBody): Promise<UserQuickFunction> {
  const { userQuickFunctionId: id, tagIds, ...fields } = body;
  // Read, checked and written under the user's row lock: concurrent saves cannot pass the limit together.
  // The item and its tags are written together: an unknown tag leaves both as they were.
  const saved: UserRow[] = await ctx.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const rows = await tx.select().from(userQuickFunctions).where(eq(userQuickFunctions.userId, userId));
    if (id && !rows.some((r) => r.id === id)) throw notFound();
    checkParent(rows, id ?? null, fields.parentId);
    let written: UserRow[];
    if (id) {
      written = await tx
        .update(userQuickFunctions)
        .set({ ...fields, updatedAt: new Date() })
        .where(and(eq(userQuickFunctions.id, id), eq(userQuickFunctions.userId, userId)))
        .returning();
    } else {
      if (rows.length >= MAX_USER_QUICK_FUNCTIONS) throw new AppError(Codes.BadRequest, 'promptTooMany', { max: MAX_USER_QUICK_FUNCTIONS });
      const sort = rows.reduce((m, r) => Math.max(m, r.sort), 0) + 10;
      written = await tx
        .insert(userQuickFunctions)
        .values({ id: randomUUID(), userId, ...fields, sort })
        .returning();
    }
    if (written[0] && tagIds) await setOwnPromptTags(tx, written[0].id, tagIds);
    return written;
  });
  await userChanged(ctx, userId);
  if (!saved[0]) throw notFound();
  return userItem(saved[0], (await tagIdsOfOwnPrompts(ctx.db, userId)).get(saved[0].id));
}

/** Deletes one of the caller's own; what was under it moves to the root. */
export async function deleteOwnQuickFunction(ctx: AppContext, userId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .delete(userQuickFunctions)
      .where(and(eq(userQuickFunctions.id, id), eq(userQuickFunctions.userId, userId)))
      .returning({ id: userQuickFunctions.id });
    if (gone.length === 0) throw notFound();
    await tx
      .update(userQuickFunctions)
      .set({ parentId: null, updatedAt: new Date() })
      .where(and(eq(userQuickFunctions.userId, userId), eq(userQuickFunctions.parentId, id)));
  });
  await userChanged(ctx, userId);
}

export async function setOwnQuickFunctionOnline(ctx: AppContext, userId: string, id: string, online: boolean): Promise<void> {
  const updated = await ctx.db
    .update(userQuickFunctions)
    .set({ online, updatedAt: new Date() })
    .where(and(eq(userQuickFunctions.id, id), eq(userQuickFunctions.userId, userId)))
    .returning({ id: userQuickFunctions.id });
  if (updated.length === 0) throw notFound();
  await userChanged(ctx, userId);
}

export async function groupOwnQuickFunction(ctx: AppContext, userId: string, id: string, parentId: string | null): Promise<void> {
  const rows = await ctx.db
    .select({ id: userQuickFunctions.id, parentId: userQuickFunctions.parentId })
    .from(userQuickFunctions)
    .where(eq(userQuickFunctions.userId, userId));
  if (!rows.some((r) => r.id === id)) throw notFound();
  checkParent(rows, id, parentId);
  await ctx.db
    .update(userQuickFunctions)
    .set({ parentId, updatedAt: new Date() })
    .where(and(eq(userQuickFunctions.id, id), eq(userQuickFunctions.userId, userId)));
  await userChanged(ctx, userId);
}

/** Sets `sort` from the order of `ids` (10, 20, ...); every id must be one of the table's rows `owned` lets through. */
async function applyOrder(db: Db, table: 'user_quick_functions' | 'quick_functions', ids: string[], userId: string | null) {
  const order = JSON.stringify([...new Set(ids)]);
  const owner = userId ? sql` and t.user_id = ${userId}` : sql``;
  await db.execute(sql`
    update ${sql.identifier(table)} t set sort = v.ord * 10, updated_at = now()
    from jsonb_array_elements_text(${order}::jsonb) with ordinality as v(id, ord)
    where t.id = v.id${owner}`);
}

export async function sortOwnQuickFunctions(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const [found] = await ctx.db
    .select({ n: count() })
    .from(userQuickFunctions)
    .where(and(eq(userQuickFunctions.userId, userId), inArray(userQuickFunctions.id, unique)));
  if ((found?.n ?? 0) !== unique.length) throw notFound();
  await applyOrder(ctx.db, 'user_quick_functions', unique, userId);
  await userChanged(ctx, userId);
}

export async function exportOwnQuickFunctions(ctx: AppContext, userId: string): Promise<QuickFunctionExport> {
  const rows = await ctx.db
    .select()
    .from(userQuickFunctions)
    .where(eq(userQuickFunctions.userId, userId))
    .orderBy(asc(userQuickFunctions.sort), asc(userQuickFunctions.createdAt));
  return {
    version: 1,
    items: rows.map((r) => ({
      key: r.id,
      parentKey: r.parentId,
      name: r.name,
      icon: r.icon,
      description: r.description,
      template: r.template,
      category: r.category,
      appliesTo: r.appliesTo,
      pinned: r.pinned,
      online: r.online,
      isGroup: r.isGroup,
    })),
  };
}

/**
 * Adds the file's prompts to the caller's own (never replaces), with new ids. Grouping is kept where
 * the parent is in the same file; an item whose parent is missing, or on a cycle, becomes a root.
 */
export async function importOwnQuickFunctions(ctx: AppContext, userId: string, file: QuickFunctionExport): Promise<number> {
  const keys = new Set(file.items.map((i) => i.key));
  if (keys.size !== file.items.length) throw new AppError(Codes.BadRequest, 'promptImportDuplicateKey');
  if (file.items.length === 0) return 0;
  const ids = new Map(file.items.map((i) => [i.key, randomUUID()]));
  // Items reachable from a root keep their parent; the rest are made roots.
  const parents = new Map(file.items.map((i) => [i.key, i.parentKey && keys.has(i.parentKey) ? i.parentKey : null]));
  // Items on a cycle, or too deep, are not reached from a root: make the first such item a root, until all are placed.
  for (;;) {
    const tree = buildQuickFunctionTree(
      [...parents].map(([quickFunctionId, parentId]) => ({ quickFunctionId, parentId })),
      MAX_QF_DEPTH,
    );
    const placed = new Set(flattenTree(tree).map((n) => n.quickFunctionId));
    const stray = [...parents.keys()].find((k) => !placed.has(k));
    if (!stray) break;
    parents.set(stray, null);
  }
  // Counted and written under the user's row lock: concurrent imports cannot pass the limit together.
  await ctx.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [existing] = await tx.select({ n: count() }).from(userQuickFunctions).where(eq(userQuickFunctions.userId, userId));
    if ((existing?.n ?? 0) + file.items.length > MAX_USER_QUICK_FUNCTIONS) {
      throw new AppError(Codes.BadRequest, 'promptTooMany', { max: MAX_USER_QUICK_FUNCTIONS });
    }
    const [{ n: maxSort }] = await tx
      .select({ n: sql<number>`coalesce(max(${userQuickFunctions.sort}), 0)::int` })
      .from(userQuickFunctions)
      .where(eq(userQuickFunctions.userId, userId));
    await tx.insert(userQuickFunctions).values(
      file.items.map(({ key, parentKey: _parentKey, ...fields }, index) => ({
        ...fields,
        id: ids.get(key)!,
        userId,
        parentId: parents.get(key) ? ids.get(parents.get(key)!)! : null,
        sort: maxSort + (index + 1) * 10,
      })),
    );
  });
  await userChanged(ctx, userId);
  return file.items.length;
}

// ---- operators ----

const adminItem = (row: BuiltInRow): AdminQuickFunction => ({
  quickFunctionId: row.id,
  parentId: row.parentId,
  nameEn: row.nameEn,
  nameZh: row.nameZh,
  descriptionEn: row.descriptionEn,
  descriptionZh: row.descriptionZh,
  templateEn: row.templateEn,
  templateZh: row.templateZh,
  icon: row.icon,
  ...placement(row),
  updateTime: row.updatedAt.toISOString(),
});

export async function adminListQuickFunctions(ctx: AppContext): Promise<AdminQuickFunction[]> {
  const rows = await ctx.db.select().from(quickFunctions).orderBy(asc(quickFunctions.sort), asc(quickFunctions.id));
  return rows.map(adminItem);
}

export async function adminSaveQuickFunction(ctx: AppContext, body: AdminSaveQuickFunctionBody): Promise<AdminQuickFunction> {
  const { quickFunctionId: id, sort, ...fields } = body;
  const rows = await ctx.db.select({ id: quickFunctions.id, parentId: quickFunctions.parentId, sort: quickFunctions.sort }).from(quickFunctions);
  if (id && !rows.some((r) => r.id === id)) throw notFound();
  checkParent(rows, id ?? null, fields.parentId);
  const saved = id
    ? await ctx.db
        .update(quickFunctions)
        .set({ ...fields, ...(sort === undefined ? {} : { sort }), updatedAt: new Date() })
        .where(eq(quickFunctions.id, id))
        .returning()
    : await ctx.db
        .insert(quickFunctions)
        .values({ id: randomUUID(), ...fields, sort: sort ?? rows.reduce((m, r) => Math.max(m, r.sort), 0) + 10 })
        .returning();
  await builtInsChanged(ctx);
  return adminItem(saved[0]!);
}

/** Deletes a built-in; what was under it moves to the root. */
export async function adminDeleteQuickFunction(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const gone = await tx.delete(quickFunctions).where(eq(quickFunctions.id, id)).returning({ id: quickFunctions.id });
    if (gone.length === 0) throw notFound();
    await tx.update(quickFunctions).set({ parentId: null, updatedAt: new Date() }).where(eq(quickFunctions.parentId, id));
  });
  await builtInsChanged(ctx);
}

export async function adminSetQuickFunctionOnline(ctx: AppContext, id: string, online: boolean): Promise<void> {
  const updated = await ctx.db
    .update(quickFunctions)
    .set({ online, updatedAt: new Date() })
    .where(eq(quickFunctions.id, id))
    .returning({ id: quickFunctions.id });
  if (updated.length === 0) throw notFound();
  await builtInsChanged(ctx);
}

export async function adminSortQuickFunctions(ctx: AppContext, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const [found] = await ctx.db.select({ n: count() }).from(quickFunctions).where(inArray(quickFunctions.id, unique));
  if ((found?.n ?? 0) !== unique.length) throw notFound();
  await applyOrder(ctx.db, 'quick_functions', unique, null);
  await builtInsChanged(ctx);
}
