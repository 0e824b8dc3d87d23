/**
 * Each organisation's API request log (migration 0039, docs/reference.md "Request log"), written off the request
 * path: a finished request only appends a row to this process's buffer; the buffer goes to PostgreSQL in one
 * multi-row INSERT every REQUEST_LOG_FLUSH_MS (1 s) or REQUEST_LOG_FLUSH_ROWS (500) rows, whichever comes first.
 * A request never waits for the log and never fails because of it: a batch that cannot be written is logged and
 * dropped. A crash loses what the buffer held, at most the last interval's rows.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../log/logger.ts';
import type { RequestLogSettings } from '../config.ts';
import { outsideRequestScope } from '../db/request-scope.ts';
import { requestLogRowsDropped } from '../metrics/registry.ts';
import type { RequestLogEntry } from '../sql/insert-request-logs.ts';

/** Writes one batch (src/sql/insert-request-logs.ts in the service). */
export type RequestLogSink = (entries: readonly RequestLogEntry[]) => Promise<void>;

/** Rows held at most while PostgreSQL is slow or away, in flush batches: past it the oldest go. */
const MAX_BUFFERED_BATCHES = 20;

export class RequestLogWriter {
  readonly #insert: RequestLogSink;
  readonly #settings: RequestLogSettings;
  readonly #log: Logger;
  #buffer: RequestLogEntry[] = [];
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #dropped = 0;

  constructor(insert: RequestLogSink, settings: RequestLogSettings, log: Logger) {
    this.#insert = insert;
    this.#settings = settings;
    this.#log = log;
    if (!settings.enabled) return;
    this.#timer = setInterval(() => {
      void this.flush();
    }, settings.flushIntervalMs);
    this.#timer.unref();
  }

  /** Appends one row; starts a flush when a batch is full. Never throws, never waits. */
  record(entry: RequestLogEntry): void {
    if (!this.#settings.enabled) return;
    this.#buffer.push(entry);
    const cap = this.#settings.flushRows * MAX_BUFFERED_BATCHES;
    if (this.#buffer.length > cap) {
      this.#dropped += this.#buffer.length - cap;
      requestLogRowsDropped.inc(this.#buffer.length - cap);
      this.#buffer.splice(0, this.#buffer.length - cap);
    }
    if (this.#buffer.length >= this.#settings.flushRows) void this.flush();
  }

  /** Writes what the buffer holds, a batch at a time; one flush runs at once. Never rejects. */
  flush(): Promise<void> {
    if (this.#flushing !== null) return this.#flushing;
    if (this.#buffer.length === 0) return Promise.resolve();
    // Outside any request's scope: the insert is the process's, not counted against the organisation whose request
    // happened to fill the batch (src/db/organization-gate.ts).
    this.#flushing = outsideRequestScope(() => this.#writeAll()).finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #writeAll(): Promise<void> {
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.splice(0, this.#settings.flushRows);
      try {
        await this.#insert(batch);
      } catch (error) {
        this.#dropped += batch.length;
        requestLogRowsDropped.inc(batch.length);
        this.#log.warn({ err: error, rows: batch.length }, 'could not write a batch of the API request log; its rows are dropped');
        return;
      }
    }
    if (this.#dropped > 0) {
      this.#log.warn({ rows: this.#dropped }, 'API request log rows were dropped (buffer full or a batch failed)');
      this.#dropped = 0;
    }
  }

  /** Stops the timer and writes what is left (the process is closing). */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.flush();
    await this.flush();
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The error code the answer carried (src/http/error-handler.ts), for the request log. */
    errorCode: string | null;
  }
}

/**
 * The row of a finished request, or null when it is not logged: only requests an organisation's client credentials
 * made (the dashboard's own calls through a session, and requests whose credentials were refused, have no row).
 */
export function requestLogEntry(request: FastifyRequest, reply: FastifyReply): RequestLogEntry | null {
  const tenant = request.tenant;
  if (tenant === null || request.dashboardUser !== null) return null;
  return {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    createdAt: new Date(),
    method: request.method,
    route: request.routeOptions.url ?? request.url.split('?')[0] ?? '',
    status: reply.statusCode,
    durationMs: reply.elapsedTime,
    requestId: request.id,
    connectionId: request.requestScope?.connectionId ?? null,
    errorCode: request.errorCode,
  };
}
