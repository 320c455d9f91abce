import { describe, expect, it } from 'vitest';
import { plainSnippet, plainSnippetText } from '../../../components/chat-history/plain-snippet.ts';

describe('a search snippet as plain text', () => {
  it('drops Markdown: fences, code ticks, formulas, links, emphasis, headings, quotes, lists and pipes', () => {
    expect(plainSnippetText('```ts\nconst a = 1;\n```')).toBe(' const a = 1; ');
    expect(plainSnippetText('Use `npm ci` then **build** and _ship_')).toBe('Use npm ci then build and _ship_');
    expect(plainSnippetText('so $E = mc^2$ and $$\\int x dx$$ hold')).toBe('so E = mc^2 and \\int x dx hold');
    expect(plainSnippetText('see \\(a+b\\) in [the docs](https://example.com/x) ![chart](a.png)')).toBe('see a+b in the docs chart');
    expect(plainSnippetText('## Title\n> quoted\n- item\n1. first\n| a | b |')).toBe('Title quoted item first a b ');
    expect(plainSnippetText('~~old~~ *new* snake_case')).toBe('old new snake_case');
  });

  it('keeps prices and lone markers that are words', () => {
    expect(plainSnippetText('costs $5 and $6 today')).toBe('costs $5 and $6 today');
    expect(plainSnippetText('a - b')).toBe('a - b');
  });

  it('cleans the parts around the match apart, so the match is still the matched words', () => {
    const snippet = '…plant a **Tomato** in `sun`';
    const start = snippet.indexOf('Tomato');
    expect(plainSnippet({ snippet, matchStart: start, matchLength: 6 })).toEqual(['…plant a ', 'Tomato', ' in sun']);
  });
});
