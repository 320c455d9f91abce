/**
 * A language set for the tab reader (shared/utils/read-document.ts) in the tab's isolated world: it
 * wins over the extension's language setting when choosing a video's caption track (tests set it).
 */
export const READER_LANGUAGE_KEY = '__tandemReaderLanguage';
