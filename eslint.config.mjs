// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // A module is imported through its index, never through one of its files (docs/architecture.md;
    // src/architecture.spec.ts checks this and the layers). Specs may import the files they test.
    files: ['src/modules/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^./][^/]*/',
              message: "Import another module through its index: '../<module>'.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/*.ts', 'src/app/**/*.ts', 'src/common/**/*.ts', 'src/config/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\./|(\\.\\./)+)modules/[^/]+/',
              message: "Import a module through its index: '../modules/<module>'.",
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.fixtures.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Plain ES modules run by node (deploy/check.mjs): linted without type information.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The pages' browser scripts: plain scripts run by the browser, not part of the TypeScript project.
    files: ['src/modules/pages/assets/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        URLSearchParams: 'readonly',
        DOMParser: 'readonly',
        URL: 'readonly',
        ResizeObserver: 'readonly',
      },
    },
  },
  prettier,
);
