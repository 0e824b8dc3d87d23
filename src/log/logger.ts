/**
 * The process's structured log: pino, one JSON line per event, in every
 * process (API, workers, CLI). Work carried from a request into a job keeps its
 * ids on every line it causes: organization_id, connection_id, request_id,
 * job_id (write jobs), sync_run_id, delivery_id.
 *
 * What a line may hold is decided here once: headers, bodies, tokens and
 * secrets are never logged (the request serializer and the censored paths of
 * src/log/redaction.ts; platform calls log method, path, status and
 * duration, and their URL has no query string).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { stdoutDestination } from './destination.ts';
import { requestLogOptions } from './redaction.ts';
import { traceFields } from './trace-fields.ts';

export type { Logger };

/** The ids a line can carry, named as they are everywhere else (snake case, as in the API). */
export interface LogIds {
  organization_id?: string;
  connection_id?: string;
  request_id?: string | null;
  job_id?: string;
  sync_run_id?: string;
  delivery_id?: string;
  platform?: string | null;
}

export interface LoggerOptions {
  level: string;
  /** `api`, `worker`, `all` or `cli`: which kind of process wrote the line. */
  role: string;
  /** Where lines go; default stdout, through a destination that drops what it cannot write (src/log/destination.ts). Tests pass a stream they read back. */
  destination?: DestinationStream;
  /** Traces are on: lines written inside a span carry trace_id and span_id (src/log/trace-fields.ts). */
  traceIds?: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    ...requestLogOptions(options.level),
    base: { pid: process.pid, role: options.role },
    ...(options.traceIds === true ? { mixin: traceFields } : {}),
  };
  return pino(settings, options.destination ?? stdoutDestination());
}

/** A logger that writes nothing (tests, tools). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** `log` with these ids on every line; ids that are null or undefined are left out. */
export function withIds(log: Logger, ids: LogIds): Logger {
  const bound: Record<string, string> = {};
  for (const [key, value] of Object.entries(ids)) if (typeof value === 'string') bound[key] = value;
  return log.child(bound);
}
