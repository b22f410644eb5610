import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'test/fixtures/**', 'demo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    // One job per file: a budget of code lines (comments and blank lines do not count).
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 350, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'os', 'child_process', 'electron', '../../electron/*'] }],
    },
  },
  {
    files: ['shared/**/*.ts', 'electron/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron', 'react', 'react-dom'] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron', 'react', 'react-dom'], patterns: ['node:*', 'fs', 'path', 'os'] }],
    },
  },
);
