import { TRANSLATE_TAG, type TranslateLanguage } from '../../../shared/contracts/translate.ts';

/**
 * The translation protocol with the model (docs/api.md#translation): a system prompt, one user
 * message that is exactly JSON.stringify({ targetLanguage, segments }), and an answer that is the
 * JSON { "detectedLanguage": string | null, "translations": string[] }, one per segment in order.
 * Pure functions: the prompt, the reading of an answer, and the check of each translation's tags.
 */

export const TRANSLATE_SYSTEM_PROMPT = [
  'You are a translation engine. The user message is a JSON object {"targetLanguage": string, "segments": string[]}:',
  'translate every segment into targetLanguage (a BCP 47 tag; zh-Hans is Simplified Chinese, zh-Hant Traditional Chinese).',
  'Rules:',
  '- Translate each segment on its own, keeping its meaning, tone and line breaks; never merge, split, drop or reorder segments.',
  '- A segment may hold placeholder tags <t0>…</t0>, <t1>…</t1> marking inline formatting or links: keep every tag exactly once,',
  '  with the same number, around the translated words that correspond to the original ones.',
  '- Do not translate code, URLs, e-mail addresses, file paths or text inside inline code; keep them as they are.',
  '- A segment already in targetLanguage is returned as it is.',
  'Answer ONLY with a JSON object, no prose and no code fence:',
  '{"detectedLanguage": "<BCP 47 tag of the source language, or null when unsure>", "translations": ["<segment 0 translated>", ...]}',
  'with exactly as many translations as there are segments, in the same order.',
].join('\n');

/** The user message: exactly the JSON of the target and the segments (the fake upstream reads it). */
export function translateUserMessage(targetLanguage: TranslateLanguage, segments: string[]): string {
  return JSON.stringify({ targetLanguage, segments });
}

export type ModelTranslation = { detectedLanguage: string | null; translations: string[] };

/** A BCP 47-looking tag ("fr", "zh-Hans", "pt-BR"); anything else is taken as unsure. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

/**
 * Reads the model's answer: the JSON object, also inside a ``` fence or with words around it.
 * null when it cannot be read or holds another number of translations than `count`.
 */
export function parseModelAnswer(text: string, count: number): ModelTranslation | null {
  const trimmed = text.trim();
  // A fence only around the whole answer: a translation may itself hold ``` (a code block).
  const unfenced = trimmed.replace(/^```[a-zA-Z]*\s*/, '').replace(/\s*```$/, '');
  const start = unfenced.indexOf('{');
  const end = unfenced.lastIndexOf('}');
  const candidates = [trimmed, unfenced, ...(start >= 0 && end > start ? [unfenced.slice(start, end + 1)] : [])];
  for (const candidate of candidates) {
    const read = readAnswer(candidate, count);
    if (read) return read;
  }
  return null;
}

function readAnswer(json: string, count: number): ModelTranslation | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const { detectedLanguage, translations } = (value ?? {}) as { detectedLanguage?: unknown; translations?: unknown };
  if (!Array.isArray(translations) || translations.length !== count || !translations.every((t) => typeof t === 'string')) return null;
  const detected = typeof detectedLanguage === 'string' && LANGUAGE_TAG.test(detectedLanguage.trim()) ? detectedLanguage.trim() : null;
  return { detectedLanguage: detected, translations };
}

/** The placeholder tags of a text, as a sorted list (a multiset): `<t0>`, `</t0>`, ... */
function tagsOf(text: string): string[] {
  return (text.match(TRANSLATE_TAG) ?? []).sort();
}

export const stripTags = (text: string) => text.replace(TRANSLATE_TAG, '');

/**
 * A translation keeps its tags when it has the same open and close tags as its source, each as
 * often; else every tag is stripped from it (rather than placed wrongly) and `tagsKept` is false.
 */
export function checkTags(source: string, translation: string): { text: string; tagsKept: boolean } {
  const want = tagsOf(source);
  const got = tagsOf(translation);
  const same = want.length === got.length && want.every((tag, i) => tag === got[i]);
  return same ? { text: translation, tagsKept: true } : { text: stripTags(translation), tagsKept: false };
}

/** Characters counted for the price: placeholder tags and whitespace-only segments are not counted. */
export function chargedChars(segments: string[]): number {
  return segments.reduce((n, s) => (s.trim() === '' ? n : n + stripTags(s).length), 0);
}

/** The price: ceil(chars / 1000 * rate), at least 1 point for any text when the rate is above 0. */
export function translationCost(chars: number, pointsPer1k: number): number {
  if (chars <= 0 || pointsPer1k <= 0) return 0;
  return Math.max(1, Math.ceil((chars * pointsPer1k) / 1000));
}
