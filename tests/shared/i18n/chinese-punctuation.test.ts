import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const locales = join(import.meta.dirname, '../../../locales');
const files = ['zh.json', ...readdirSync(join(locales, 'features')).filter((file) => file.endsWith('.zh.json')).map((file) => `features/${file}`)];

/** Every string of a locale file, by its dotted key. */
function strings(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => strings(inner, prefix ? `${prefix}.${key}` : key));
}

/** A Chinese character (or full-width punctuation) followed by a half-width colon. */
const HALF_WIDTH_COLON = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]\s*:/;

describe('the Chinese locale files', () => {
  it.each(files)('%s: a full-width colon after Chinese, and 你 (never 您)', (file) => {
    const all = strings(JSON.parse(readFileSync(join(locales, file), 'utf8')));
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter(([, text]) => HALF_WIDTH_COLON.test(text)).map(([key]) => key)).toEqual([]);
    expect(all.filter(([, text]) => text.includes('您')).map(([key]) => key)).toEqual([]);
  });
});
