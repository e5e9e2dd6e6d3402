import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Modules shared/ may never import: it runs in the browser, Node, Electron and the renderer alike. */
const FORBIDDEN_IN_SHARED = [
  { group: ['node:*'], message: 'shared/ is pure TypeScript: no Node built-ins.' },
  ...[
    'fs',
    'path',
    'os',
    'crypto',
    'http',
    'https',
    'net',
    'child_process',
    'stream',
    'url',
    'util',
    'buffer',
    'events',
    'worker_threads',
  ].map((m) => ({
    group: [m, `${m}/*`],
    message: 'shared/ is pure TypeScript: no Node built-ins.',
  })),
  { group: ['electron', 'electron/*', '@electron/*'], message: 'shared/ may not import Electron.' },
  {
    group: [
      'react',
      'react/*',
      'react-dom',
      'react-dom/*',
      'react-router*',
      '@tanstack/*',
      'jotai',
      'jotai/*',
      '@mantine/*',
      'react-i18next',
    ],
    message: 'shared/ may not import React or UI libraries.',
  },
  {
    group: ['knex', 'knex/*', 'objection', 'pg', 'pg-*', 'better-sqlite3', '@electric-sql/*', 'pg-boss'],
    message: 'shared/ may not import database libraries.',
  },
  {
    group: [
      'serialport',
      '@serialport/*',
      'node-thermal-printer',
      'koa',
      'koa-*',
      '@koa/*',
      'nodemailer',
      'pino',
      'vite',
    ],
    message: 'shared/ may not import server or device libraries.',
  },
  {
    group: ['**/cloud/**', '**/web/**', '**/desktop/**'],
    message: 'shared/ is imported by the apps, never the other way round.',
  },
];

const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'fetch',
  'location',
  'history',
  'HTMLElement',
  'XMLHttpRequest',
  'process',
  'Buffer',
  '__dirname',
  'require',
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'var', 'tmp', 'test-results', 'playwright-report', 'release'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'desktop/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // What the client-facing apps and the shared features show lives in web/features (or web/ui,
    // web/lib); they never reach into the back office.
    files: [
      'web/frontoffice/**/*.{ts,tsx}',
      'web/kiosk/**/*.{ts,tsx}',
      'web/entry/**/*.{ts,tsx}',
      'web/donation/**/*.{ts,tsx}',
      'web/widget/**/*.{ts,tsx}',
      'web/features/**/*.{ts,tsx}',
      'web/ui/**/*.{ts,tsx}',
      'web/lib/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/backoffice/**', '**/backoffice'],
              message:
                'Only the back office imports web/backoffice: move what both show to web/features/<area>.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', { patterns: FORBIDDEN_IN_SHARED }],
      'no-restricted-globals': [
        'error',
        ...DOM_GLOBALS.map((name) => ({ name, message: 'shared/ is pure: no DOM or Node globals.' })),
      ],
    },
  },
  {
    // CommonJS tool configs (dependency-cruiser's).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
