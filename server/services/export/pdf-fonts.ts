import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The PDF export's fonts: Noto Sans SC (OFL, from the npm package @expo-google-fonts/noto-sans-sc)
 * for all prose, Chinese and Latin alike, in regular and bold; PDF's built-in Courier for code
 * written in Latin-1, Noto Sans SC for code in other scripts. The two TrueType files (about 10 MB
 * each) are read and parsed once per worker thread (pdf-worker.ts); each PDF embeds only the glyphs
 * it uses.
 */

export type FontName = 'sans' | 'sans-bold' | 'mono' | 'mono-bold';
export type PdfFonts = { regular: fontkit.Font; bold: fontkit.Font };

const requireHere = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;

/** PDF's standard monospaced fonts (not embedded): Latin-1 only. */
export const COURIER: Record<'mono' | 'mono-bold', string> = { mono: 'Courier', 'mono-bold': 'Courier-Bold' };

let loaded: PdfFonts | undefined;

/** Both fonts, read and parsed on the first call only. */
export function loadPdfFonts(): PdfFonts {
  if (!loaded) {
    const open = (file: string) => fontkit.create(readFileSync(requireHere.resolve(file))) as fontkit.Font;
    loaded = { regular: open(FONT_FILES.regular), bold: open(FONT_FILES.bold) };
  }
  return loaded;
}

/** Shown for a character no font here has (an emoji, a script Noto Sans SC lacks): visibly something was there. */
export const MISSING_GLYPH = '\u25a1';

/** Characters that shape others and draw nothing (joiners, variation selectors, emoji skin tones, tags, the BOM): dropped. */
const INVISIBLE_RANGES = [
  [0x00ad, 0x00ad], [0x200b, 0x200f], [0x2028, 0x202e], [0x2060, 0x2064], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0x1f3fb, 0x1f3ff], [0xe0000, 0xe007f],
] as const;
const isInvisible = (char: string) => {
  const cp = char.codePointAt(0)!;
  return INVISIBLE_RANGES.some(([from, to]) => cp >= from && cp <= to);
};
/** C0 and C1 controls other than tab and newline (never drawn), and lone surrogate halves (with the u flag, a pair is one code point). */
// eslint-disable-next-line no-control-regex -- these characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff]/gu;
const TAB = /\t/g;

const covered = new Map<number, boolean>();

/** Whether Noto Sans SC draws `codePoint` (both weights cover the same characters). */
function hasGlyph(fonts: PdfFonts, codePoint: number): boolean {
  let yes = covered.get(codePoint);
  if (yes === undefined) {
    yes = fonts.regular.hasGlyphForCodePoint(codePoint);
    covered.set(codePoint, yes);
  }
  return yes;
}

const allDrawn = (fonts: PdfFonts, text: string) => {
  for (const char of text) if (!hasGlyph(fonts, char.codePointAt(0)!)) return false;
  return true;
};

const ZWJ = 0x200d;
const isMark = (cp: number) => (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x20d0 && cp <= 0x20ff);
const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;

/**
 * `text` as the PDF can draw it in Noto Sans SC: tabs as four spaces, controls and invisible
 * shaping characters dropped, a character the font lacks as its decomposition when the font has
 * every part (an accented letter as letter and mark), else as MISSING_GLYPH: one for a whole emoji
 * (its modifiers, variation selectors and joined parts, a flag's pair) and none for a lone mark.
 * Newlines are kept. Linear in the text's length.
 */
export function drawableText(fonts: PdfFonts, text: string): string {
  const clean = text.replace(CONTROL, '').replace(TAB, '    ');
  if (allDrawn(fonts, clean.replace(/\n/g, ''))) return clean;
  const chars = Array.from(clean);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const cp = char.codePointAt(0)!;
    if (char === '\n' || hasGlyph(fonts, cp)) {
      out += char;
      continue;
    }
    if (isInvisible(char) || cp === ZWJ || isMark(cp)) continue;
    const parts = char.normalize('NFD');
    if (parts !== char && allDrawn(fonts, parts)) {
      out += parts;
      continue;
    }
    out += MISSING_GLYPH;
    // What belongs to this character: modifiers, selectors and marks after it, parts joined to it, a flag's second half.
    if (isRegionalIndicator(cp) && isRegionalIndicator(chars[i + 1]?.codePointAt(0) ?? 0)) i++;
    for (;;) {
      const next = chars[i + 1]?.codePointAt(0);
      if (next === undefined) break;
      if (next === ZWJ && chars[i + 2] !== undefined) i += 2;
      else if (isInvisible(chars[i + 1]!) || isMark(next)) i++;
      else break;
    }
  }
  return out;
}

/** Whether Courier draws `text` as it is: printable ASCII and Latin-1 (where its encoding and Latin-1 agree). */
export const courierDraws = (text: string) => /^[\u0020-\u007e\u00a0-\u00ff]*$/.test(text);
