/** `items` in the order of `ids` (items not named keep their place after them). */
export function inOrder<T>(items: readonly T[], ids: readonly string[] | null, idOf: (item: T) => string): T[] {
  if (!ids) return [...items];
  const index = new Map(ids.map((id, i) => [id, i]));
  return [...items].sort((a, b) => (index.get(idOf(a)) ?? Infinity) - (index.get(idOf(b)) ?? Infinity));
}
