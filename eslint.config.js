// ESLint (npm run lint, in npm test): typescript-eslint's recommended rules and a few of ESLint's that catch bugs, not
// style; Prettier owns the layout (eslint-config-prettier turns off the rules it would fight). Not type-aware: with
// type information a run took 41 s of CPU instead of 14 s on the 2-core machine (docs/development.md).
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  { ignores: ['dist/', 'reports/', 'conformance-report/', '.stryker-tmp*/', '.tmp/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  prettier,
  {
    // The scripts and configs in plain JavaScript run on Node (TypeScript files need no list of globals).
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly', URL: 'readonly' },
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'array-callback-return': 'error',
      'default-case-last': 'error',
      'no-constructor-return': 'error',
      'no-return-assign': ['error', 'except-parens'],
      'no-self-compare': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-useless-assignment': 'error',
      radix: 'error',
      // Finding control characters is part of the job (keys, receipts, URLs, terminal colours): the regexes mean them.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Comments and code fit in 120 columns; Prettier breaks the code. A string, template literal, regex or URL is
      // not broken for it: a message or pattern read whole (and grepped for) is worth a long line.
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // Faults, allowances and tests edit JSON bodies of any shape in place.
    files: ['src/reference/**', 'test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
