import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';

/** A row of the list: an item, how deep it sits (a group's prompts are indented), and its siblings in order. */
export interface PromptRow {
  item: UserQuickFunction;
  depth: 0 | 1;
  /** The ids of the items beside it (same parent), in their order: the ones it can move among. */
  siblings: string[];
}

const bySort = (a: UserQuickFunction, b: UserQuickFunction) => a.sort - b.sort || a.updateTime.localeCompare(b.updateTime);

/**
 * The user's own as the settings list shows them: roots in their order, each group followed by its
 * prompts. An item whose group is gone is shown at the root (as the server treats it).
 */
export function arrangePrompts(items: readonly UserQuickFunction[]): PromptRow[] {
  const groups = new Set(items.filter((item) => item.isGroup).map((item) => item.userQuickFunctionId));
  const parentOf = (item: UserQuickFunction) => (item.parentId && groups.has(item.parentId) && !item.isGroup ? item.parentId : null);
  const sorted = [...items].sort(bySort);
  const roots = sorted.filter((item) => parentOf(item) === null);
  const rootIds = roots.map((item) => item.userQuickFunctionId);
  const rows: PromptRow[] = [];
  for (const root of roots) {
    rows.push({ item: root, depth: 0, siblings: rootIds });
    if (!root.isGroup) continue;
    const children = sorted.filter((item) => parentOf(item) === root.userQuickFunctionId);
    const childIds = children.map((item) => item.userQuickFunctionId);
    for (const child of children) rows.push({ item: child, depth: 1, siblings: childIds });
  }
  return rows;
}

/**
 * The order of every own item after moving `id` to position `to` among its siblings (the list's
 * order, flattened: what SortUserQuickFunction takes), or null when nothing moves.
 */
export function reorderPrompts(items: readonly UserQuickFunction[], id: string, to: number): string[] | null {
  const rows = arrangePrompts(items);
  const row = rows.find((r) => r.item.userQuickFunctionId === id);
  if (!row) return null;
  const from = row.siblings.indexOf(id);
  const target = Math.max(0, Math.min(row.siblings.length - 1, to));
  if (from === target) return null;
  const moved = [...row.siblings];
  moved.splice(from, 1);
  moved.splice(target, 0, id);
  // The siblings keep the list positions they had between them, in their new order.
  const position = new Map(rows.map((r, i) => [r.item.userQuickFunctionId, i]));
  const slots = row.siblings.map((sibling) => position.get(sibling)!).sort((a, b) => a - b);
  moved.forEach((sibling, i) => position.set(sibling, slots[i]));
  const resorted = items.map((item) => ({ ...item, sort: position.get(item.userQuickFunctionId) ?? item.sort }));
  return arrangePrompts(resorted).map((r) => r.item.userQuickFunctionId);
}

/** The items with `sort` following `ids` (what the list shows while the new order is being saved). */
export function withOrder(items: readonly UserQuickFunction[], ids: readonly string[]): UserQuickFunction[] {
  const index = new Map(ids.map((id, i) => [id, i]));
  return items.map((item) => ({ ...item, sort: index.get(item.userQuickFunctionId) ?? item.sort }));
}
