/** `ids` with the item at `from` moved to `to` (clamped), or null when nothing moves. */
export function moveId(ids: readonly string[], from: number, to: number): string[] | null {
  const target = Math.max(0, Math.min(ids.length - 1, to));
  if (from < 0 || from >= ids.length || from === target) return null;
  const moved = [...ids];
  const [id] = moved.splice(from, 1);
  moved.splice(target, 0, id!);
  return moved;
}

/** `items` in the order of `ids` (items not named keep their place after them). */
export function inOrder<T>(items: readonly T[], ids: readonly string[] | null, idOf: (item: T) => string): T[] {
  if (!ids) return [...items];
  const index = new Map(ids.map((id, i) => [id, i]));
  return [...items].sort((a, b) => (index.get(idOf(a)) ?? Infinity) - (index.get(idOf(b)) ?? Infinity));
}
