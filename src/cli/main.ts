/**
 * The operator CLI, over the same code as the admin API:
 *   ledgerport org create --name Acme
 *   ledgerport org list
 *   ledgerport org rotate --id <org id> --environment sandbox|production [--grace-period-seconds 86400]
 *   ledgerport migrate
 * Configuration comes from the same environment variables as the server.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { createOrganization, listOrganizations, rotateSecret } from '../tenants/organizations.ts';
import { ENVIRONMENTS, type Environment } from '../tenants/types.ts';
import { startRuntime } from '../runtime.ts';

const USAGE = `usage:
  ledgerport org create --name <name>
  ledgerport org list
  ledgerport org rotate --id <organization id> --environment sandbox|production [--grace-period-seconds N]
  ledgerport migrate`;

class UsageError extends Error {}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export async function runCli(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      id: { type: 'string' },
      environment: { type: 'string' },
      'grace-period-seconds': { type: 'string', default: '0' },
    },
  });
  const [area, action] = positionals;
  const command = `${area ?? ''} ${action ?? ''}`.trim();
  const known = ['org create', 'org list', 'org rotate', 'migrate'];
  if (!known.includes(command)) throw new UsageError(USAGE);

  const runtime = await startRuntime({ log, poolSize: 2 });
  try {
    const { pool, cipher } = runtime.services;
    if (command === 'migrate') {
      log('migrations are up to date');
    } else if (command === 'org create') {
      if (values.name === undefined || values.name.trim() === '') throw new UsageError('org create needs --name <name>');
      print(await createOrganization(pool, cipher, values.name.trim()));
    } else if (command === 'org list') {
      print({ organizations: await listOrganizations(pool) });
    } else {
      const environment = ENVIRONMENTS.find((e) => e === values.environment);
      if (values.id === undefined || environment === undefined) throw new UsageError('org rotate needs --id and --environment sandbox|production');
      const grace = Number(values['grace-period-seconds']);
      if (!Number.isInteger(grace) || grace < 0) throw new UsageError('--grace-period-seconds must be a whole number >= 0');
      print(await rotateSecret(pool, cipher, values.id, environment satisfies Environment, grace));
    }
  } finally {
    await runtime.close();
  }
}

/** Runs the CLI and exits with 0, 1 (failure) or 2 (usage or configuration). */
export function cliEntry(argv: string[]): void {
  runCli(argv).catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
