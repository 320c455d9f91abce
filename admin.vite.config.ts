import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The operator's console (/admin): a page of its own, built by plain Vite into .output/admin and
 * served by the server (server/http/web.ts). It lives outside entrypoints/, so WXT never sees it
 * and the extension packages carry none of it. Built by scripts/ensure-extension-build.ts (npm start,
 * the end-to-end setup) when missing or older than its sources, or by `npm run build:admin`.
 */
const root = fileURLToPath(new URL('./admin', import.meta.url));

export default defineConfig({
  root,
  // The page and its assets are served under /admin/ (index.html for every console route).
  base: '/admin/',
  // The icons are the web app's (/icon/32.png), served from its build.
  publicDir: false,
  // The app's version, which the error log records (shared/api/client-error-log.ts).
  define: { 'import.meta.env.WXT_APP_VERSION': JSON.stringify((JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version) },
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./.output/admin', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Charts and tables make the console's chunks larger than a side panel's; they load only here.
    chunkSizeWarningLimit: 1500,
  },
});
