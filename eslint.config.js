// Lint without type information: a type-aware run does not fit the 35 s budget of the stop hook
// on the 2-core machines (npx tsc --noEmit covers the types).
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    'data/',
    'scripts/tmp/',
    'test-results/',
    'playwright-report/',
  ]),
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
    // The server logs through pino; the browser has the error boundary and the API error shape.
    files: ['server/**', 'client/**'],
    rules: { 'no-console': 'error' },
  },
]);
