import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // contract-global-setup: the run's compiled contract validators, shared by every file (test/support/contract-validators.ts).
    globalSetup: ['test/support/global-setup.ts', 'test/support/contract-global-setup.ts'],
    // A test whose app answered outside /openapi.json fails (test/support/contract-check.ts).
    setupFiles: ['test/support/contract-setup.ts'],
    include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'test/faults/**', 'bench/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
