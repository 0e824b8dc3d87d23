/**
 * Vitest global setup (vitest.config.ts): the run's directory of compiled contract validators, which every test file's
 * process shares (test/support/contract-validators.ts), removed at the end of the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absent under a config without this setup (the fault tests): each process then compiles its own. */
    contractValidatorsDir?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-contract-validators-'));
  project.provide('contractValidatorsDir', dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
