import type { AdminQuickFunction } from '../../shared/contracts/quick-function.ts';

const bySort = (a: AdminQuickFunction, b: AdminQuickFunction) => a.sort - b.sort || a.updateTime.localeCompare(b.updateTime);

/** The built-ins under `parentId` (null: the root), in their order. An item whose parent is gone counts as a root. */
export function childrenOf(items: readonly AdminQuickFunction[], parentId: string | null): AdminQuickFunction[] {
  const ids = new Set(items.map((i) => i.quickFunctionId));
  return items.filter((i) => (i.parentId && ids.has(i.parentId) ? i.parentId : null) === parentId).sort(bySort);
}

/** `items` with the siblings of `ids` given sort values in that order (shown while the order is saved). */
export function withSiblingOrder(items: readonly AdminQuickFunction[], ids: readonly string[]): AdminQuickFunction[] {
  const index = new Map(ids.map((id, i) => [id, i]));
  return items.map((item) => (index.has(item.quickFunctionId) ? { ...item, sort: index.get(item.quickFunctionId)! } : item));
}

/** The groups an item may be put under: every group but itself and those inside it. */
export function possibleParents(items: readonly AdminQuickFunction[], self: string | null): AdminQuickFunction[] {
  const inside = new Set<string>();
  if (self) {
    const walk = (id: string) => {
      inside.add(id);
      for (const child of items.filter((i) => i.parentId === id)) walk(child.quickFunctionId);
    };
    walk(self);
  }
  return items.filter((i) => i.isGroup && !inside.has(i.quickFunctionId));
}
