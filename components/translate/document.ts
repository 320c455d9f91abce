import {
  SERVER_DOCUMENT_EXTENSIONS,
  TRANSLATE_DOCUMENT_MAX_CHARS,
  TRANSLATE_MAX_SEGMENT_CHARS,
  TRANSLATE_MAX_SEGMENTS,
  TRANSLATE_MAX_TOTAL_CHARS,
} from '../../shared/contracts/translate.ts';

/**
 * The Translate page's text as pieces: what is translated (a paragraph, a subtitle's lines) and what is
 * kept as it is (blank lines, line breaks between paragraphs, a subtitle's number and timing, a
 * Markdown code block). Joining every piece's text gives the source back exactly, so a translation put
 * in place of the translated pieces keeps the document's line structure.
 */
export interface Piece {
  text: string;
  translate: boolean;
}

/** How a text is cut into pieces: plain text, Markdown (code blocks kept), subtitles (numbers and timings kept). */
export type DocumentKind = 'text' | 'markdown' | 'subtitles';

/** The text documents the page reads itself, by extension. */
export const DOCUMENT_KINDS: Record<string, DocumentKind> = { txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown', srt: 'subtitles', vtt: 'subtitles' };

/** Every extension the page opens: its text documents, and the .docx and .pdf the server reads for it (as plain text). */
export const OPENED_EXTENSIONS: readonly string[] = [...Object.keys(DOCUMENT_KINDS), ...SERVER_DOCUMENT_EXTENSIONS];

/** What the page translates at once (a pasted text or an opened document), in characters: about 30 requests at most. */
export const PAGE_MAX_CHARS = TRANSLATE_DOCUMENT_MAX_CHARS;

/** A batch's limits: the contract's segment count, and fewer characters than its maximum so that results come in steadily. */
export const BATCH_LIMITS = { maxSegments: TRANSLATE_MAX_SEGMENTS, maxChars: Math.min(6000, TRANSLATE_MAX_TOTAL_CHARS) };

/** Requests in flight at once. */
export const CONCURRENCY = 3;

/** A subtitle line that is not words: the cue's number, its timing, the file's header and blocks. */
const SUBTITLE_META = /^\s*(\d+|WEBVTT.*|NOTE(\s.*)?|STYLE|REGION|.*-->.*)\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** Line endings as \n (a Windows file's \r\n become \n: the translation is saved with \n). */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Cuts `source` into pieces (see Piece); a paragraph longer than `maxChars` is cut at a sentence's end or a space. */
export function splitDocument(source: string, kind: DocumentKind, maxChars = TRANSLATE_MAX_SEGMENT_CHARS): Piece[] {
  const pieces: Piece[] = [];
  const keep = (text: string) => {
    if (text === '') return;
    const last = pieces.at(-1);
    if (last && !last.translate) last.text += text;
    else pieces.push({ text, translate: false });
  };
  const translate = (text: string) => {
    for (const [index, part] of cutLong(text, maxChars).entries()) {
      if (index % 2 === 1) keep(part);
      else if (part !== '') pieces.push({ text: part, translate: true });
    }
  };
  const lines = source.split('\n');
  let paragraph: string[] = [];
  let paragraphEnd = '';
  const flush = () => {
    if (paragraph.length === 0) return;
    translate(paragraph.join('\n'));
    keep(paragraphEnd);
    paragraph = [];
  };
  let inFence = false;
  lines.forEach((line, index) => {
    const end = index < lines.length - 1 ? '\n' : '';
    const kept = (kind === 'markdown' && (inFence || FENCE.test(line))) || (kind === 'subtitles' && SUBTITLE_META.test(line)) || line.trim() === '';
    if (kind === 'markdown' && FENCE.test(line)) inFence = !inFence;
    if (kept) {
      flush();
      keep(line + end);
      return;
    }
    paragraph.push(line);
    paragraphEnd = end;
  });
  flush();
  return pieces;
}

/**
 * A text of at most `max` characters as [text]; a longer one as [part, gap, part, gap, part…]: each part
 * at most `max` long, cut after a sentence's end, else at a line break or a space, else anywhere; the
 * gaps are the whitespace where it was cut (kept as it is).
 */
function cutLong(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const head = rest.slice(0, max);
    const cut = lastMatch(head, /[.!?。！？；;]\s+/g) ?? lastMatch(head, /\n+/g) ?? lastMatch(head, /\s+/g);
    if (cut && cut.start > 0) {
      out.push(rest.slice(0, cut.start), rest.slice(cut.start, cut.end));
      rest = rest.slice(cut.end);
    } else {
      out.push(head, '');
      rest = rest.slice(max);
    }
  }
  out.push(rest);
  return out;
}

/** Where the last match of `pattern` in `text` leaves its whitespace: from the whitespace's start to the match's end. */
function lastMatch(text: string, pattern: RegExp): { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  for (const match of text.matchAll(pattern)) {
    const space = match[0].search(/\s/);
    found = { start: match.index + (space < 0 ? match[0].length : space), end: match.index + match[0].length };
  }
  return found;
}

/** Pieces [start, end) sent in one request: `segments` are the indices of the translated ones, in order. */
export interface Batch {
  start: number;
  end: number;
  segments: number[];
}

/**
 * The pieces in batches of at most `maxSegments` translated pieces and `maxChars` characters, in order
 * and covering every piece (kept pieces ride with the batch before them; leading ones with the first).
 * No batch when nothing is to be translated.
 */
export function makeBatches(pieces: readonly Piece[], limits: { maxSegments: number; maxChars: number } = BATCH_LIMITS): Batch[] {
  const batches: Batch[] = [];
  let current: Batch | null = null;
  let chars = 0;
  pieces.forEach((piece, index) => {
    if (!piece.translate) return;
    if (current && (current.segments.length >= limits.maxSegments || chars + piece.text.length > limits.maxChars)) {
      current.end = index;
      current = null;
    }
    if (!current) {
      current = { start: batches.length === 0 ? 0 : index, end: pieces.length, segments: [] };
      batches.push(current);
      chars = 0;
    }
    current.segments.push(index);
    chars += piece.text.length;
  });
  return batches;
}

/** A batch's text with the translations in place of its translated pieces (the source's where one is missing). */
export function batchText(pieces: readonly Piece[], batch: Batch, translations: ReadonlyMap<number, string>): string {
  let text = '';
  for (let index = batch.start; index < batch.end; index++) text += pieces[index]!.translate ? (translations.get(index) ?? pieces[index]!.text) : pieces[index]!.text;
  return text;
}

/** The characters a text counts for: what is translated (not the kept lines or blank ones). */
export function translatedChars(pieces: readonly Piece[]): number {
  return pieces.reduce((sum, piece) => sum + (piece.translate ? piece.text.length : 0), 0);
}

const extensionOf = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/** The kind of a document by its file name; null when the page cannot open it. A .docx or .pdf is read as plain text. */
export function documentKind(fileName: string): DocumentKind | null {
  if (isServerDocument(fileName)) return 'text';
  return DOCUMENT_KINDS[extensionOf(fileName)] ?? null;
}

/** A .docx or .pdf: its text is read on the server (POST /api/System/DocumentText), its translation saved as .txt. */
export function isServerDocument(fileName: string): boolean {
  return (SERVER_DOCUMENT_EXTENSIONS as readonly string[]).includes(extensionOf(fileName));
}

/** The translation's file name: the document's with the target language before its extension ("notes.zh-Hans.md"), or "translation.<target>.txt". */
export function translationFileName(fileName: string | null, target: string): string {
  if (!fileName) return `translation.${target}.txt`;
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return `${fileName}.${target}.txt`;
  // A Word or PDF document's translation is its text: a .txt ("Report.de.txt").
  return `${fileName.slice(0, dot)}.${target}${isServerDocument(fileName) ? '.txt' : fileName.slice(dot)}`;
}

/** The MIME type a translation is saved with. */
export function translationMime(kind: DocumentKind, fileName: string | null): string {
  if (kind === 'markdown') return 'text/markdown;charset=utf-8';
  if (kind === 'subtitles') return fileName?.toLowerCase().endsWith('.vtt') ? 'text/vtt;charset=utf-8' : 'application/x-subrip;charset=utf-8';
  return 'text/plain;charset=utf-8';
}
