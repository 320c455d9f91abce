import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../../locales/features');

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${prefix}: not a string or object`);
  return Object.entries(value).flatMap(([key, inner]) => keys(inner, prefix ? `${prefix}.${key}` : key));
}

function read(file: string): string[] {
  return keys(JSON.parse(readFileSync(join(dir, file), 'utf8'))).sort();
}

const main = new Set(keys(JSON.parse(readFileSync(join(dir, '../en.json'), 'utf8'))));
const features = readdirSync(dir).filter((file) => file.endsWith('.en.json')).map((file) => file.slice(0, -'.en.json'.length));

describe('feature strings (locales/features)', () => {
  it('every file comes in English and Chinese', () => {
    const all = readdirSync(dir).filter((file) => file.endsWith('.json'));
    for (const file of all) expect(file).toMatch(/^[a-z0-9-]+\.(en|zh)\.json$/);
    expect(new Set(all.map((file) => file.replace(/\.(en|zh)\.json$/, ''))).size * 2).toBe(all.length);
  });

  it.each(features.length ? features : ['(none yet)'])('%s: the same keys in both languages, none shadowing the main file or another feature', (feature) => {
    if (feature === '(none yet)') return;
    const en = read(`${feature}.en.json`);
    expect(read(`${feature}.zh.json`)).toEqual(en);
    for (const key of en) expect(main.has(key), key).toBe(false);
    for (const other of features.filter((name) => name !== feature)) {
      const theirs = new Set(read(`${other}.en.json`));
      for (const key of en) expect(theirs.has(key), `${key} also in ${other}`).toBe(false);
    }
  });
});
