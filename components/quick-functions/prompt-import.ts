import type { TFunction } from 'i18next';
import type { z } from 'zod';
import {
  MAX_USER_QUICK_FUNCTIONS,
  QuickFunctionExportItemSchema,
  type QuickFunctionExport,
} from '../../shared/contracts/quick-function.ts';

/** One item of a file that cannot be imported, and why (in the UI's words). */
export interface ImportProblem {
  /** 1-based position in the file's list. */
  index: number;
  name: string;
  reasons: string[];
}

/** What a chosen file holds: the importable items (as the server takes them) and the ones skipped. */
export type ImportCheck =
  | { ok: true; file: QuickFunctionExport; problems: ImportProblem[] }
  /** The file as a whole is unusable (not JSON, not an export, too many items). */
  | { ok: false; error: string };

/** Why one item failed, per field, in the UI's words. */
function reasonsOf(t: TFunction, error: z.ZodError): string[] {
  const fields = new Set(error.issues.map((issue) => String(issue.path[0] ?? 'item')));
  return [...fields].map((field) =>
    field === 'name' || field === 'template' || field === 'appliesTo'
      ? t(`quickFunctions.importReport.issue.${field}`)
      : t('quickFunctions.importReport.issue.other', { field }),
  );
}

/**
 * Checks a prompts file before it is sent (the server checks again): the file must be an export
 * ({ version: 1, items: [...] }); each item is checked on its own, so one bad item skips only itself.
 * An item grouped under a skipped group is kept, at the root.
 */
export function checkImportFile(t: TFunction, text: string): ImportCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: t('quickFunctions.importReport.notJson') };
  }
  const root = json as { version?: unknown; items?: unknown } | null;
  if (!root || typeof root !== 'object' || root.version !== 1 || !Array.isArray(root.items)) {
    return { ok: false, error: t('quickFunctions.importReport.badShape') };
  }
  if (root.items.length > MAX_USER_QUICK_FUNCTIONS) {
    return { ok: false, error: t('quickFunctions.importReport.tooMany', { count: root.items.length, max: MAX_USER_QUICK_FUNCTIONS }) };
  }
  const items: QuickFunctionExport['items'] = [];
  const problems: ImportProblem[] = [];
  const keys = new Set<string>();
  root.items.forEach((raw: unknown, i) => {
    const parsed = QuickFunctionExportItemSchema.safeParse(raw);
    const duplicate = parsed.success && keys.has(parsed.data.key);
    if (parsed.success && !duplicate) {
      keys.add(parsed.data.key);
      return void items.push(parsed.data);
    }
    const name = typeof (raw as { name?: unknown } | null)?.name === 'string' ? (raw as { name: string }).name.trim() : '';
    const reasons = parsed.success ? [t('quickFunctions.importReport.issue.duplicate')] : reasonsOf(t, parsed.error);
    problems.push({ index: i + 1, name: name || t('quickFunctions.importReport.unnamed'), reasons });
  });
  // An item of a group that is not imported comes in at the root.
  const groups = new Set(items.filter((item) => item.isGroup).map((item) => item.key));
  const kept = items.map((item) => (item.parentKey && !groups.has(item.parentKey) ? { ...item, parentKey: null } : item));
  return { ok: true, file: { version: 1, items: kept }, problems };
}

/** The file name of an export made now: tandem-prompts-YYYY-MM-DD.json. */
export function exportFileName(now = new Date()): string {
  return `tandem-prompts-${now.toISOString().slice(0, 10)}.json`;
}

/** Saves `content` as a JSON file through the browser's download (the object URL is revoked after 100 ms). */
export function downloadJson(fileName: string, content: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(content, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 100);
}
