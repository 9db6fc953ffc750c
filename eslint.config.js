import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Where a file may run: the engine, worker runtime, API and CLI never load Electron;
  // only electron/shell/ may.
  {
    files: ['electron/engine/**', 'electron/worker/**', 'electron/api/**', 'electron/cli/**', 'shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron'], message: 'Only electron/shell/ may import electron.' }] }],
    },
  },
  // The window runs in a sandboxed page: no Node built-ins, no Electron.
  {
    files: ['renderer/**', 'shared/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'electron', 'fs', 'path', 'child_process', 'os'], message: 'renderer/ and shared/ run in a browser.' }] },
      ],
    },
  },
);
