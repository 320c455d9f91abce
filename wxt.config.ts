import { readFileSync } from 'node:fs';
import { defineConfig } from 'wxt';
import { pageChunks } from './scripts/page-chunks.ts';
import { pureContracts } from './scripts/pure-contracts.ts';
import { EXTENSION_MANIFEST_KEY } from './shared/contracts/extension.ts';

/**
 * The server the extension talks to out of the box. Set WXT_SERVER_URL at build time to ship a build
 * for another self-hosted server; the client reads the same variable (shared/platform/server-url.ts).
 */
/** The app's version, which the error log records (shared/api/client-error-log.ts). */
const appVersion = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

const serverUrl = new URL(process.env.WXT_SERVER_URL ?? 'http://localhost:3000');

/**
 * KaTeX's stylesheet lists each font as woff2, woff and ttf; every browser the extension supports
 * reads woff2, so the other two only made the package bigger (they were 75% of it).
 */
function katexWoff2Only() {
  return {
    name: 'tandem-katex-woff2-only',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      if (!/katex(\.min)?\.css($|\?)/.test(id)) return null;
      return code.replace(/,\s*url\([^)]+\.(?:woff|ttf)\)\s*format\(["'](?:woff|truetype)["']\)/g, '');
    },
  };
}

/**
 * KaTeX is loaded on first use (shared/markdown/math.ts), but the markdown-it plugin requires it at
 * load time for a default it never needs here (render.ts always passes its own KaTeX). That require
 * gets an empty module, so KaTeX stays out of the pages' first JavaScript.
 */
const LAZY_KATEX_STUB = '\0tandem-katex-stub';
function katexOutOfMarkdownPlugin() {
  return {
    name: 'tandem-katex-out-of-markdown-plugin',
    enforce: 'pre' as const,
    resolveId(source: string, importer: string | undefined) {
      return source === 'katex' && importer?.includes('@vscode/markdown-it-katex') ? LAZY_KATEX_STUB : null;
    },
    load(id: string) {
      return id === LAZY_KATEX_STUB ? 'export default {};' : null;
    },
  };
}

/** Firefox's id for the add-on (browser_specific_settings.gecko.id): fixed, so storage and the login survive updates. */
const GECKO_ID = 'tandem@tandem.chat';

/**
 * The Firefox build (`wxt zip -b firefox --mv3`, docs/firefox.md): WXT turns the side panel entrypoint
 * into `sidebar_action`; what Chrome alone understands goes (the sidePanel permission, the key that
 * fixes Chrome's id, minimum_chrome_version), the shortcut opens the sidebar through Firefox's own
 * `_execute_sidebar_action` command, and the add-on gets its gecko id.
 */
function firefoxManifest(manifest: Record<string, unknown>): void {
  manifest.permissions = ((manifest.permissions as string[] | undefined) ?? []).filter((p) => p !== 'sidePanel');
  delete manifest.key;
  delete manifest.minimum_chrome_version;
  delete manifest.side_panel;
  const commands = manifest.commands as Record<string, unknown> | undefined;
  if (commands?.['open-side-panel']) {
    commands._execute_sidebar_action = commands['open-side-panel'];
    delete commands['open-side-panel'];
  }
  // 128: Firefox ESR's first release with everything the MV3 build uses (scripting, module background).
  manifest.browser_specific_settings = { gecko: { id: GECKO_ID, strict_min_version: '128.0' } };
}

export default defineConfig({
  // The Firefox package is not for addons.mozilla.org review: no sources zip beside it.
  zip: { zipSources: false },
  hooks: {
    'build:manifestGenerated': (wxt, manifest) => {
      if (wxt.config.browser === 'firefox') firefoxManifest(manifest as unknown as Record<string, unknown>);
    },
  },
  vite: () => ({ define: { 'import.meta.env.WXT_APP_VERSION': JSON.stringify(appVersion) }, plugins: [katexWoff2Only(), katexOutOfMarkdownPlugin(), pureContracts(), pageChunks()] }),
  // Every name is imported explicitly (docs/architecture.md#layers-and-import-rules), so no auto-imports.
  imports: false,
  modules: ['@wxt-dev/module-react'],
  // side_panel.default_path and action.default_popup are added by WXT from the sidepanel/ and popup/
  // entrypoints, so the manifest never points at a page the build does not contain.
  manifest: {
    name: 'Tandem',
    key: EXTENSION_MANIFEST_KEY,
    description: 'An AI chat assistant in your browser side panel.',
    minimum_chrome_version: '114',
    // alarms: the toolbar badge's unread count is refreshed every five minutes (entrypoints/background/badge.ts).
    // contextMenus: the selection, page and image items (entrypoints/background/selection.ts).
    permissions: ['sidePanel', 'storage', 'tabs', 'activeTab', 'scripting', 'alarms', 'contextMenus'],
    // The server's host: the API calls. <all_urls>: "Read this page" and "Attach a screenshot" act on
    // whatever tab the side panel sits beside (chrome.scripting.executeScript of the tab reader,
    // chrome.tabs.captureVisibleTab), as Sider and Monica do. activeTab is not enough: it is granted
    // only by a click on the extension's own action, shortcut or menu, never by a click inside the
    // side panel, and the panel stays open while the user moves between tabs. Reading in the tab,
    // rather than having the server fetch the address, is what makes signed-in and script-built
    // pages readable. One small content script runs on every page (entrypoints/selection.content:
    // the selection toolbar and the floating icon, plain DOM in a closed shadow root, ≤ 15 KB gzipped);
    // nothing else is injected until the user asks.
    host_permissions: [`${serverUrl.protocol}//${serverUrl.hostname}/*`, '<all_urls>'],
    action: { default_title: 'Tandem' },
    // MV3's default for the extension's pages, plus images: their own files, data: and blob: only.
    // The server's images (uploads, drawn images) are fetched and shown as blob: URLs, as the server
    // can be changed in settings; another host's image only through the server's proxy, after a
    // click (docs/security.md).
    content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'; img-src 'self' data: blob:" },
    commands: {
      'open-side-panel': {
        suggested_key: { default: 'Alt+T' },
        description: 'Open the Tandem side panel',
      },
      // The page's selection goes to the side panel's composer (entrypoints/background/selection.ts).
      'send-selection': {
        suggested_key: { default: 'Alt+Shift+K' },
        description: 'Ask Tandem about the selected text',
      },
      // The page in place: translated, or its original again (entrypoints/background/page-translate.ts).
      'translate-page': {
        suggested_key: { default: 'Alt+A' },
        description: 'Translate this page / show the original',
      },
    },
  },
});
