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
    // Two files at a time. Vitest's default is one worker fewer than the cores, so one file at a time on the 2-core CI
    // machine, where most files wait on PostgreSQL, their servers and timers rather than compute: see docs/performance.md,
    // "CI time (issue 40)". Files are independent (each its own database from the template, ports chosen at random).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
