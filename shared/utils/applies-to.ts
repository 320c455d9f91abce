import type { AppliesTo } from '../contracts/quick-function.ts';

/** Where a prompt applies, from its placeholders: the selection, the page, and typed input when it names neither. */
export function appliesToOf(content: string): AppliesTo[] {
  const found: AppliesTo[] = [];
  if (content.includes('{selection}')) found.push('selection');
  if (content.includes('{page}')) found.push('page');
  if (content.includes('{input}') || found.length === 0) found.push('input');
  return found;
}
