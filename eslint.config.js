import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
    // Rule 4 of DESIGN.md: the server reaches the client side only through contracts and utils.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/components/**', '**/entrypoints/**', '**/shared/api/**', '**/shared/atoms/**', '**/shared/platform/**', '**/shared/storage/**'], message: 'The server imports only shared/contracts and shared/utils.' },
      ] }],
    },
  },
);
