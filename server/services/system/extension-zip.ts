import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The extension packages `wxt zip` leaves in `.output/`: found by the web routes (/downloads/*), the
 * build script that decides whether to rebuild, and bench/bundle. Only the file system, so the last
 * two load no HTTP code.
 */
export const EXTENSION_BROWSERS = ['chrome', 'edge', 'firefox'] as const;
export type ExtensionBrowser = (typeof EXTENSION_BROWSERS)[number];

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The newest `<name>-<version>-<browser>.zip` in dir (as `wxt zip` names them), by version, then by
 * modification time; null when there is none.
 */
export async function findExtensionZip(dir: string, browser: ExtensionBrowser): Promise<{ file: string; name: string } | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const pattern = new RegExp(`^[\\w.]+(?:-[\\w.]+)*-${browser}\\.zip$`);
  const candidates: { name: string; version: number[]; mtime: number }[] = [];
  for (const name of names) {
    if (!pattern.test(name)) continue;
    const file = path.join(dir, name);
    let s;
    try {
      s = await stat(file);
    } catch {
      continue;
    }
    if (!s.isFile()) continue;
    const version = /-(\d+(?:\.\d+)*)-[a-z]+\.zip$/.exec(name)?.[1]?.split('.').map(Number) ?? [];
    candidates.push({ name, version, mtime: s.mtimeMs });
  }
  candidates.sort((a, b) => compareVersions(b.version, a.version) || b.mtime - a.mtime);
  const best = candidates[0];
  return best ? { file: path.join(dir, best.name), name: best.name } : null;
}
