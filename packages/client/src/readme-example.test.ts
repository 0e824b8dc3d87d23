/**
 * The README's client example ("The same with the TypeScript client"), run as written by Node against a started
 * service, as a user would run it after the curl walk-through.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

const run = promisify(execFile);
let t: TestApp;
let synced: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  synced = await syncedSandboxConnection(t, 'user_readme_client');
});
afterAll(async () => {
  await t.close();
});

async function readmeExample(): Promise<string> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.split('### The same with the TypeScript client')[1] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README has no TypeScript client example');
  return block;
}

it("the README's client example runs as written", async () => {
  // Inside the repository, so that `@ledgerport/client` resolves as in the README's folder.
  const directory = await mkdtemp(join(import.meta.dirname, '../.readme-example-'));
  try {
    const file = join(directory, 'example.ts');
    await writeFile(file, await readmeExample());
    const { client_id, client_secret } = t.org.credentials.sandbox;
    const port = (t.app.server.address() as AddressInfo).port;
    const { stdout } = await run(process.execPath, [file], {
      env: { ...process.env, LEDGERPORT_URL: `http://127.0.0.1:${port}`, CLIENT_ID: client_id, CLIENT_SECRET: client_secret, TOKEN: synced.token },
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`${synced.connection.id} SANDBOX active`);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.at(-1)).toMatch(/^400 INVALID_CURSOR \S+$/);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
