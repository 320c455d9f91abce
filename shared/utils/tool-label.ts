/**
 * An item's name with its group's, so that it keeps the group's verb: a group that trails off
 * ("Translate to…", "翻译为…") is completed by the item ("Translate to Chinese (Simplified)",
 * "翻译为简体中文"); another is joined with an arrow ("Rewrite → Shorter").
 */
export function toolLabel(groupName: string, itemName: string): string {
  const stem = groupName.replace(/\s*(…|\.\.\.)$/u, '');
  if (stem === groupName) return `${groupName} → ${itemName}`;
  // No space after a CJK stem: Chinese does not separate words.
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u.test(stem) ? `${stem}${itemName}` : `${stem} ${itemName}`;
}
