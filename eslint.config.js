import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'web/dist/', 'artifacts/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Programs that talk to a terminal; the service itself logs through pino.
    files: ['src/cli/**', 'scripts/**', 'bench/**', 'test/run.ts'],
    rules: { 'no-console': 'off' },
  },
);
