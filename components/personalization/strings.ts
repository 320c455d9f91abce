import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/personalization.en.json';

/** The feature's English words, added when any of its screens is first loaded (the Chinese come with the Chinese chunk). */
addEnglishStrings(strings);

/** Chips the traits field offers (their words are the user's language; the text keeps what was picked). */
export const TRAIT_CHIPS = ['concise', 'detailed', 'friendly', 'formal', 'witty', 'encouraging', 'direct', 'stepByStep'] as const;

/** Answer languages offered as chips, each in its own words; anything else can be typed. */
export const LANGUAGE_CHIPS = ['English', '中文', 'Español', 'Français', 'Deutsch', '日本語'] as const;

/** Adds or removes a chip's word in a comma-separated traits text, leaving the rest as typed. */
export function toggleTrait(traits: string, word: string): string {
  const parts = traits
    .split(/[,，]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const has = parts.some((p) => p.toLowerCase() === word.toLowerCase());
  const next = has ? parts.filter((p) => p.toLowerCase() !== word.toLowerCase()) : [...parts, word];
  return next.join(', ');
}

export const hasTrait = (traits: string, word: string) =>
  traits
    .split(/[,，]/)
    .map((p) => p.trim().toLowerCase())
    .includes(word.toLowerCase());
