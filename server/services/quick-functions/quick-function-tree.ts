/**
 * A flat list of quick functions as a menu tree (docs/api.md#quick-functions-and-prompts). Pure: no I/O.
 * - Items without a parent (null or '') are roots.
 * - Items whose parent is missing from the list are dropped, with everything under them.
 * - Items on a cycle (a parent chain that never reaches a root) are dropped too.
 * - Items deeper than `maxDepth` levels (a root is level 1) are dropped.
 * Siblings keep the list's order (the caller sorts it).
 */

type Flat = { quickFunctionId: string; parentId: string | null };
export type Tree<T> = T & { children: Tree<T>[] };

export function buildQuickFunctionTree<T extends Flat>(items: readonly T[], maxDepth = Infinity): Tree<T>[] {
  const byParent = new Map<string, T[]>();
  const roots: T[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    // A repeated id keeps its first occurrence.
    if (seen.has(item.quickFunctionId)) continue;
    seen.add(item.quickFunctionId);
    if (!item.parentId) {
      roots.push(item);
      continue;
    }
    const list = byParent.get(item.parentId) ?? [];
    list.push(item);
    byParent.set(item.parentId, list);
  }
  // Walking down from the roots reaches exactly the items with an unbroken chain to a root: items
  // under a missing parent and items on a cycle are never reached.
  const placed = new Set<string>();
  const grow = (item: T, level: number): Tree<T> => {
    placed.add(item.quickFunctionId);
    const under = level >= maxDepth ? [] : (byParent.get(item.quickFunctionId) ?? []);
    const children = under.filter((c) => !placed.has(c.quickFunctionId)).map((c) => grow(c, level + 1));
    return { ...item, children };
  };
  return roots.map((r) => grow(r, 1));
}

/** Every item of a tree, depth first. */
export function flattenTree<T>(nodes: readonly Tree<T>[]): Tree<T>[] {
  return nodes.flatMap((n) => [n, ...flattenTree(n.children)]);
}
