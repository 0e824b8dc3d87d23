/**
 * Configuration comes only from environment variables, validated at start:
 * every bad value is reported at once with what to fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  /** Where a worker-only process (--role=worker) answers GET /metrics; null: it does not (API processes answer on `port`). */
  metricsPort: number | null;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  adminToken: string | null;
  encryptionKey: Buffer | null;
  /**
   * ENCRYPTION_KEY_PREVIOUS (comma-separated): keys still accepted for reading sealed values, never for sealing, while
   * a rotation is under way (docs/operations.md, "Rotating the key"). Empty when unset.
   */
  encryptionKeysPrevious: Buffer[];
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  /**
   * A mapped object that does not fit its unified schema fails the sync or write (true: tests, STRICT_MAPPING=true), or
   * is logged, counted and stored with what is valid (false, the default): src/sync/mapped-check.ts.
   */
  strictMapping: boolean;
  /** Requests per window per organisation. */
  rateLimit: { limit: number; windowSeconds: number };
  /**
   * Port of the embedded PostgreSQL when DATABASE_URL is not set (EMBEDDED_POSTGRES_PORT); null when not set: the
   * port stored in DATA_DIR at the first start, else 54329 (src/db/embedded.ts).
   */
  embeddedPostgresPort: number | null;
  /** Public address of this service, for link_url and file_url. */
  publicUrl: string;
  /** The dashboard: the email of the Default organisation's first admin (DASHBOARD_ADMIN_EMAIL). */
  dashboard: { firstAdminEmail: string };
  /** How long a prefer_sync write waits for the platform before answering 202 with async_response. */
  writeSyncWaitSeconds: number;
  /**
   * How long a write job may spend rate-limited by its platform, from its first 429 (or pause) on: while the wait the
   * platform asks for ends within it the job retries, otherwise it ends at once with 452 (src/writes/rate-limit-budget.ts).
   */
  writeRateLimitBudgetSeconds: number;
  /** Whether webhooks may go to loopback, private and link-local addresses (refused in production). */
  webhookAllowPrivate: boolean;
  /** A receiver must answer 2xx within this many milliseconds (the spec's 5 s). */
  webhookTimeoutMs: number;
  /** Multiplies the retry schedule and window (1 = the spec's 15 minutes); below 1 only for tests and demos. */
  webhookScheduleScale: number;
  /** Webhook deliveries in flight at once per worker process. */
  webhookConcurrency: number;
  /** Attempts one organisation (both environments together) may have in flight at once in one worker process: its share of WEBHOOK_CONCURRENCY. */
  webhookEndpointConcurrency: number;
  /** How long a process remembers verified client credentials (0 = check every request). */
  authCacheSeconds: number;
  /** How long a process may remember a connection looked up by access token, between change notifications (0 = off). */
  connectionCacheSeconds: number;
  /** Connections per process: API requests, workers (syncs, writes, schedules), the webhook dispatcher (docs/architecture.md). */
  databasePools: { api: number; worker: number; webhooks: number };
  /** How long an API request waits for a free connection of the API pool before 503 SERVICE_UNAVAILABLE. */
  databaseAcquireTimeoutMs: number;
  /** Requests of one organisation that may hold API connections at once per process, and how long the rest wait before 429. */
  organizationDatabase: { concurrency: number; waitMs: number; costlyConcurrency: number; largeAnswerBytesPerSecond: number };
  /** What one data read may cost: statement time, and the bytes of platform_data one list page may carry. */
  readLimits: { statementTimeoutMs: number; pagePlatformDataBytes: number };
  /**
   * Each organisation's API request log (src/http/request-log.ts): on or off, kept for `retentionHours` and to the
   * newest `maxRowsPerOrganization` rows, written every `flushIntervalMs` or `flushRows` rows, whichever comes first.
   */
  requestLog: RequestLogSettings;
  /**
   * Failed authentications (admin token, client credentials, link pages) allowed per window from one source
   * address and against one target, before answers are 429 without checking (src/ratelimit/auth-failures.ts).
   */
  authFailures: AuthFailureLimits;
  /** What one client connection may hold (src/http/connection-limits.ts). */
  http: HttpLimits;
  /**
   * Which peers' X-Forwarded-For to believe for the client address (request.ip), which the failed-authentication
   * throttle counts by: false (none, the default), true (any), a number of proxy hops, or addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /**
   * Whether this process hosts the SANDBOX platform (SANDBOX_ENABLED, default true): its connector, its pages and its
   * own migrations (schema sandbox_platform). Off, SANDBOX is an unknown platform and the database has no sandbox schema.
   */
  sandboxEnabled: boolean;
  /** Sign-in to the dashboard through an OpenID Connect provider (OIDC_*); null: off (docs/dashboard-oidc.md). */
  oidc: OidcConfig | null;
}

export interface OidcConfig {
  /** The provider's issuer identifier, as its discovery document and ID tokens say it (OIDC_ISSUER). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated; always includes openid (OIDC_SCOPES, default "openid email profile"). */
  scopes: string;
  /** The sign-in page's button says "Sign in with <buttonLabel>" (OIDC_BUTTON_LABEL, default "single sign-on"). */
  buttonLabel: string;
}

export interface RequestLogSettings {
  enabled: boolean;
  retentionHours: number;
  maxRowsPerOrganization: number;
  flushIntervalMs: number;
  flushRows: number;
}

export interface AuthFailureLimits {
  perAddress: number;
  perTarget: number;
  windowSeconds: number;
  /** How long a post from an address blocked for forged webhook signatures waits, unread, before its 429. */
  webhookRefusalDelayMs: number;
}

export interface HttpLimits {
  /** Time to receive a whole request, headers and body (Node's server.requestTimeout): a trickled body is cut. */
  requestTimeoutMs: number;
  /** Time to receive a request's headers, counted from the connection or the previous response. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Sockets open at once in all; below the open-file limit so the database pool and workers never meet EMFILE. */
  maxConnections: number;
  /** Sockets one client address (an IPv6 /64) may have sending or awaiting a request at once; 0 = no per-client cap (behind a proxy). */
  maxConnectionsPerClient: number;
}

/** File descriptors kept free for everything but HTTP clients: pools, pg-boss, listeners, webhook and platform calls. */
export const RESERVED_FILE_DESCRIPTORS = 256;

/** WRITE_RATE_LIMIT_BUDGET_SECONDS's default: two minutes of a platform's 429s before a write answers 452. */
export const DEFAULT_WRITE_RATE_LIMIT_BUDGET_SECONDS = 120;

/**
 * The process's open-file limit (Node raises the soft limit to the hard one at start). Linux says it in
 * /proc/self/limits; elsewhere 1024 is assumed, a cautious guess that only lowers the default cap.
 */
export function readOpenFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isInteger(soft) && soft > 0) return soft;
  } catch {
    // no /proc
  }
  return 1024;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function parseKey(raw: string): Buffer | null {
  const trimmed = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const b64 = Buffer.from(trimmed, 'base64');
  return b64.length === 32 ? b64 : null;
}

function parsePort(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    problems.push(`${name}=${raw} is not a port number (an integer from 0 to 65535)`);
    return fallback;
  }
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  problems.push(`${name}=${raw} must be true or false`);
  return fallback;
}

function parseFraction(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    problems.push(`${name}=${raw} must be a number greater than 0 and at most 1`);
    return fallback;
  }
  return value;
}

function parseNonNegativeInt(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    problems.push(`${name}=${raw} must be 0 or a positive integer`);
    return fallback;
  }
  return value;
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    problems.push(`${name}=${raw} must be a positive integer`);
    return fallback;
  }
  return value;
}

function parseTrustProxy(raw: string | undefined, problems: string[]): boolean | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !(entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry)));
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY has ${bad.map((b) => `"${b}"`).join(', ')}, which is not an IP address or CIDR range; expected true, false, a hop count or e.g. 10.0.0.0/8,127.0.0.1`,
    );
  }
  return entries;
}

function parseHttpLimits(env: NodeJS.ProcessEnv, openFileLimit: number, problems: string[]): HttpLimits {
  const requestSeconds = parsePositiveInt('HTTP_REQUEST_TIMEOUT_SECONDS', env.HTTP_REQUEST_TIMEOUT_SECONDS, 30, problems);
  const headersSeconds = parsePositiveInt('HTTP_HEADERS_TIMEOUT_SECONDS', env.HTTP_HEADERS_TIMEOUT_SECONDS, Math.min(10, requestSeconds), problems);
  if (headersSeconds > requestSeconds) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_SECONDS=${headersSeconds} must not exceed HTTP_REQUEST_TIMEOUT_SECONDS=${requestSeconds} (the headers are part of the request)`,
    );
  }
  // What load balancers' backends and Node itself use (5 s): a client that opens a connection per request leaves idle
  // sockets behind for no longer than that. Behind a load balancer keep its idle timeout below this one (docs/operations.md).
  const keepAliveSeconds = parsePositiveInt('HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, 5, problems);
  const ceiling = openFileLimit - RESERVED_FILE_DESCRIPTORS;
  const maxConnections = parsePositiveInt(
    'HTTP_MAX_CONNECTIONS',
    env.HTTP_MAX_CONNECTIONS,
    Math.max(1, Math.min(10_000, Math.floor(openFileLimit / 2))),
    problems,
  );
  if (maxConnections > ceiling) {
    problems.push(
      `HTTP_MAX_CONNECTIONS=${maxConnections} leaves too few file descriptors: the open-file limit (ulimit -n) is ${openFileLimit} and ${RESERVED_FILE_DESCRIPTORS} stay for the database and workers; use at most ${Math.max(ceiling, 0)} or raise the limit`,
    );
  }
  // Sockets sending or awaiting a request (idle keep-alive ones are not counted): 200 parallel workers behind one NAT
  // address, with room to spare, are never refused.
  const maxConnectionsPerClient = parseNonNegativeInt('HTTP_MAX_CONNECTIONS_PER_CLIENT', env.HTTP_MAX_CONNECTIONS_PER_CLIENT, 256, problems);
  return {
    requestTimeoutMs: requestSeconds * 1000,
    headersTimeoutMs: headersSeconds * 1000,
    keepAliveTimeoutMs: keepAliveSeconds * 1000,
    maxConnections,
    maxConnectionsPerClient,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a provider URL may be used: https, or plain http to this machine only (a test's stand-in provider). */
export function acceptableProviderUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

function setting(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? null : value;
}

/** Off unless issuer, client id and secret are all set; a partial setting names what is missing. */
function parseOidc(env: NodeJS.ProcessEnv, problems: string[]): OidcConfig | null {
  const issuer = setting(env, 'OIDC_ISSUER');
  const clientId = setting(env, 'OIDC_CLIENT_ID');
  const clientSecret = setting(env, 'OIDC_CLIENT_SECRET');
  const scopesRaw = setting(env, 'OIDC_SCOPES');
  const buttonLabel = setting(env, 'OIDC_BUTTON_LABEL');
  const required = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
  const given = Object.entries({ ...required, OIDC_SCOPES: scopesRaw, OIDC_BUTTON_LABEL: buttonLabel }).filter(([, v]) => v !== null);
  if (given.length === 0) return null;
  const missing = Object.entries(required)
    .filter(([, v]) => v === null)
    .map(([name]) => name);
  if (missing.length > 0) {
    problems.push(
      `OpenID Connect sign-in is partly configured (${given.map(([name]) => name).join(', ')} set): set ${missing.join(' and ')} too, or unset the OIDC_ settings to turn it off`,
    );
  }
  if (issuer !== null) {
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch {
      problems.push(`OIDC_ISSUER=${issuer} is not a URL; expected the provider's issuer, e.g. https://accounts.google.com`);
    }
    if (url !== null && !acceptableProviderUrl(url)) {
      problems.push(`OIDC_ISSUER=${issuer} must be an https:// URL (plain http only for localhost, for tests)`);
    }
    if (url !== null && (url.search !== '' || url.hash !== '')) problems.push(`OIDC_ISSUER=${issuer} must not have a query or fragment`);
  }
  const scopes = (scopesRaw ?? 'openid email profile').split(/\s+/).filter((scope) => scope !== '');
  if (!scopes.includes('openid')) problems.push(`OIDC_SCOPES=${scopesRaw ?? ''} must include openid (e.g. "openid email profile")`);
  if (buttonLabel !== null && buttonLabel.length > 60) problems.push('OIDC_BUTTON_LABEL must be at most 60 characters (e.g. Okta)');
  if (issuer === null || clientId === null || clientSecret === null) return null;
  return { issuer, clientId, clientSecret, scopes: scopes.join(' '), buttonLabel: buttonLabel ?? 'single sign-on' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, openFileLimit: number = readOpenFileLimit()): Config {
  const problems: string[] = [];
  const port = parsePort('PORT', env.PORT, 8080, problems);
  const production = env.NODE_ENV === 'production';

  let databaseUrl: string | null = null;
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    try {
      const url = new URL(env.DATABASE_URL);
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
        problems.push(`DATABASE_URL must start with postgres:// or postgresql:// (got ${url.protocol}//)`);
      }
      databaseUrl = env.DATABASE_URL;
    } catch {
      problems.push('DATABASE_URL is not a valid URL; expected postgres://user:password@host:5432/database');
    }
  }

  let encryptionKey: Buffer | null = null;
  if (env.ENCRYPTION_KEY !== undefined && env.ENCRYPTION_KEY !== '') {
    encryptionKey = parseKey(env.ENCRYPTION_KEY);
    if (encryptionKey === null) {
      problems.push('ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64 (generate one with: openssl rand -hex 32)');
    }
  } else if (production) {
    problems.push('ENCRYPTION_KEY is required when NODE_ENV=production (generate one with: openssl rand -hex 32)');
  }

  const encryptionKeysPrevious: Buffer[] = [];
  const previous = (env.ENCRYPTION_KEY_PREVIOUS ?? '').split(',').map((k) => k.trim());
  previous.forEach((raw, i) => {
    if (raw === '') return;
    const key = parseKey(raw);
    if (key === null)
      problems.push(
        `ENCRYPTION_KEY_PREVIOUS: key ${i + 1} of ${previous.length} must be 32 bytes as 64 hex characters or base64 (keys are separated by commas)`,
      );
    else encryptionKeysPrevious.push(key);
  });

  const adminToken = env.ADMIN_TOKEN !== undefined && env.ADMIN_TOKEN !== '' ? env.ADMIN_TOKEN : null;
  if (adminToken !== null && adminToken.length < 16) {
    problems.push('ADMIN_TOKEN must be at least 16 characters long');
  }

  let redisUrl: string | null = null;
  if (env.REDIS_URL !== undefined && env.REDIS_URL !== '') {
    try {
      const url = new URL(env.REDIS_URL);
      if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') problems.push('REDIS_URL must start with redis:// or rediss://');
      redisUrl = env.REDIS_URL;
    } catch {
      problems.push('REDIS_URL is not a valid URL; expected redis://host:6379');
    }
  }

  const logLevelRaw = env.LOG_LEVEL ?? 'info';
  const logLevel = LOG_LEVELS.find((l) => l === logLevelRaw);
  if (logLevel === undefined) problems.push(`LOG_LEVEL=${logLevelRaw} is not one of ${LOG_LEVELS.join(', ')}`);

  const rateLimit = {
    limit: parsePositiveInt('RATE_LIMIT_PER_WINDOW', env.RATE_LIMIT_PER_WINDOW, 500, problems),
    windowSeconds: parsePositiveInt('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 10, problems),
  };
  const strictMapping = parseBoolean('STRICT_MAPPING', env.STRICT_MAPPING, false, problems);
  const webhookAllowPrivate = parseBoolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, !production, problems);
  const webhookTimeoutMs = parsePositiveInt('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 5000, problems);
  const webhookConcurrency = parsePositiveInt('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 16, problems);
  const webhookEndpointConcurrency = parsePositiveInt('WEBHOOK_ENDPOINT_CONCURRENCY', env.WEBHOOK_ENDPOINT_CONCURRENCY, 8, problems);
  const webhookScheduleScale = parseFraction('WEBHOOK_SCHEDULE_SCALE', env.WEBHOOK_SCHEDULE_SCALE, 1, problems);
  const authCacheSeconds = parseNonNegativeInt('AUTH_CACHE_SECONDS', env.AUTH_CACHE_SECONDS, 5, problems);
  const connectionCacheSeconds = parseNonNegativeInt('CONNECTION_CACHE_SECONDS', env.CONNECTION_CACHE_SECONDS, 5, problems);
  const authFailures = {
    perAddress: parsePositiveInt('AUTH_FAILURE_LIMIT_PER_ADDRESS', env.AUTH_FAILURE_LIMIT_PER_ADDRESS, 20, problems),
    perTarget: parsePositiveInt('AUTH_FAILURE_LIMIT_PER_TARGET', env.AUTH_FAILURE_LIMIT_PER_TARGET, 100, problems),
    windowSeconds: parsePositiveInt('AUTH_FAILURE_WINDOW_SECONDS', env.AUTH_FAILURE_WINDOW_SECONDS, 60, problems),
    webhookRefusalDelayMs: parseNonNegativeInt('AUTH_FAILURE_WEBHOOK_DELAY_MS', env.AUTH_FAILURE_WEBHOOK_DELAY_MS, 1000, problems),
  };
  const databasePools = {
    api: parsePositiveInt('DATABASE_POOL_API', env.DATABASE_POOL_API, 20, problems),
    worker: parsePositiveInt('DATABASE_POOL_WORKER', env.DATABASE_POOL_WORKER, 10, problems),
    webhooks: parsePositiveInt('DATABASE_POOL_WEBHOOKS', env.DATABASE_POOL_WEBHOOKS, 5, problems),
  };
  const databaseAcquireTimeoutMs = parsePositiveInt('DATABASE_ACQUIRE_TIMEOUT_MS', env.DATABASE_ACQUIRE_TIMEOUT_MS, 5000, problems);
  // A tenth of the API pool, at least 2: measured (bench/tenant-isolation.ts, 2 cores), a flooder with 5 expensive
  // reads at once still took most of the CPU from the others (their p99 3.5x); with 2, 2.2x. Cheap reads hold a
  // connection for milliseconds, so 2 at a time still serves an organisation's bursts well within the wait.
  const organizationDatabase = {
    concurrency: parsePositiveInt(
      'ORG_DATABASE_CONCURRENCY',
      env.ORG_DATABASE_CONCURRENCY,
      Math.min(databasePools.api, Math.max(2, Math.floor(databasePools.api / 10))),
      problems,
    ),
    waitMs: parseNonNegativeInt('ORG_DATABASE_WAIT_MS', env.ORG_DATABASE_WAIT_MS, 10_000, problems),
    // Lists with a `~` filter, which scan every record: CPU, not connections (src/db/organization-gate.ts).
    costlyConcurrency: parsePositiveInt('ORG_COSTLY_READ_CONCURRENCY', env.ORG_COSTLY_READ_CONCURRENCY, 1, problems),
    // Lists with platform data: the bytes per second one organisation's large answers may take of a process.
    largeAnswerBytesPerSecond: parsePositiveInt('ORG_LARGE_ANSWER_BYTES_PER_SECOND', env.ORG_LARGE_ANSWER_BYTES_PER_SECOND, 8 * 2 ** 20, problems),
  };
  if (organizationDatabase.concurrency > databasePools.api) {
    problems.push(`ORG_DATABASE_CONCURRENCY=${organizationDatabase.concurrency} must not exceed DATABASE_POOL_API=${databasePools.api}`);
  }
  const readLimits = {
    statementTimeoutMs: parsePositiveInt('READ_STATEMENT_TIMEOUT_MS', env.READ_STATEMENT_TIMEOUT_MS, 5000, problems),
    pagePlatformDataBytes: parsePositiveInt('LIST_PLATFORM_DATA_MAX_BYTES', env.LIST_PLATFORM_DATA_MAX_BYTES, 8 * 2 ** 20, problems),
  };
  const requestLog: RequestLogSettings = {
    enabled: parseBoolean('REQUEST_LOG_ENABLED', env.REQUEST_LOG_ENABLED, true, problems),
    retentionHours: parsePositiveInt('REQUEST_LOG_RETENTION_HOURS', env.REQUEST_LOG_RETENTION_HOURS, 72, problems),
    maxRowsPerOrganization: parsePositiveInt('REQUEST_LOG_MAX_ROWS', env.REQUEST_LOG_MAX_ROWS, 100_000, problems),
    flushIntervalMs: parsePositiveInt('REQUEST_LOG_FLUSH_MS', env.REQUEST_LOG_FLUSH_MS, 1000, problems),
    flushRows: parsePositiveInt('REQUEST_LOG_FLUSH_ROWS', env.REQUEST_LOG_FLUSH_ROWS, 500, problems),
  };
  const writeSyncWaitSeconds = parsePositiveInt('WRITE_SYNC_WAIT_SECONDS', env.WRITE_SYNC_WAIT_SECONDS, 10, problems);
  const writeRateLimitBudgetSeconds = parsePositiveInt(
    'WRITE_RATE_LIMIT_BUDGET_SECONDS',
    env.WRITE_RATE_LIMIT_BUDGET_SECONDS,
    DEFAULT_WRITE_RATE_LIMIT_BUDGET_SECONDS,
    problems,
  );
  const metricsPort = env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : parsePort('METRICS_PORT', env.METRICS_PORT, 0, problems);
  const embeddedPostgresPort =
    env.EMBEDDED_POSTGRES_PORT === undefined || env.EMBEDDED_POSTGRES_PORT === ''
      ? null
      : parsePort('EMBEDDED_POSTGRES_PORT', env.EMBEDDED_POSTGRES_PORT, 0, problems);
  const host = env.HOST !== undefined && env.HOST !== '' ? env.HOST : '0.0.0.0';
  const http = parseHttpLimits(env, openFileLimit, problems);

  let publicUrl = `http://localhost:${port}`;
  if (env.PUBLIC_URL !== undefined && env.PUBLIC_URL !== '') {
    try {
      publicUrl = new URL(env.PUBLIC_URL).toString().replace(/\/$/, '');
    } catch {
      problems.push('PUBLIC_URL is not a valid URL; expected e.g. https://ledgerport.example.com');
    }
  }

  const firstAdminEmail =
    env.DASHBOARD_ADMIN_EMAIL !== undefined && env.DASHBOARD_ADMIN_EMAIL !== '' ? env.DASHBOARD_ADMIN_EMAIL.trim() : 'admin@localhost';
  if (!/^[^\s@]{1,64}@[^\s@]{1,190}$/.test(firstAdminEmail))
    problems.push('DASHBOARD_ADMIN_EMAIL is not an email address; expected e.g. ada@example.com');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const sandboxEnabled = parseBoolean('SANDBOX_ENABLED', env.SANDBOX_ENABLED, true, problems);
  const oidc = parseOidc(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    metricsPort,
    host,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR !== undefined && env.DATA_DIR !== '' ? env.DATA_DIR : './data'),
    adminToken,
    encryptionKey,
    encryptionKeysPrevious,
    redisUrl,
    logLevel: logLevel ?? 'info',
    production,
    strictMapping,
    rateLimit,
    embeddedPostgresPort,
    publicUrl,
    dashboard: { firstAdminEmail },
    writeSyncWaitSeconds,
    writeRateLimitBudgetSeconds,
    authCacheSeconds,
    connectionCacheSeconds,
    authFailures,
    webhookAllowPrivate,
    webhookTimeoutMs,
    webhookScheduleScale,
    webhookConcurrency,
    databasePools,
    databaseAcquireTimeoutMs,
    organizationDatabase,
    readLimits,
    requestLog,
    http,
    trustProxy,
    webhookEndpointConcurrency,
    sandboxEnabled,
    oidc,
  };
}
