import { defineConfig } from 'vitest/config';

// The webhook chaos test alone, after the other fault files: it measures delivery inside scaled windows while its
// worker is killed every 2-5 s, so it needs the machine to itself. Beside another fault file on the 2-core CI machine,
// worker start-up rose to a median of 5.7 s and an event waited p50 43 s for its first attempt (2026-11-30): the
// deadlines then measured the neighbour, not the service.
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/faults/webhook-chaos.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
