import { courierDraws, drawableText, type FontName, type PdfFonts } from './pdf-fonts.ts';
import type { Run } from './pdf-markdown.ts';

/**
 * Lines of styled text for the PDF export: runs cut into pieces a line may end after (words, each
 * CJK character with the punctuation that must stay beside it, spaces), measured in their font and
 * filled greedily into lines of a given width. A piece wider than a line (a long address) is cut
 * between characters.
 */

export type Piece = {
  text: string;
  font: FontName;
  size: number;
  width: number;
  /** A space: collapsible in prose, never at a line's start or end. */
  space: boolean;
  /** No line may end just before this piece (it continues the previous word). */
  glued: boolean;
  /** The run this piece comes from: pieces of one link share it. */
  run: number;
  style: Omit<Run, 'text' | 'br'>;
};

export type Placed = Piece & { x: number };
export type Line = { pieces: Placed[]; width: number; size: number };

/** Measures text in a font at a size, in points. */
export type Measure = (font: FontName, size: number, text: string) => number;

export type TextStyle = {
  size: number;
  bold?: boolean;
  /** Every run monospaced, whitespace kept as written (code and math blocks). */
  pre?: boolean;
};

/** Han, kana, hangul, CJK punctuation and full-width forms: a line may end between any two. */
const CJK_RANGES = [
  [0x2e80, 0x2fff], [0x3000, 0x303f], [0x3040, 0x30ff], [0x3100, 0x312f], [0x3190, 0x31ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa960, 0xa97f], [0xac00, 0xd7af], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xffef], [0x20000, 0x3ffff],
] as const;
const isCjk = (cp: number) => cp >= 0x2e80 && CJK_RANGES.some(([from, to]) => cp >= from && cp <= to);
/** Never at the start of a line (closing marks, stops, commas): they stay with the character before. */
const CLOSING = new Set(Array.from(")]}>,.;:!?%'\"\u2019\u201d\u2026\u3001\u3002\u3009\u300b\u300d\u300f\u3011\u3015\u3017\u301f\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\uff3d\uff5d\u30fc\u00b7"));
/** Never at the end of a line (opening marks): they stay with the character after. */
const OPENING = new Set(Array.from('([{<\u2018\u201c\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u301d\uff08\uff3b\uff5b'));

const LATIN1_SPLIT = /[\u0020-\u007e\u00a0-\u00ff]+|[^\u0020-\u007e\u00a0-\u00ff]+/g;

/** A run's text in pieces of one font each: prose in Noto Sans SC; code in Courier where Courier can draw it. */
function fontSpans(fonts: PdfFonts, run: Run, style: TextStyle): { text: string; font: FontName }[] {
  const text = drawableText(fonts, run.text);
  const bold = !!(run.bold || style.bold);
  if (!(run.code || run.math || style.pre)) return [{ text, font: bold ? 'sans-bold' : 'sans' }];
  return (text.match(LATIN1_SPLIT) ?? []).map((part) => ({
    text: part,
    font: courierDraws(part) ? (bold ? 'mono-bold' : 'mono') : bold ? 'sans-bold' : 'sans',
  }));
}

/** The words of `text`: spaces alone, CJK characters one by one, anything else up to a space or CJK. */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let kind: 'space' | 'cjk' | 'other' | 'open' | '' = '';
  for (const char of text) {
    const next = char === ' ' || char === '\n' ? 'space' : isCjk(char.codePointAt(0)!) ? 'cjk' : 'other';
    const keep =
      word !== '' &&
      ((kind === 'open' && next !== 'space') ||
        (next === 'space' && kind === 'space') ||
        (next !== 'space' && kind !== 'space' && CLOSING.has(char)) ||
        (next === 'other' && kind === 'other' && !OPENING.has(char)));
    if (!keep && word) {
      out.push(word);
      word = '';
    }
    word += char;
    kind = next !== 'space' && OPENING.has(char) ? 'open' : next;
  }
  if (word) out.push(word);
  return out;
}

/** The pieces of `runs` in a style, measured. A hard break is a piece of its own (text '\n'). */
export function piecesOf(fonts: PdfFonts, measure: Measure, runs: readonly Run[], style: TextStyle): Piece[] {
  const pieces: Piece[] = [];
  runs.forEach((run, index) => {
    const { text: _text, br, ...runStyle } = run;
    if (br) {
      pieces.push({ text: '\n', font: 'sans', size: style.size, width: 0, space: true, glued: false, run: index, style: {} });
      return;
    }
    const size = run.code || run.math || style.pre ? style.size * 0.9 : style.size;
    for (const span of fontSpans(fonts, run, style)) {
      for (const word of words(span.text)) {
        const space = /^[ \n]+$/.test(word);
        const previous = pieces.at(-1);
        // A word runs on across a change of style ("**bold**ly"): no line ends inside it.
        const glued = !space && !!previous && !previous.space && !isCjk(word.codePointAt(0)!) && !isCjk(previous.text.codePointAt(previous.text.length - 1)!);
        pieces.push({ text: word, font: span.font, size, width: measure(span.font, size, word), space, glued, run: index, style: runStyle });
      }
    }
  });
  return pieces;
}

/** `piece` cut into parts no wider than `width` (at least one character each), measured character by character. */
function cutPiece(piece: Piece, width: number, measure: Measure): Piece[] {
  const parts: Piece[] = [];
  let text = '';
  let used = 0;
  const push = () => parts.push({ ...piece, text, width: used, glued: parts.length > 0 || piece.glued });
  for (const char of piece.text) {
    const advance = measure(piece.font, piece.size, char);
    if (text && used + advance > width) {
      push();
      text = '';
      used = 0;
    }
    text += char;
    used += advance;
  }
  if (text) push();
  return parts;
}

/** Groups of pieces a line may not end inside: a space alone, or a word with what is glued to it. */
function groupsOf(pieces: readonly Piece[]): Piece[][] {
  const groups: Piece[][] = [];
  for (const piece of pieces) {
    const last = groups.at(-1);
    if (last && piece.glued && !last[0]!.space) last.push(piece);
    else groups.push([piece]);
  }
  return groups;
}

/**
 * The pieces filled into lines of `width`. In prose, runs of spaces count as one and no line starts
 * or ends with one; with `pre` (code), spaces are kept (a wrapped line's continuation starts at its
 * next word).
 */
export function fillLines(pieces: readonly Piece[], width: number, measure: Measure, style: TextStyle): Line[] {
  const lines: Line[] = [];
  let line: Placed[] = [];
  let x = 0;
  let pendingSpace: Piece | undefined;
  const finish = () => {
    lines.push({ pieces: line, width: x, size: Math.max(style.size, ...line.map((p) => p.size)) });
    line = [];
    x = 0;
    pendingSpace = undefined;
  };
  const place = (piece: Piece) => {
    line.push({ ...piece, x });
    x += piece.width;
  };
  for (const group of groupsOf(pieces)) {
    const first = group[0]!;
    if (first.text === '\n') {
      finish();
      continue;
    }
    if (first.space) {
      if (style.pre) {
        if (x + first.width <= width || line.length === 0) place(first);
        else finish();
      } else if (line.length > 0) pendingSpace = { ...first, text: ' ', width: measure(first.font, first.size, ' ') };
      continue;
    }
    const groupWidth = group.reduce((sum, p) => sum + p.width, 0);
    const spaceWidth = pendingSpace?.width ?? 0;
    if (line.length > 0 && x + spaceWidth + groupWidth > width) finish();
    if (pendingSpace && line.length > 0) place(pendingSpace);
    pendingSpace = undefined;
    for (const piece of group) {
      if (x + piece.width <= width) {
        place(piece);
        continue;
      }
      for (const part of cutPiece(piece, width, measure)) {
        if (line.length > 0 && x + part.width > width) finish();
        place(part);
      }
    }
  }
  if (line.length > 0 || lines.length === 0) finish();
  return lines;
}
