import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // A test whose app answered outside /openapi.json fails (test/support/contract-check.ts).
    setupFiles: ['test/support/contract-setup.ts'],
    include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'test/faults/**', 'bench/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
