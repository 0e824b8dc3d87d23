/**
 * The operator CLI, over the same code as the admin API:
 *   ledgerport org create --name Acme
 *   ledgerport org list
 *   ledgerport org rotate --id <org id> --environment sandbox|production [--grace-period-seconds 86400]
 *   ledgerport org products --id <org id> --set accounting,commerce,payments,bank_feeds
 *   ledgerport org endpoints --id <org id> --disable "POST /accounting/bills" --disable "…"   (none: --disable '')
 *   ledgerport webhook set --id <org id> --environment sandbox|production --url https://example.com/hooks
 *   ledgerport webhook get --id <org id>
 *   ledgerport webhook delete --id <org id> --environment sandbox|production
 *   ledgerport webhook deliveries --id <org id> [--environment …] [--status failed] [--code BILL_CREATED]
 *                                 [--connection-id <id>] [--limit 50] [--cursor <next_cursor>]
 *   ledgerport webhook retry --id <org id> --delivery <delivery id>
 *   ledgerport webhook replay --id <org id> --from 2026-01-01T00:00:00Z --to 2026-01-02T00:00:00Z [--environment …]
 *   ledgerport oauth-app set --id <org id> --platform XERO --environment sandbox|production
 *                            --client-id <id> --client-secret <secret> --redirect-uri https://api.example.com/link/oauth/callback
 *   ledgerport oauth-app list --id <org id>
 *   ledgerport oauth-app delete --id <org id> --platform XERO --environment sandbox|production
 *   ledgerport redirect-url set --id <org id> --environment sandbox|production --url https://app.example.com/connected [--url …] | --none
 *   ledgerport redirect-url get --id <org id>
 *   ledgerport redirect-url delete --id <org id> --environment sandbox|production
 *   ledgerport migrate
 *   ledgerport rotate-encryption-key [--batch-size 500]
 *   ledgerport mcp [--http --port N]   (dispatched by bin/ledgerport.js to packages/mcp before this file loads)
 * Configuration comes from the same environment variables as the server.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { getOAuthApps, removeOAuthApp, setOAuthApp } from '../connections/oauth-apps.ts';
import { createOrganization, getOrganization, listOrganizations, organizationNotFound, rotateSecret } from '../tenants/organizations.ts';
import { setProducts } from '../tenants/products.ts';
import { setDisabledEndpoints } from '../tenants/endpoints.ts';
import { versionedEndpoints } from '../api/routes.ts';
import { decodeCursor, encodeCursor } from '../http/keyset-cursor.ts';
import { ENVIRONMENTS, type Environment } from '../tenants/types.ts';
import { getRedirectUrls, removeRedirectUrls, setRedirectUrls } from '../connections/redirect-urls.ts';
import { startRuntime } from '../runtime.ts';
import type { Services } from '../services.ts';
import { DELIVERY_STATUSES } from '../sql/webhook-admin.ts';
import { DASHBOARD_ROLES } from '../sql/dashboard-users.ts';
import { inviteUser, signInUrl } from '../users/users.ts';
import { DEFAULT_ROTATION_BATCH, rotateEncryptionKey } from '../tenants/rotate-encryption-key.ts';
import {
  DEFAULT_DELIVERY_LIMIT,
  getWebhookUrls,
  listDeliveries,
  MAX_DELIVERY_LIMIT,
  removeWebhookUrl,
  replayFailedDeliveries,
  retryDelivery,
  setWebhookUrl,
  webhookWindowSeconds,
} from '../webhooks/admin.ts';

const USAGE = `usage:
  ledgerport org create --name <name>
  ledgerport org list
  ledgerport org rotate --id <organization id> --environment sandbox|production [--grace-period-seconds N]
  ledgerport org products --id <organization id> --set <product>[,<product>…]   (accounting, commerce, payments, bank_feeds; '' for none)
  ledgerport org endpoints --id <organization id> --disable "POST /accounting/bills" [--disable …]   (--disable '' turns all back on)
  ledgerport webhook set --id <organization id> --environment sandbox|production --url <url>
  ledgerport webhook get --id <organization id>
  ledgerport webhook delete --id <organization id> --environment sandbox|production
  ledgerport webhook deliveries --id <organization id> [--environment sandbox|production]
      [--status pending|delivering|delivered|failed] [--code <event code>] [--connection-id <id>] [--limit N] [--cursor <next_cursor>]
  ledgerport webhook retry --id <organization id> --delivery <delivery id>
  ledgerport webhook replay --id <organization id> --from <ISO date-time> --to <ISO date-time> [--environment sandbox|production]
  ledgerport oauth-app set --id <organization id> --platform <platform> --environment sandbox|production
      --client-id <client id> --client-secret <client secret> --redirect-uri <url> [--scope "<scope> …"] [--webhook-key <key>]
  ledgerport oauth-app list --id <organization id>
  ledgerport oauth-app delete --id <organization id> --platform <platform> --environment sandbox|production
  ledgerport redirect-url set --id <organization id> --environment sandbox|production (--url <url> [--url <url> …] | --none)
  ledgerport redirect-url get --id <organization id>
  ledgerport redirect-url delete --id <organization id> --environment sandbox|production
  ledgerport user invite --id <organization id> --email <email> [--role admin|developer|viewer]   (prints a one-time dashboard sign-in link)
  ledgerport migrate
  ledgerport rotate-encryption-key [--batch-size N]   (re-seals every stored secret with ENCRYPTION_KEY: docs/operations.md, "Rotating the key")
  ledgerport mcp [--http [--port N] [--host H]]   (MCP server over a running API: packages/mcp/README.md)`;

class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireUuid(value: string | undefined, option: string, command: string): string {
  if (value === undefined || !UUID.test(value))
    throw new UsageError(`${command} needs ${option} <uuid>${value === undefined ? '' : ` (got "${value}")`}`);
  return value;
}

function environmentOption(value: string | undefined, command: string, required: true): Environment;
function environmentOption(value: string | undefined, command: string, required: false): Environment | null;
function environmentOption(value: string | undefined, command: string, required: boolean): Environment | null {
  if (value === undefined && !required) return null;
  const environment = ENVIRONMENTS.find((e) => e === value);
  if (environment === undefined)
    throw new UsageError(`${command} needs --environment sandbox|production${value === undefined ? '' : ` (got "${value}")`}`);
  return environment;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      id: { type: 'string' },
      environment: { type: 'string' },
      'grace-period-seconds': { type: 'string', default: '0' },
      // Several for redirect-url set (the whole list); exactly one for webhook set.
      url: { type: 'string', multiple: true },
      disable: { type: 'string', multiple: true },
      none: { type: 'boolean', default: false },
      status: { type: 'string' },
      code: { type: 'string' },
      'connection-id': { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      delivery: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      platform: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'redirect-uri': { type: 'string' },
      scope: { type: 'string' },
      'webhook-key': { type: 'string' },
      set: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'admin' },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

/** Node's parseArgs, its complaints (an unknown option, a value missing) turned into usage errors. */
function parseCliArgs(argv: string[]): ReturnType<typeof parseCommandLine> {
  try {
    return parseCommandLine(argv);
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(`${error.message.split('. ')[0] ?? error.message}\n${USAGE}`);
    throw error;
  }
}

export async function runCli(argv: string[]): Promise<void> {
  const { values, positionals } = parseCliArgs(argv);
  if (values.help || positionals[0] === 'help') {
    process.stdout.write(`${USAGE}\nConfiguration comes from the same environment variables as the server (README.md, "Configuration").\n`);
    return;
  }
  const [area, action] = positionals;
  const command = `${area ?? ''} ${action ?? ''}`.trim();
  const known = [
    'org create',
    'org list',
    'org rotate',
    'org products',
    'org endpoints',
    'migrate',
    'rotate-encryption-key',
    'webhook set',
    'webhook get',
    'webhook delete',
    'webhook deliveries',
    'webhook retry',
    'webhook replay',
    'oauth-app set',
    'oauth-app list',
    'oauth-app delete',
    'redirect-url set',
    'redirect-url get',
    'redirect-url delete',
    'user invite',
  ];
  if (!known.includes(command)) throw new UsageError(USAGE);

  // Arguments are checked before the database is opened: a usage error costs nothing.
  const { url: urls, none, disable, help: _help, ...single } = values;
  const serviceCommand =
    area === 'webhook'
      ? parseWebhookCommand(command, { ...single, url: onlyUrl(urls, command) })
      : area === 'oauth-app'
        ? parseOAuthAppCommand(command, single)
        : area === 'redirect-url'
          ? parseRedirectUrlCommand(command, single, urls ?? [], none)
          : command === 'org products'
            ? parseProductsCommand(single)
            : command === 'org endpoints'
              ? parseEndpointsCommand(single.id, disable)
              : command === 'user invite'
                ? parseInviteCommand(single)
                : command === 'rotate-encryption-key'
                  ? parseRotateKeyCommand(single)
                  : null;

  // One command at a time: a couple of connections is plenty.
  const config = loadConfig();
  const runtime = await startRuntime({ log, config: { ...config, databasePools: { api: 2, worker: 2, webhooks: 1 } } });
  try {
    const { pool, cipher } = runtime.services;
    if (serviceCommand !== null) {
      print(await serviceCommand(runtime.services));
    } else if (command === 'migrate') {
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

/**
 * rotate-encryption-key: every sealed value re-sealed with ENCRYPTION_KEY (src/tenants/rotate-encryption-key.ts). The
 * report is printed; the exit code is 1 while a value still needs a previous key or opens with none.
 */
function parseRotateKeyCommand(values: Record<string, string | undefined>): ServiceCommand {
  const raw = values['batch-size'];
  const batchSize = raw === undefined ? DEFAULT_ROTATION_BATCH : Number(raw);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new UsageError('--batch-size must be a whole number from 1 to 10000');
  return async ({ pool, cipher }) => {
    log(`re-sealing every stored secret with key ${cipher.currentKeyId} (previous keys: ${cipher.previousKeyIds.join(', ') || 'none'})`);
    const report = await rotateEncryptionKey(pool, cipher, { batchSize, log });
    log(report.summary);
    if (!report.previous_keys_unused || report.unreadable_count > 0) process.exitCode = 1;
    return report;
  };
}

/** user invite: a dashboard user and their one-time sign-in link, as POST /admin/organizations/:id/dashboard_users. */
function parseInviteCommand(values: Record<string, string | undefined>): ServiceCommand {
  const id = requireUuid(values.id, '--id', 'user invite');
  const email = values.email?.trim() ?? '';
  if (email === '') throw new UsageError('user invite needs --email <email>');
  const role = DASHBOARD_ROLES.find((r) => r === values.role);
  if (role === undefined) throw new UsageError(`user invite: --role must be admin, developer or viewer (got "${values.role ?? ''}")`);
  return async ({ pool, config }) => {
    if ((await getOrganization(pool, id)) === null) throw organizationNotFound(id);
    const invited = await inviteUser(pool, id, { email, role });
    return { user: invited.user, sign_in_url: signInUrl(config.publicUrl, invited.signInToken) };
  };
}

/** org products: the organisation's products, over the admin API's function (src/tenants/products.ts). */
function parseProductsCommand(values: Record<string, string | undefined>): ServiceCommand {
  const id = requireUuid(values.id, '--id', 'org products');
  if (values.set === undefined) throw new UsageError('org products needs --set <product>[,<product>…] (accounting, commerce, payments, bank_feeds)');
  const products = values.set
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return async ({ pool }) => ({ products: await setProducts(pool, id, products, '--set') });
}

/** org endpoints: the endpoints turned off for the organisation, over the admin API's function (src/tenants/endpoints.ts). */
function parseEndpointsCommand(idValue: string | undefined, disable: string[] | undefined): ServiceCommand {
  const id = requireUuid(idValue, '--id', 'org endpoints');
  if (disable === undefined)
    throw new UsageError('org endpoints needs --disable "METHOD /route" (repeat it; --disable \'\' turns everything back on)');
  const entries = disable.filter((entry) => entry.trim() !== '');
  const served = new Set(versionedEndpoints.map((e) => `${e.contract.method} ${e.contract.url}`));
  return async ({ pool }) => ({
    disabled_endpoints: await setDisabledEndpoints(pool, id, entries, '--disable', (method, route) => served.has(`${method} ${route}`)),
  });
}

/** The one --url of a command that takes one (webhook set). */
function onlyUrl(urls: string[] | undefined, command: string): string | undefined {
  if (urls !== undefined && urls.length > 1) throw new UsageError(`${command} takes one --url`);
  return urls?.[0];
}

/** A command that runs against the services (webhook and oauth-app commands), parsed before the database is opened. */
type ServiceCommand = (services: Services) => Promise<unknown>;

/** The webhook commands, over the same functions as the admin API (src/webhooks/admin.ts). */
function parseWebhookCommand(command: string, values: Record<string, string | undefined>): ServiceCommand {
  const id = requireUuid(values.id, '--id', command);
  switch (command) {
    case 'webhook set': {
      const environment = environmentOption(values.environment, command, true);
      const url = values.url;
      if (url === undefined || url === '') throw new UsageError('webhook set needs --url <url>');
      return async ({ pool, config }) => ({
        webhook: await setWebhookUrl(pool, { organizationId: id, environment, url, allowPrivate: config.webhookAllowPrivate }),
      });
    }
    case 'webhook get':
      return async ({ pool }) => ({ webhooks: await getWebhookUrls(pool, id) });
    case 'webhook delete': {
      const environment = environmentOption(values.environment, command, true);
      return async ({ pool }) => {
        await removeWebhookUrl(pool, id, environment);
        return { deleted: true };
      };
    }
    case 'webhook deliveries': {
      const environment = environmentOption(values.environment, command, false);
      const status = values.status === undefined ? null : DELIVERY_STATUSES.find((s) => s === values.status);
      if (status === undefined) throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
      const limit = values.limit === undefined ? DEFAULT_DELIVERY_LIMIT : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIMIT)
        throw new UsageError(`--limit must be a whole number from 1 to ${MAX_DELIVERY_LIMIT}`);
      const connectionId = values['connection-id'] === undefined ? null : requireUuid(values['connection-id'], '--connection-id', command);
      const { cursor } = values;
      return async ({ pool, config }) => {
        const page = await listDeliveries(
          pool,
          id,
          {
            environment,
            status,
            code: values.code ?? null,
            connectionId,
            from: cursor === undefined || cursor === '' ? null : decodeCursor(cursor),
            limit,
          },
          webhookWindowSeconds(config),
        );
        return { deliveries: page.deliveries, next_cursor: page.next === null ? null : encodeCursor(page.next) };
      };
    }
    case 'webhook retry': {
      const delivery = requireUuid(values.delivery, '--delivery', command);
      return async ({ pool, config }) => ({ delivery: await retryDelivery(pool, id, delivery, webhookWindowSeconds(config)) });
    }
    case 'webhook replay': {
      const environment = environmentOption(values.environment, command, false);
      const { from, to } = values;
      if (from === undefined || to === undefined)
        throw new UsageError('webhook replay needs --from and --to (ISO 8601 date-times, e.g. 2026-01-31T00:00:00Z)');
      return ({ pool, config }) =>
        replayFailedDeliveries(pool, { organizationId: id, from, to, environment, windowSeconds: webhookWindowSeconds(config) });
    }
    default:
      throw new UsageError(USAGE);
  }
}

function requireOption(value: string | undefined, option: string, command: string): string {
  if (value === undefined || value === '') throw new UsageError(`${command} needs ${option} <value>`);
  return value;
}

/** The OAuth app commands, over the same functions as the admin API (src/connections/oauth-apps.ts). */
function parseOAuthAppCommand(command: string, values: Record<string, string | undefined>): ServiceCommand {
  const id = requireUuid(values.id, '--id', command);
  switch (command) {
    case 'oauth-app set': {
      const platform = requireOption(values.platform, '--platform', command);
      const environment = environmentOption(values.environment, command, true);
      const clientId = requireOption(values['client-id'], '--client-id', command);
      const clientSecret = requireOption(values['client-secret'], '--client-secret', command);
      const redirectUri = requireOption(values['redirect-uri'], '--redirect-uri', command);
      const scope = values.scope;
      const webhookKey = values['webhook-key'];
      return async ({ pool, cipher }) => ({
        oauth_app: await setOAuthApp(pool, cipher, {
          organizationId: id,
          platform,
          environment,
          clientId,
          clientSecret,
          redirectUri,
          ...(scope === undefined ? {} : { scope }),
          ...(webhookKey === undefined ? {} : { webhookKey }),
        }),
      });
    }
    case 'oauth-app list':
      return async ({ pool }) => ({ oauth_apps: await getOAuthApps(pool, id) });
    case 'oauth-app delete': {
      const platform = requireOption(values.platform, '--platform', command);
      const environment = environmentOption(values.environment, command, true);
      return async ({ pool }) => {
        await removeOAuthApp(pool, id, platform, environment);
        return { deleted: true };
      };
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** The redirect URL commands, over the same functions as the admin API (src/connections/redirect-urls.ts). */
function parseRedirectUrlCommand(command: string, values: Record<string, string | undefined>, urls: string[], none: boolean): ServiceCommand {
  const id = requireUuid(values.id, '--id', command);
  switch (command) {
    case 'redirect-url set': {
      const environment = environmentOption(values.environment, command, true);
      // An empty list allows no redirect at all: asked for explicitly, never by forgetting --url.
      if (urls.length === 0 && !none) throw new UsageError('redirect-url set needs --url <url> (repeat it for several) or --none');
      if (urls.length > 0 && none) throw new UsageError('redirect-url set takes --url or --none, not both');
      return async ({ pool }) => ({ redirect_urls: await setRedirectUrls(pool, { organizationId: id, environment, urls }) });
    }
    case 'redirect-url get':
      return async ({ pool }) => ({ redirect_urls: await getRedirectUrls(pool, id) });
    case 'redirect-url delete': {
      const environment = environmentOption(values.environment, command, true);
      return async ({ pool }) => {
        await removeRedirectUrls(pool, id, environment);
        return { deleted: true };
      };
    }
    default:
      throw new UsageError(USAGE);
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
