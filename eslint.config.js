// ESLint: typescript-eslint's type-checked recommendations over the TypeScript (each file checked
// against the tsconfig.json nearest to it, through the project service), the plain recommendations
// over the .mjs scripts, and eslint-config-prettier last so no rule argues with the formatter.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/dist/**',
    'dist-bench/**',
    'coverage/**',
    'data/**',
    'docs/**',
    // Written by openapi-typescript from docs/openapi.json (npm run sdk:types).
    'packages/sdk/src/generated/**',
    // A byte-for-byte copy of ../shared/bench-baseline, the yardstick: not ours to restyle.
    'bench/baseline/**',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc's noUnusedLocals already reports unused locals and imports; this adds the arguments of
      // callbacks that must keep their positions. A leading underscore marks those as deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Fastify plugins and implementations of promise-returning interfaces (Kysely drivers, stores,
      // engines) are async by contract, awaiting or not; a sync throw in them still becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Services are objects of closures (no `this`), and Kysely's expression builder is destructured
      // (`({ eb, refTuple }) => …`) as its documentation does: neither has a `this` to lose.
      '@typescript-eslint/unbound-method': 'off',
      // A rejection passes on a caught error or an abort signal's reason as it is, like `throw` may.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The browser code (decision 0068): a page's globals, or a service worker's, and none of Node's.
    // Each file is type-checked against its own tsconfig.json there (DOM or WebWorker types).
    files: ['src/web/client/**'],
    ignores: ['src/web/client/sw/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/web/client/sw/**'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Migrations run over `Kysely<any>` (STYLE.md, Kysely's migration guide): they must not depend
    // on today's Database interface.
    files: ['src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read response bodies as JsonBody (test/helpers/test-app.ts, the one sanctioned `any`)
    // and check them field by field with expect(); a wrong field fails the assertion, so typing
    // every body would be noise. The unit tests, which have no response bodies, keep these rules.
    files: ['test/integration/**', 'test/clients/**', 'test/browser/**', 'test/helpers/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The .mjs scripts are in no tsconfig: linted without type information.
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
);
