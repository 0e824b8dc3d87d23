/** First start: the Default organisation and credentials.json, with ADMIN_TOKEN set or not, exactly once. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createCipher, sha256 } from '../crypto/secrets.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { bootstrapAdmin, firstStartBanner } from './bootstrap.ts';
import { createOrganization } from './organizations.ts';

let db: TestDatabase;
let dataDir: string;
const cipher = createCipher(randomBytes(32));
const config = (adminToken?: string) => loadConfig({ DATA_DIR: dataDir, ...(adminToken === undefined ? {} : { ADMIN_TOKEN: adminToken }) });
const organizationNames = async (): Promise<string[]> =>
  (await db.pool.query<{ name: string }>('SELECT name FROM organizations ORDER BY created_at')).rows.map((r) => r.name);
const credentialsFile = async (): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path.join(dataDir, 'credentials.json'), 'utf8')) as Record<string, unknown>;

beforeEach(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-bootstrap-'));
});
afterEach(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const TOKEN = 'operator-chosen-admin-token-0123456789';

describe('first start with ADMIN_TOKEN set', () => {
  it('creates the Default organisation and writes its credentials without the admin token; not again on the next start', async () => {
    const first = await bootstrapAdmin(db.pool, cipher, config(TOKEN));
    expect(first.adminTokenSha256).toEqual(sha256(TOKEN));
    expect(first.firstStart?.created?.organization.name).toBe('Default');
    expect(await organizationNames()).toEqual(['Default']);
    const saved = await credentialsFile();
    expect(saved.admin_token).toBeUndefined();
    expect(saved.organization).toMatchObject({ name: 'Default' });
    expect(JSON.stringify(saved.credentials)).toContain(first.firstStart?.created?.credentials.sandbox.client_secret);
    const banner = firstStartBanner(first.firstStart ?? expect.fail('no first start'));
    expect(banner).toContain('the ADMIN_TOKEN you set');
    expect(banner).not.toContain(TOKEN);

    const second = await bootstrapAdmin(db.pool, cipher, config(TOKEN));
    expect(second.firstStart).toBeNull();
    expect(await organizationNames()).toEqual(['Default']);
  });

  it('an installation whose organisations were all deleted does not get Default back', async () => {
    await bootstrapAdmin(db.pool, cipher, config(TOKEN));
    await db.pool.query('DELETE FROM organizations');
    expect((await bootstrapAdmin(db.pool, cipher, config(TOKEN))).firstStart).toBeNull();
    expect(await organizationNames()).toEqual([]);
  });

  it('an installation that already has organisations (an upgrade) gets no Default', async () => {
    await createOrganization(db.pool, cipher, 'Acme');
    expect((await bootstrapAdmin(db.pool, cipher, config(TOKEN))).firstStart).toBeNull();
    expect(await organizationNames()).toEqual(['Acme']);
  });
});

describe('first start without ADMIN_TOKEN', () => {
  it('generates the admin token, stores it hashed, and writes it with the Default credentials once', async () => {
    const first = await bootstrapAdmin(db.pool, cipher, config());
    const token = first.firstStart?.adminToken;
    expect(token).toMatch(/^lpadm_/);
    expect(first.adminTokenSha256).toEqual(sha256(token ?? ''));
    expect((await credentialsFile()).admin_token).toBe(token);
    expect(await organizationNames()).toEqual(['Default']);
    const second = await bootstrapAdmin(db.pool, cipher, config());
    expect(second.firstStart).toBeNull();
    expect(second.adminTokenSha256).toEqual(first.adminTokenSha256);
  });

  it('after a first start with ADMIN_TOKEN, a start without it generates a token and keeps the Default credentials in the file', async () => {
    await bootstrapAdmin(db.pool, cipher, config(TOKEN));
    const later = await bootstrapAdmin(db.pool, cipher, config());
    expect(later.firstStart?.adminToken).toMatch(/^lpadm_/);
    expect(later.firstStart?.created).toBeNull();
    const saved = await credentialsFile();
    expect(saved.admin_token).toBe(later.firstStart?.adminToken);
    expect(saved.organization).toMatchObject({ name: 'Default' });
    expect(await organizationNames()).toEqual(['Default']);
  });
});
