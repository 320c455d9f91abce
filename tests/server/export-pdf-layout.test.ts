import { describe, expect, it } from 'vitest';
import { drawableText, loadPdfFonts, MISSING_GLYPH } from '../../server/services/export/pdf-fonts.ts';
import { fillLines, piecesOf, type Line, type Measure } from '../../server/services/export/pdf-layout.ts';
import type { Run } from '../../server/services/export/pdf-markdown.ts';

/**
 * How the PDF export turns text into lines: what the font cannot draw, where a line may end in
 * English and in Chinese (no closing punctuation at a line's start), and code kept as written.
 * Widths here are one point per character, so the breaks are easy to read.
 */

const fonts = loadPdfFonts();
const measure: Measure = (_font, _size, text) => Array.from(text).length;
const lines = (runs: Run[], width: number, pre = false): string[] =>
  fillLines(piecesOf(fonts, measure, runs, { size: 10, pre }), width, measure, { size: 10, pre }).map((line: Line) => line.pieces.map((p) => p.text).join(''));

describe('PDF export: text the font can draw', () => {
  it('keeps Chinese and Latin, drops controls and joiners, and shows one placeholder per emoji', () => {
    expect(drawableText(fonts, '你好，世界！Hello')).toBe('你好，世界！Hello');
    expect(drawableText(fonts, 'a\u0000b\u0007c\u200bd\tz')).toBe('abcd    z');
    // A family (three people joined), a thumb with a skin tone, a flag: one placeholder each.
    expect(drawableText(fonts, 'x\u{1f468}\u200d\u{1f469}\u200d\u{1f467}y\u{1f44d}\u{1f3fd}z\u{1f1ef}\u{1f1f5}!')).toBe(`x${MISSING_GLYPH}y${MISSING_GLYPH}z${MISSING_GLYPH}!`);
    // A lone surrogate half is dropped; an accent the font has stays on its letter.
    expect(drawableText(fonts, '\ud800ok e\u0301')).toBe('ok e\u0301');
  });
});

describe('PDF export: lines', () => {
  it('ends lines between words in English, collapsing spaces, and cuts a word longer than a line', () => {
    expect(lines([{ text: 'one two   three four' }], 9)).toEqual(['one two', 'three', 'four']);
    expect(lines([{ text: 'abcdefghijkl' }], 5)).toEqual(['abcde', 'fghij', 'kl']);
    // A word across a change of style is still one word.
    expect(lines([{ text: 'the ' }, { text: 'bold', bold: true }, { text: 'ly said' }], 7)).toEqual(['the', 'boldly', 'said']);
  });

  it('ends lines between any two Chinese characters, never before closing punctuation or after an opening mark', () => {
    expect(lines([{ text: '你好世界' }], 3)).toEqual(['你好世', '界']);
    expect(lines([{ text: '你好，世界。' }], 2)).toEqual(['你', '好，', '世', '界。']);
    expect(lines([{ text: '他说「你好」' }], 3)).toEqual(['他说', '「你', '好」']);
    expect(lines([{ text: '中文English混排' }], 9)).toEqual(['中文English', '混排']);
    expect(lines([{ text: '中文English混排' }], 8)).toEqual(['中文', 'English混', '排']);
  });

  it('keeps code as written: its indentation, spaces and a hard break', () => {
    expect(lines([{ text: '    return  x' }], 40, true)).toEqual(['    return  x']);
    expect(lines([{ text: 'a' }, { text: '', br: true }, { text: 'b' }], 40)).toEqual(['a', 'b']);
  });
});
