// ESLint: syntax-level habits (no type information, so the whole lint stays fast on 2 cores).
// `npm run lint` runs it with dependency-cruiser and knip; see docs/architecture.md "Habits that guard the shape".
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default defineConfig(
  // What .gitignore leaves out (built app, data, reports) is not ours to lint.
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'artefacts/**', '.tmp/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // A disable comment that no longer suppresses anything is itself an error: they stay honest.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // The few plain JavaScript files (configs, the PGlite worker) run in Node.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The rules of hooks for the React app, and for streams/react.ts, the one hook outside src/.
    files: ['src/**/*.{ts,tsx}', 'streams/react.ts'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // Only says the React Compiler would skip a component that uses TanStack Virtual; the app is not compiled by it.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    rules: {
      // The code's convention: a `_` name is unused on purpose (a callback's leading arguments, a
      // field taken out of an object with ...rest, `for (const _ of text)` counting code points).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
