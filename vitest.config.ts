import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's two. Files are
    // independent (each test app has a database of its own, servers listen on free ports), so use them all
    // (at most four: PostgreSQL allows 100 connections, and a test app may open 30).
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/shared/**', 'tests/components/**', 'tests/e2e/**', 'tests/**/*.e2e.test.ts'],
          globalSetup: ['tests/setup/databases.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Chromium with the unpacked extension against a real server. Files run side by side like
          // the others: each starts its own server, fake upstreams and Chromium profile on free
          // ports; they share only the build, made once by the global setup and read-only after.
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.test.ts', 'tests/security/**/*.e2e.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts', 'tests/setup/databases.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        // WxtVitest stubs the global `browser`/`chrome` with @webext-core/fake-browser and aliases
        // `wxt/browser` to it, so extension-only modules run under jsdom against an in-memory browser.
        plugins: [WxtVitest(), react()],
        resolve: {
          alias: [
            // Importing the `wxt/testing` index under jsdom crashes (wxt 0.21's TextEncoder check); only the fake
            // browser is needed from it. Exact match, so `wxt/testing/fake-browser` keeps resolving.
            {
              find: /^wxt\/testing$/,
              replacement: fileURLToPath(new URL('node_modules/wxt/dist/testing/fake-browser.mjs', import.meta.url)),
            },
          ],
        },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/shared/**/*.test.{ts,tsx}', 'tests/components/**/*.test.{ts,tsx}', 'tests/admin/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/jsdom.ts'],
          // The files of a worker share its jsdom and the libraries under node_modules instead of
          // loading them again each: half the suite's time went to that. After each file the setup
          // file puts back what a file may change outside itself (timers, spies, stubs, storage,
          // cookies, the URL, the language, the document) and resets the project's own modules.
          isolate: false,
        },
      },
    ],
  },
});
