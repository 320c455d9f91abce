import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint-rules/layers.js';

export default tseslint.config(
  { ignores: ['node_modules', '.output', '.wxt', 'data', 'coverage', 'server/db/migrations', 'bench/stream-render/dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The layer map (docs/architecture.md#layers-and-import-rules), held as an allow-list.
    files: ['entrypoints/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'shared/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { tandem: { rules: { layers } } },
    rules: {
      'tandem/layers': 'error',
      // A reader holds a function in mind; the chat's hot path aims for 80 lines.
      'max-lines-per-function': ['error', { max: 120, IIFEs: true }],
    },
  },
  {
    // Components reach the server only through shared/api (headers, timeouts, Codes, tracking); the
    // console (admin/) the same way, or through its feature's own api.ts.
    files: ['components/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Components call the server through shared/api.' }],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Components call the server through shared/api.' },
        { object: 'globalThis', property: 'fetch', message: 'Components call the server through shared/api.' },
      ],
      // The overlay code is not part of any page's first JavaScript (bench/README.md#bundle-what-a-user-downloads).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@mantine/core', importNames: ['Modal', 'Drawer'], message: 'Use Modal and Drawer from components/ui/overlays.tsx: their code loads after the first screen.' },
            { name: '@mantine/notifications', importNames: ['Notifications'], message: 'AppProviders renders the toasts, loaded after the first screen.' },
          ],
        },
      ],
    },
  },
  {
    // A console feature's calls (admin/<feature>/api.ts) build on shared/api/request.ts; a download
    // (a redeem-code batch's CSV) reads the response itself.
    files: ['admin/*/api.ts'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' },
  },
);
