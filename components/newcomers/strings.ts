import en from '../../locales/features/newcomers.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

// The newcomers' pages (home, guide, help centre, feedback, not-found) bring their English words with their chunk.
addEnglishStrings(en);
