/**
 * Vitest global setup: starts one embedded PostgreSQL for the whole run (in a
 * temporary DATA_DIR) and detects an external server. Test files then create
 * their own databases from a migrated template (test/support/database.ts).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { externalServerUrl, portAnswers } from './servers.ts';
import { ensurePublishedContract, SHOPIFY_ADMIN_SCHEMA, STRIPE_OPENAPI } from '../contracts/published.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedDatabaseUrl: string;
    externalDatabaseUrl: string | null;
  }
}

async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below the ephemeral range (32768+), and apart from randomPort()'s 26000-31999 (test/support/process.ts).
    const port = 20000 + Math.floor(Math.random() * 6000);
    if (!(await portAnswers('127.0.0.1', port, 200))) return port;
  }
  throw new Error('no free port for the embedded PostgreSQL');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Fetched here, once, so that test files running at once never race to download the same contract.
  await Promise.all([ensurePublishedContract(SHOPIFY_ADMIN_SCHEMA), ensurePublishedContract(STRIPE_OPENAPI)]);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-test-'));
  // As root, PostgreSQL runs as the `postgres` user, which must reach its directory inside.
  await chmod(dataDir, 0o755);
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => undefined });
  project.provide('embeddedDatabaseUrl', embedded.url);
  project.provide('externalDatabaseUrl', await externalServerUrl());
  return async () => {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
