import { defineConfig } from 'vitest/config';

// Fault tests: real processes killed with SIGKILL; slower, run by `npm run test:faults` (CI runs it too).
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
