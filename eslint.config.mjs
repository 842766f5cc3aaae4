// ESLint checks what Prettier does not: likely bugs, and comments kept to the line width Prettier gives code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  require: 'readonly',
  module: 'writable',
  __dirname: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  fetch: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.e2e-tools/',
      'test-artifacts/',
      'examples/',
      'bench/tmp/',
      'test/fixtures/',
      'bench/.peers/',
      'server/src/checks/schema/schemaValidators.generated.*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    // Expected text is written as the tool prints it, indentation and all.
    files: ['test/**'],
    rules: { 'no-regex-spaces': 'off' },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      // `_name` marks a value taken apart on purpose (a rest sibling dropped, a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The YAML and text readers match control characters on purpose: YAML forbids them in plain scalars.
      'no-control-regex': 'off',
      // One import per module: the front doors are imported whole.
      'no-duplicate-imports': 'error',
      // Prettier wraps code at 120 columns but leaves comments and long messages as written:
      // comments are held to it here.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
);
