/**
 * Why a process could not start, and what the operator does about it (issue 32, item 6): every start failure is
 * printed as `ledgerport failed to start: <what>` and `What to do: <sentence>`. Code that knows the cause throws a
 * FixableError; errors from below (sockets, PostgreSQL, the file system) are recognised here by their codes.
 */
import path from 'node:path';

/** An error whose `fix` tells the operator what to do about it. */
export class FixableError extends Error {
  readonly fix: string;
  constructor(message: string, fix: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FixableError';
    this.fix = fix;
  }
}

/** What the failed start was configured with (null: it failed before its configuration was read). */
export interface StartSettings {
  dataDir: string;
  /** DATABASE_URL, or null for the embedded PostgreSQL. */
  databaseUrl: string | null;
}

export interface StartFailure {
  problem: string;
  fix: string;
  /** For a failure this module does not recognise: the stack, to report. */
  stack?: string;
}

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  path?: unknown;
  message: string;
}

const CANNOT_CONNECT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);
const CANNOT_WRITE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC', 'EEXIST']);

/** The problem and the fix for `error`, thrown while starting with `settings`. */
export function explainStartFailure(error: unknown, settings: StartSettings | null): StartFailure {
  if (error instanceof FixableError) return { problem: error.message, fix: error.fix };
  if (!(error instanceof Error)) return unrecognised(new Error(`something threw ${String(error)} instead of an error`));
  const system: SystemError = error;
  return listenFailure(system) ?? databaseFailure(system, settings) ?? dataDirFailure(system, settings) ?? unrecognised(error);
}

function listenFailure(error: SystemError): StartFailure | null {
  if (error.syscall !== 'listen') return null;
  const where = `${String(error.address)}:${String(error.port)}`;
  if (error.code === 'EADDRINUSE') {
    return {
      problem: `the HTTP port ${where} is already in use`,
      fix: `stop the program that uses port ${String(error.port)}, or set PORT to a free port.`,
    };
  }
  if (error.code === 'EACCES') {
    return {
      problem: `this user may not listen on ${where}`,
      fix: 'set PORT to 1024 or above (ports below 1024 need root or CAP_NET_BIND_SERVICE).',
    };
  }
  if (error.code === 'EADDRNOTAVAIL') {
    return {
      problem: `HOST=${String(error.address)} is not an address of this machine`,
      fix: 'set HOST to one of its addresses, or to 0.0.0.0 for all of them.',
    };
  }
  return null;
}

/** PostgreSQL refused or could not be reached (pg's errors: a socket error code, or PostgreSQL's SQLSTATE). */
function databaseFailure(error: SystemError, settings: StartSettings | null): StartFailure | null {
  const which = settings?.databaseUrl === null ? 'the embedded PostgreSQL' : `PostgreSQL at ${serverOf(settings?.databaseUrl)} (DATABASE_URL)`;
  const fixUrl = 'correct DATABASE_URL (postgres://user:password@host:port/database), or unset it to use the embedded PostgreSQL in DATA_DIR.';
  // pg's own, when the server accepted the connection but never answered as PostgreSQL: another program on that port.
  if (error.message.startsWith('Connection terminated')) {
    return { problem: `${which} did not answer: ${error.message}`, fix: `DATABASE_URL may name another program's port: ${fixUrl}` };
  }
  if (typeof error.code !== 'string') return null;
  if (CANNOT_CONNECT.has(error.code) && error.syscall !== 'listen') {
    return { problem: `cannot reach ${which}: ${error.message}`, fix: `start that PostgreSQL or ${fixUrl}` };
  }
  switch (error.code) {
    case '3D000':
      return { problem: `${which}: ${error.message}`, fix: `create it (createdb, or CREATE DATABASE as its owner) or ${fixUrl}` };
    case '28P01':
    case '28000':
      return {
        problem: `${which} refused the sign-in: ${error.message}`,
        fix: `check the user and password in DATABASE_URL, and that pg_hba.conf lets this host in.`,
      };
    case '42501':
      return {
        problem: `${which}: ${error.message}`,
        fix: "give DATABASE_URL's user ownership of the database (ALTER DATABASE … OWNER TO …), or use a user that owns it: Ledgerport creates its own tables.",
      };
    case '53300':
      return {
        problem: `${which}: ${error.message}`,
        fix: "raise PostgreSQL's max_connections, or lower DATABASE_POOL_API, DATABASE_POOL_WORKER and DATABASE_POOL_WEBHOOKS.",
      };
    case '57P03':
      return { problem: `${which} is still starting or recovering: ${error.message}`, fix: 'start Ledgerport again in a moment.' };
    default:
      return null;
  }
}

function dataDirFailure(error: SystemError, settings: StartSettings | null): StartFailure | null {
  // ENOENT from mkdir although the parents were made: a place no directory can be made (DATA_DIR=/proc/x).
  const cannotMake = error.code === 'ENOENT' && error.syscall === 'mkdir';
  if (settings === null || typeof error.code !== 'string' || !(CANNOT_WRITE.has(error.code) || cannotMake) || typeof error.path !== 'string')
    return null;
  const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  const inDataDir = path.resolve(error.path).startsWith(path.resolve(settings.dataDir));
  const where = inDataDir ? settings.dataDir : path.dirname(error.path);
  const problem = inDataDir ? `DATA_DIR=${settings.dataDir} cannot be used: ${error.message}` : error.message;
  if (error.code === 'ENOSPC')
    return { problem, fix: `free space on the disk of ${where}${inDataDir ? ', or set DATA_DIR to a directory on a disk with room' : ''}.` };
  return { problem, fix: `make ${where} a directory this user${user} can write${inDataDir ? ', or set DATA_DIR to one' : ''}.` };
}

function unrecognised(error: Error): StartFailure {
  return {
    problem: error.message,
    fix: 'the lines above say what Ledgerport was doing when it stopped; if they do not explain it, report it as a bug with them and the stack below.',
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
  };
}

/** host:port of a postgres:// URL, never its password. */
function serverOf(url: string | undefined): string {
  if (url === undefined) return 'DATABASE_URL';
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** The lines a failed start prints on stderr. */
export function formatStartFailure(failure: StartFailure): string {
  return `ledgerport failed to start: ${failure.problem}\nWhat to do: ${failure.fix}\n${failure.stack === undefined ? '' : `${failure.stack}\n`}`;
}
