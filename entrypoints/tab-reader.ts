import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { readTabDocument } from '../shared/utils/read-document.ts';

/**
 * Injected into the user's tab by the side panel's "Read this page" (shared/platform/extension.ts
 * readTabPage, with chrome.scripting.executeScript): reads the live page, as the user sees it, and
 * answers it to the panel. WXT builds it to /tab-reader.js and ends the bundle with main's result,
 * which is what executeScript resolves with (a promise is awaited: a video's caption track is fetched
 * from the tab). It runs once per click and leaves nothing behind but the language the panel set
 * for it (READER_LANGUAGE_KEY).
 */
export default defineUnlistedScript(() => readTabDocument(document));
