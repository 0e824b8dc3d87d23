import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPort, ROOT, startService, waitForOk } from '../support/process.ts';

// A fresh machine: no DATABASE_URL, no ADMIN_TOKEN, empty DATA_DIR → embedded PostgreSQL.
let dataDir: string;
const pgPort = randomPort();
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-start-'));
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

interface CredentialsFile {
  admin_token: string;
  organization: { id: string };
  credentials: Record<'sandbox' | 'production', { client_id: string; client_secret: string }>;
}

describe('npm start on an empty data dir', () => {
  it('answers within 10 s, prints and stores first-start credentials once, and stops cleanly on SIGTERM', async () => {
    const port = randomPort();
    const service = startService([], { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(pgPort) });
    try {
      const elapsed = await waitForOk(`http://127.0.0.1:${port}/readyz`, 10_000, service);
      expect(elapsed).toBeLessThan(10_000);
      const file = path.join(dataDir, 'credentials.json');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(await readFile(file, 'utf8')) as CredentialsFile;
      expect(service.output()).toContain(saved.admin_token);
      expect(service.output()).toContain(saved.credentials.sandbox.client_secret);

      const list = await fetch(`http://127.0.0.1:${port}/admin/organizations`, { headers: { authorization: `Bearer ${saved.admin_token}` } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { organizations: { name: string }[] }).organizations.map((o) => o.name)).toEqual(['Default']);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
  });

  it('keeps its data across a restart and prints no secrets the second time', async () => {
    const saved = JSON.parse(await readFile(path.join(dataDir, 'credentials.json'), 'utf8')) as CredentialsFile;
    const port = randomPort();
    const service = startService(['--role=api'], { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(pgPort) });
    try {
      await waitForOk(`http://127.0.0.1:${port}/readyz`, 10_000, service);
      expect(service.output()).not.toContain(saved.admin_token);
      const list = await fetch(`http://127.0.0.1:${port}/admin/organizations`, { headers: { authorization: `Bearer ${saved.admin_token}` } });
      expect(list.status).toBe(200);

      // A worker started beside it attaches to the same embedded PostgreSQL.
      const worker = startService(['--role=worker'], { DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort) });
      const deadline = Date.now() + 10_000;
      while (!worker.output().includes('worker started') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(worker.output()).toContain('attaching');
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);

      // The API still answers after the worker stopped (the worker did not stop PostgreSQL).
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
  });

  it('the CLI creates an organisation through the same code', () => {
    const result = spawnSync(process.execPath, ['bin/ledgerport.js', 'org', 'create', '--name', 'Acme'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort), DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    const created = JSON.parse(result.stdout) as { organization: { name: string }; credentials: { sandbox: { client_id: string } } };
    expect(created.organization.name).toBe('Acme');
    expect(created.credentials.sandbox.client_id).toMatch(/^lp_sandbox_/);
    const usage = spawnSync(process.execPath, ['bin/ledgerport.js', 'org', 'create'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort), DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--name');
  });

  it("the CLI sets an organisation's products through the same code as the admin API", () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/ledgerport.js', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort), DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const listed = JSON.parse(cli('org', 'list').stdout) as { organizations: { id: string; name: string; products: string[] }[] };
    const acme = listed.organizations.find((o) => o.name === 'Acme');
    if (acme === undefined) throw new Error('no Acme');
    expect(acme.products).toEqual(['accounting', 'commerce', 'payments', 'bank_feeds']);
    const set = cli('org', 'products', '--id', acme.id, '--set', 'commerce,accounting');
    expect(set.status, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ products: ['accounting', 'commerce'] });
    const refused = cli('org', 'products', '--id', acme.id, '--set', 'accounting,crypto');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('"crypto"');
    const usage = cli('org', 'products', '--id', acme.id);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--set');
  });

  it('refuses bad configuration with one clear message per problem', () => {
    const result = spawnSync(process.execPath, ['src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'eighty', ENCRYPTION_KEY: 'short', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT=eighty is not a port number');
    expect(result.stderr).toContain('ENCRYPTION_KEY must be 32 bytes');
    expect(result.stderr).toContain('LOG_LEVEL=loud is not one of');
    expect(result.stderr).toContain('DATABASE_URL must start with postgres://');
  });
});
