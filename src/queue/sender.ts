/**
 * Enqueueing jobs. `client` puts the job into the caller's transaction, so a
 * job exists exactly when the row it concerns does (no lost or orphan jobs).
 */
import type { PgBoss } from 'pg-boss';
import type { PoolClient } from '../db/pool.ts';
import { withTraceContext } from '../metrics/tracing.ts';

export interface SendOptions {
  singletonKey?: string;
  startAfterSeconds?: number;
  retryLimit?: number;
}

export interface JobSender {
  send(queue: string, data: Record<string, unknown>, options?: SendOptions, client?: PoolClient): Promise<string | null>;
}

export function bossSender(boss: PgBoss): JobSender {
  return {
    send(queue, data, options = {}, client) {
      // With traces on, the job carries its sender's trace context: the worker's span continues the request's trace.
      return boss.send(queue, withTraceContext(data), {
        ...(options.singletonKey !== undefined ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfterSeconds !== undefined ? { startAfter: options.startAfterSeconds } : {}),
        ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
        ...(client !== undefined ? { db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) } } : {}),
      });
    },
  };
}
