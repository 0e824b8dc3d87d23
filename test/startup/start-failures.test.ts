import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, keyIdOf } from '../../src/crypto/secrets.ts';
import { verifyEncryptionKey } from '../../src/tenants/bootstrap.ts';
import { createTestDatabase } from '../support/database.ts';
import { randomPort, ROOT, startService, waitForOk } from '../support/process.ts';

// Issue 32, item 6: every start failure names what is wrong and says what to do, on stderr, with exit code 1. The
// real process (`node src/main.ts`), each failure made for real.
let scratch: string;
let held: net.Server;
let heldPort: number;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-start-failures-'));
  // Another program on a port: it accepts connections and closes them.
  held = net.createServer((socket) => socket.destroy());
  heldPort = await new Promise<number>((resolve) => {
    held.listen(0, '127.0.0.1', () => {
      const address = held.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
});
afterAll(async () => {
  await new Promise((resolve) => held.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

interface Failed {
  status: number | null;
  stderr: string;
}

/** Starts the service with `env` over a clean slate, and waits for it to give up (60 s at most: then it started). */
function failedStart(env: Record<string, string>): Promise<Failed> {
  const child = spawn(process.execPath, ['src/main.ts', '--role=api'], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ADMIN_TOKEN: '',
      ENCRYPTION_KEY: '',
      HOST: '127.0.0.1',
      PORT: String(randomPort()),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    const started = setTimeout(() => {
      child.kill('SIGTERM');
    }, 60_000);
    child.once('exit', (status) => {
      clearTimeout(started);
      resolve({ status, stderr });
    });
  });
}

/** A port nothing listens on (one just given up). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectAdvice(failed: Failed, ...named: string[]): void {
  expect(failed.status, failed.stderr).toBe(1);
  expect(failed.stderr).toMatch(/^ledgerport failed to start: .+\nWhat to do: .+/m);
  for (const text of named) expect(failed.stderr).toContain(text);
  // A recognised failure has no stack trace, and never says "undefined".
  expect(failed.stderr).not.toMatch(/\n\s+at /);
  expect(failed.stderr).not.toContain('undefined');
}

describe('a start that fails says what to do', () => {
  it("the embedded PostgreSQL's port taken: names the port and EMBEDDED_POSTGRES_PORT", async () => {
    const dataDir = path.join(scratch, 'embedded-port');
    const failed = await failedStart({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(heldPort) });
    expectAdvice(failed, `127.0.0.1:${heldPort}`, 'EMBEDDED_POSTGRES_PORT');

    // Doing what it says works, though the first start stored the taken port in DATA_DIR.
    const port = randomPort();
    const service = startService(['--role=api'], {
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(randomPort()),
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    try {
      await waitForOk(`http://127.0.0.1:${port}/readyz`, 60_000, service);
      expect(service.output()).toContain('(EMBEDDED_POSTGRES_PORT)');
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
  }, 120_000);

  it('the HTTP port taken: names the port and PORT', async () => {
    const db = await createTestDatabase('embedded');
    try {
      const failed = await failedStart({ DATABASE_URL: db.url, ENCRYPTION_KEY: randomBytes(32).toString('hex'), PORT: String(heldPort) });
      expectAdvice(failed, `127.0.0.1:${heldPort}`, 'set PORT');
    } finally {
      await db.close();
    }
  });

  it('PostgreSQL unreachable: names DATABASE_URL', async () => {
    const closed = await closedPort();
    const failed = await failedStart({
      DATABASE_URL: `postgres://ledgerport@127.0.0.1:${closed}/ledgerport`,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    expectAdvice(failed, 'cannot reach PostgreSQL', 'DATABASE_URL');
  });

  it('a DATABASE_URL whose database does not exist: says to create it', async () => {
    const db = await createTestDatabase('embedded');
    const url = new URL(db.url);
    url.pathname = '/ledgerport_no_such_database';
    await db.close();
    const failed = await failedStart({ DATABASE_URL: url.toString(), ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    expectAdvice(failed, 'ledgerport_no_such_database', 'create it');
  });

  it('the wrong ENCRYPTION_KEY: says to set the original one', async () => {
    const db = await createTestDatabase('embedded');
    try {
      const original = randomBytes(32);
      await verifyEncryptionKey(db.pool, createCipher(original));
      const other = randomBytes(32);
      const failed = await failedStart({ DATABASE_URL: db.url, ENCRYPTION_KEY: other.toString('hex') });
      expectAdvice(
        failed,
        'ENCRYPTION_KEY is not the key',
        'set ENCRYPTION_KEY to the key this database was first started with',
        // Which key the database needs and which this process has, by key id; and how a rotation avoids this.
        `sealed with key ${keyIdOf(original).toString('hex')}, which is none of the configured keys: ENCRYPTION_KEY (key ${keyIdOf(other).toString('hex')})`,
        'keep the key the database was using in ENCRYPTION_KEY_PREVIOUS',
      );
    } finally {
      await db.close();
    }
  });

  it('a second host without ENCRYPTION_KEY: says where the first host keeps its key and how to share it', async () => {
    const db = await createTestDatabase('embedded');
    const dataDir = path.join(scratch, 'second-host');
    try {
      // The first host set the database up with its own key.
      await verifyEncryptionKey(db.pool, createCipher(randomBytes(32)));
      const failed = await failedStart({ DATABASE_URL: db.url, DATA_DIR: dataDir });
      const generated = path.join(dataDir, 'encryption.key');
      expectAdvice(
        failed,
        `ENCRYPTION_KEY is not set, so this start generated a new key in ${generated}`,
        'its ENCRYPTION_KEY',
        'its DATA_DIR/encryption.key',
        '`cat <its DATA_DIR>/encryption.key`',
        'set ENCRYPTION_KEY to those characters on every host',
        `copy that file over ${generated}`,
      );

      // Started again, the key file it generated is no better: it says so, and where the right key is.
      const again = await failedStart({ DATABASE_URL: db.url, DATA_DIR: dataDir });
      expectAdvice(again, `the key in ${generated} (ENCRYPTION_KEY is not set)`, 'its DATA_DIR/encryption.key');
    } finally {
      await db.close();
    }
  });

  it('a migration that fails: names it and says nothing of it was applied', async () => {
    const db = await createTestDatabase('embedded', { empty: true });
    try {
      // Another program's table where migration 0001 creates Ledgerport's.
      await db.pool.query('CREATE TABLE organizations (other_software integer)');
      const failed = await failedStart({ DATABASE_URL: db.url, ENCRYPTION_KEY: randomBytes(32).toString('hex') });
      expectAdvice(failed, 'Migration 0001_foundation failed', 'nothing of it was applied', 'a database of its own');
    } finally {
      await db.close();
    }
  });

  it('a DATA_DIR that cannot be a directory: names DATA_DIR', async () => {
    const file = path.join(scratch, 'a-file');
    await writeFile(file, '');
    const failed = await failedStart({ DATA_DIR: path.join(file, 'data'), EMBEDDED_POSTGRES_PORT: String(randomPort()) });
    expectAdvice(failed, `DATA_DIR=${path.join(file, 'data')}`, 'set DATA_DIR');
  });

  it('bad configuration: each problem, and what to do', async () => {
    const failed = await failedStart({ PORT: 'eighty' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('PORT=eighty is not a port number');
    expect(failed.stderr).toContain('What to do: correct these variables');
  });
});
