// Lint without type information: a type-aware run does not fit the 35 s budget of the stop hook
// on the 2-core machines (npx tsc --noEmit covers the types).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One-way imports (docs/architecture.md). Client: shared modules -> features -> shell -> app, and
 * no feature imports another; a new folder under client/features is covered as it appears.
 * Server: lib imports no area, and the screenings area none of those built on it.
 */
const SHARED = ['components', 'config', 'documents', 'early-start', 'hooks', 'i18n', 'lib', 'routes', 'stores', 'testing', 'workers'];
const FEATURES = readdirSync('client/features');
const clientZones = [
  ...SHARED.map((folder) => ({
    target: `./client/${folder}`,
    from: ['./client/features', './client/shell', './client/app'],
    message: 'Shared modules are used by features, the shell and the app; they import none of them.',
  })),
  ...FEATURES.map((feature) => ({
    target: `./client/features/${feature}`,
    from: './client/features',
    except: [`./${feature}`],
    message: 'A feature never imports another: move what both need into a shared module.',
  })),
  {
    target: './client/features',
    from: ['./client/shell', './client/app'],
    message: 'Features are used by the shell and the app, not the other way.',
  },
  { target: './client/shell', from: './client/app', message: 'The shell is used by the app, not the other way.' },
];
const serverZones = [
  {
    target: './server/lib',
    from: './server',
    except: ['./lib', './config.ts', './db.ts'],
    message: 'server/lib is infrastructure: it imports no area.',
  },
  {
    target: './server/screenings',
    from: [
      './server/iso',
      './server/survey',
      './server/upload',
      './server/orders',
      './server/provider',
      './server/intake',
      './server/dicomweb',
      './server/notices',
      './server/cli',
    ],
    message: 'The screenings area depends on none of the areas built on it; pass what it shows of theirs through its deps.',
  },
  {
    target: './server/*/**',
    from: './server/entry',
    message: 'Entry chains are the top: only app.ts mounts them; areas never import them.',
  },
  {
    target: './server/provider',
    from: ['./server/entry', './server/intake', './server/dicomweb', './server/notices', './server/orders', './server/cli'],
    message: "server/provider is the machine API's plumbing (keys, audit, endpoint template): areas build on it, not it on them.",
  },
];

export default defineConfig([
  globalIgnores(['**/dist/', '**/node_modules/', 'data/', 'scripts/tmp/', 'test-results/', 'playwright-report/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      eqeqeq: 'error',
    },
  },
  {
    files: ['server/**', 'db/**', 'scripts/**', 'bench/**', 'tests/**', '*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['client/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['sw/**'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['client/**/*.tsx'],
    extends: [jsxA11y.flatConfigs.recommended],
  },
  {
    files: ['client/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The module graph is read with the TypeScript parser, as no-cycle must follow .ts and .tsx.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.node.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...clientZones, ...serverZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The server logs through pino; the browser has the error boundary and the API error shape.
    files: ['server/**', 'client/**'],
    rules: { 'no-console': 'error' },
  },
]);
