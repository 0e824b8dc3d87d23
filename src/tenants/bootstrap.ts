/**
 * First-start set-up and the secrets the process needs: the encryption key
 * (ENCRYPTION_KEY, or generated into DATA_DIR for the zero-config default), a
 * check that it is the key the store was written with, and the admin token
 * (ADMIN_TOKEN, or generated once), and on the first start the "Default" organisation, whose credentials are
 * written to DATA_DIR/credentials.json (mode 0600) with the generated admin token if any.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { makeDirectory } from '../files/make-directory.ts';
import path from 'node:path';
import type { Config } from '../config.ts';
import { randomToken, sha256, UnreadableSecretError, type Cipher, type KeyRing } from '../crypto/secrets.ts';
import { FixableError } from '../errors/start-failure.ts';
import { withTransaction, type Pool } from '../db/pool.ts';
import { createOrganization, type CreatedOrganization } from './organizations.ts';
import { countOrganizations } from '../sql/organizations.ts';
import {
  bootstrapSettings,
  encryptionKeyCheck,
  lockBootstrap,
  markFirstStartDone,
  storeAdminTokenDigest,
  storeEncryptionKeyCheck,
} from '../sql/service-settings.ts';

const KEY_CHECK = 'ledgerport-key-check';

/**
 * Where this process's encryption key came from: ENCRYPTION_KEY, or DATA_DIR/encryption.key (`generated` when this
 * start wrote it). A refused key's advice depends on it (issue 33: a second host without ENCRYPTION_KEY generates a
 * key of its own, which the database refuses, and must be told where the first host keeps the right one).
 */
export type EncryptionKeySource = { from: 'environment' } | { from: 'file'; file: string; generated: boolean };

export async function resolveEncryptionKey(config: Config, log: (m: string) => void): Promise<{ key: Buffer; source: EncryptionKeySource }> {
  if (config.encryptionKey !== null) return { key: config.encryptionKey, source: { from: 'environment' } };
  // ENCRYPTION_KEY_PREVIOUS (config.encryptionKeysPrevious) joins whichever key this is in the process's key ring.
  const file = path.join(config.dataDir, 'encryption.key');
  if (existsSync(file)) {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
    if (key.length !== 32)
      throw new FixableError(
        `${file} is damaged: it must hold 64 hex characters`,
        `restore it from the backup of DATA_DIR, or set ENCRYPTION_KEY to the original key.`,
      );
    return { key, source: { from: 'file', file, generated: false } };
  }
  await makeDirectory(config.dataDir);
  const key = randomBytes(32);
  await writeFile(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' }).catch((error: unknown) => {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  log(`generated an encryption key in ${file}; set ENCRYPTION_KEY in production`);
  return { key: Buffer.from((await readFile(file, 'utf8')).trim(), 'hex'), source: { from: 'file', file, generated: true } };
}

/** Where the host that set the database up keeps its key, and how to give this one the same key. */
const WHERE_THE_KEY_IS =
  'The right key is where the host that first started this database keeps it: its ENCRYPTION_KEY (environment, or the Secret it comes from), or, if it has none, the 64 hex characters in its DATA_DIR/encryption.key (DATA_DIR defaults to ./data in the folder it was started from; its first start logged "generated an encryption key in <file>"). Share it: on that host run `cat <its DATA_DIR>/encryption.key`, set ENCRYPTION_KEY to those characters on every host, that one included, and start again (docs/operations.md, "Encryption key"). A new key cannot read what the old one sealed.';

/** What a key rotation left half done looks like from here, and how to finish it (docs/operations.md, "Rotating the key"). */
const WHEN_ROTATING =
  'If this is a key rotation: keep the key the database was using in ENCRYPTION_KEY_PREVIOUS (comma-separated, on every process) until `ledgerport rotate-encryption-key` reports that no value is left under it.';

function wrongKey(source: EncryptionKeySource, detail: string): FixableError {
  if (source.from === 'environment') {
    return new FixableError(
      `ENCRYPTION_KEY is not the key this database was set up with: stored secrets cannot be read (${detail})`,
      `set ENCRYPTION_KEY to the key this database was first started with. ${WHEN_ROTATING} ${WHERE_THE_KEY_IS}`,
    );
  }
  if (source.generated) {
    return new FixableError(
      `ENCRYPTION_KEY is not set, so this start generated a new key in ${source.file}, but this database was set up with another key: stored secrets cannot be read (${detail})`,
      `${WHERE_THE_KEY_IS} (Or copy that file over ${source.file}, mode 0600.)`,
    );
  }
  return new FixableError(
    `the key in ${source.file} (ENCRYPTION_KEY is not set) is not the key this database was set up with: stored secrets cannot be read (${detail})`,
    `restore ${source.file} from the backup of DATA_DIR, or use the key this database was set up with. ${WHEN_ROTATING} ${WHERE_THE_KEY_IS}`,
  );
}

/**
 * Refuses to start when no key of the ring opens the stored key-check value (sealed by the first start, re-sealed
 * with the current key by the last step of `ledgerport rotate-encryption-key`). Says whether the check is sealed with
 * the current key: when it is not, a rotation is under way (values under a previous key remain).
 */
export async function verifyEncryptionKey(
  pool: Pool,
  cipher: KeyRing,
  source: EncryptionKeySource = { from: 'environment' },
): Promise<{ checkSealedWithCurrentKey: boolean }> {
  await storeEncryptionKeyCheck(pool, JSON.stringify(cipher.encrypt(KEY_CHECK).toString('base64')));
  const sealed = Buffer.from((await encryptionKeyCheck(pool)) ?? '', 'base64');
  let opened: string;
  try {
    opened = cipher.decrypt(sealed);
  } catch (error) {
    throw wrongKey(source, error instanceof UnreadableSecretError ? error.message : 'the stored key check does not open');
  }
  if (opened !== KEY_CHECK) throw wrongKey(source, 'the stored key check does not open');
  return { checkSealedWithCurrentKey: cipher.sealedWithCurrentKey(sealed) };
}

export interface FirstStart {
  /** Null when ADMIN_TOKEN is set: the operator has it, so it is neither printed nor stored. */
  adminToken: string | null;
  /** Null when organisations already existed (ADMIN_TOKEN was set before and is not now). */
  created: CreatedOrganization | null;
  /** The Default organisation's first dashboard admin and their one-time sign-in link. */
  dashboardAdmin: FirstDashboardAdmin | null;
  file: string;
}

export interface FirstDashboardAdmin {
  email: string;
  sign_in_url: string;
}

/**
 * Returns the SHA-256 the admin API compares against. On the very first start (no admin token stored, no
 * organisation, not set up before) it also creates the Default organisation and prints and stores its credentials
 * once, with ADMIN_TOKEN set or not; without ADMIN_TOKEN it generates the admin token too. Safe when several
 * processes start together.
 */
export async function bootstrapAdmin(
  pool: Pool,
  cipher: Cipher,
  config: Config,
  /** Makes the new Default organisation's first dashboard admin (src/runtime.ts passes src/users' invitation). */
  firstAdmin: ((organizationId: string) => Promise<FirstDashboardAdmin>) | null = null,
): Promise<{ adminTokenSha256: Buffer; firstStart: FirstStart | null }> {
  const file = path.join(config.dataDir, 'credentials.json');
  const { digest, firstStart } = await withTransaction(pool, async (db): Promise<{ digest: Buffer; firstStart: FirstStart | null }> => {
    await lockBootstrap(db);
    const settings = await bootstrapSettings(db);
    const stored = settings.find((row) => row.key === 'admin_token_sha256');
    const setUpBefore = settings.length > 0;
    if (config.adminToken === null && stored !== undefined) return { digest: Buffer.from(stored.value, 'hex'), firstStart: null };
    const generated = config.adminToken === null ? randomToken('lpadm_') : null;
    const digest = sha256(config.adminToken ?? generated ?? '');
    if (generated !== null) {
      await storeAdminTokenDigest(db, JSON.stringify(digest.toString('hex')));
    }
    if (setUpBefore) return { digest, firstStart: generated === null ? null : { adminToken: generated, created: null, dashboardAdmin: null, file } };
    // Marks the installation as set up, so deleting every organisation later never brings Default back.
    await markFirstStartDone(db);
    const created = (await countOrganizations(db)) === 0 ? await createOrganization(pool, cipher, 'Default') : null;
    if (generated === null && created === null) return { digest, firstStart: null };
    return { digest, firstStart: { adminToken: generated, created, dashboardAdmin: null, file } };
  });
  if (firstStart?.created != null && firstAdmin !== null) firstStart.dashboardAdmin = await firstAdmin(firstStart.created.organization.id);
  if (firstStart !== null) await writeCredentialsFile(firstStart);
  return { adminTokenSha256: digest, firstStart };
}

async function writeCredentialsFile(first: FirstStart): Promise<void> {
  await makeDirectory(path.dirname(first.file));
  // What an earlier start wrote stays (the Default organisation's credentials when only the admin token is new).
  const earlier = existsSync(first.file) ? (JSON.parse(await readFile(first.file, 'utf8')) as Record<string, unknown>) : {};
  const content = {
    ...earlier,
    note: 'Written once on first start. Keep it secret; rotate with POST /admin/organizations/:id/credentials/rotate.',
    ...(first.adminToken !== null ? { admin_token: first.adminToken } : {}),
    ...(first.created !== null ? { organization: first.created.organization, credentials: first.created.credentials } : {}),
    ...(first.dashboardAdmin !== null ? { dashboard_admin: first.dashboardAdmin } : {}),
  };
  await writeFile(first.file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}

export function firstStartBanner(first: FirstStart): string {
  const lines = [
    '',
    '=== Ledgerport first start: these secrets are shown once ===',
    first.adminToken !== null ? `admin token: ${first.adminToken}` : 'admin token: the ADMIN_TOKEN you set',
  ];
  if (first.created !== null) {
    lines.push(`organisation: ${first.created.organization.name} (${first.created.organization.id})`);
    for (const env of ['sandbox', 'production'] as const) {
      lines.push(`${env}: client_id=${first.created.credentials[env].client_id} client_secret=${first.created.credentials[env].client_secret}`);
    }
  }
  if (first.dashboardAdmin !== null) {
    lines.push(`dashboard: sign in as ${first.dashboardAdmin.email} once, through ${first.dashboardAdmin.sign_in_url}`);
  }
  lines.push(`saved to ${first.file} (mode 0600)`, '');
  return lines.join('\n');
}
