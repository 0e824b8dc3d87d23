/**
 * Configuration comes only from environment variables, validated at start:
 * every bad value is reported at once with what to fix.
 */
import path from 'node:path';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  adminToken: string | null;
  encryptionKey: Buffer | null;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  /** Requests per window per organisation. */
  rateLimit: { limit: number; windowSeconds: number };
  /** Port of the embedded PostgreSQL when DATABASE_URL is not set. */
  embeddedPostgresPort: number;
  /** Public address of this service, for link_url and file_url. */
  publicUrl: string;
  /** How long a prefer_sync write waits for the platform before answering 202 with async_response. */
  writeSyncWaitSeconds: number;
  /** Whether webhooks may go to loopback, private and link-local addresses (refused in production). */
  webhookAllowPrivate: boolean;
  /** A receiver must answer 2xx within this many milliseconds (the spec's 5 s). */
  webhookTimeoutMs: number;
  /** Multiplies the retry schedule and window (1 = the spec's 15 minutes); below 1 only for tests and demos. */
  webhookScheduleScale: number;
  /** Webhook deliveries in flight at once per worker process. */
  webhookConcurrency: number;
  /** How long a process remembers verified client credentials (0 = check every request). */
  authCacheSeconds: number;
  /** How long a process may remember a connection looked up by access token, between change notifications (0 = off). */
  connectionCacheSeconds: number;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  const webhookAllowPrivate = parseBoolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, !production, problems);
  const webhookTimeoutMs = parsePositiveInt('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 5000, problems);
  const webhookConcurrency = parsePositiveInt('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 16, problems);
  const webhookScheduleScale = parseFraction('WEBHOOK_SCHEDULE_SCALE', env.WEBHOOK_SCHEDULE_SCALE, 1, problems);
  const authCacheSeconds = parseNonNegativeInt('AUTH_CACHE_SECONDS', env.AUTH_CACHE_SECONDS, 5, problems);
  const connectionCacheSeconds = parseNonNegativeInt('CONNECTION_CACHE_SECONDS', env.CONNECTION_CACHE_SECONDS, 5, problems);
  const writeSyncWaitSeconds = parsePositiveInt('WRITE_SYNC_WAIT_SECONDS', env.WRITE_SYNC_WAIT_SECONDS, 10, problems);
  const embeddedPostgresPort = parsePort('EMBEDDED_POSTGRES_PORT', env.EMBEDDED_POSTGRES_PORT, 54329, problems);
  const host = env.HOST !== undefined && env.HOST !== '' ? env.HOST : '0.0.0.0';

  let publicUrl = `http://localhost:${port}`;
  if (env.PUBLIC_URL !== undefined && env.PUBLIC_URL !== '') {
    try {
      publicUrl = new URL(env.PUBLIC_URL).toString().replace(/\/$/, '');
    } catch {
      problems.push('PUBLIC_URL is not a valid URL; expected e.g. https://ledgerport.example.com');
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR !== undefined && env.DATA_DIR !== '' ? env.DATA_DIR : './data'),
    adminToken,
    encryptionKey,
    redisUrl,
    logLevel: logLevel ?? 'info',
    production,
    rateLimit,
    embeddedPostgresPort,
    publicUrl,
    writeSyncWaitSeconds,
    authCacheSeconds,
    connectionCacheSeconds,
    webhookAllowPrivate,
    webhookTimeoutMs,
    webhookScheduleScale,
    webhookConcurrency,
  };
}
