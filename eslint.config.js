// Strict, type-aware lint from day one: no floating promises, no any, no type escapes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_AS_UNKNOWN_AS = {
  selector: 'TSAsExpression > TSAsExpression > TSUnknownKeyword',
  message: 'No `as unknown as` escapes: type it properly.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.ci/**', 'bench/results/**', 'coverage/**', 'public/**', 'packages/client/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-syntax': ['error', NO_AS_UNKNOWN_AS],
    },
  },
  {
    // One tenant guard (docs/architecture.md, "Layers"): handlers take the caller's tenant from requireTenant(request).
    files: ['src/api/**/*.ts'],
    ignores: ['src/api/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_AS_UNKNOWN_AS,
        {
          selector: 'MemberExpression[property.name="tenant"][object.name=/^(request|req)$/]',
          message: 'Take the tenant from requireTenant(request) (src/http/auth.ts): one guard, not copies.',
        },
      ],
    },
  },
  {
    // A platform's answers are parsed through its published contract, never cast (docs/connectors.md, "The platform's
    // contract"): no type assertion at all in a platform's folder (`as const` stays allowed).
    files: ['src/platforms/*/**/*.ts'],
    ignores: ['src/platforms/**/*.test.ts'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // .dependency-cruiser.cjs: CommonJS, as dependency-cruiser loads it.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
