import en from '../../locales/features/admin-campaigns.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

/** The feature's English strings, registered by every module of it that shows text (any may load first). */
addEnglishStrings(en);
