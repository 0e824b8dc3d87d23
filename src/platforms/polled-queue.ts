/** ConnectorContext.polled of a job: its platform calls as requests in the connection's queue (src/platforms/polled.ts). */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { findPolledRequest, forgetPolledRequest, queuePolledRequest, type PolledWaiter } from '../sql/queue-polled-request.ts';
import { PlatformError } from './errors.ts';
import { AnswerPending, DEFAULT_ANSWER_CHECK_MS, type PolledExchange, type PolledPlatform } from './polled.ts';

export function polledExchange(db: Queryable, connectionId: string, waiter: PolledWaiter, platform: PolledPlatform): PolledExchange {
  const job = 'syncRunId' in waiter ? `run:${waiter.syncRunId}` : `write:${waiter.writeJobId}`;
  const checkMs = platform.answerCheckMs ?? DEFAULT_ANSWER_CHECK_MS;
  return {
    async exchange(key, build) {
      const requestKey = `${job}:${key}`;
      const found = await findPolledRequest(db, connectionId, requestKey);
      if (found?.status === 'answered' && found.answer !== null) return found.answer;
      if (found?.status === 'failed') {
        await forgetPolledRequest(db, found.id);
        throw new PlatformError({ kind: 'bad_request', message: found.error ?? 'the platform refused the request', requestSent: true });
      }
      if (found !== null) throw new AnswerPending(found.id, checkMs);
      const id = randomUUID();
      const queued = await queuePolledRequest(db, { id, connectionId, key: requestKey, waiter, body: build(id) });
      throw new AnswerPending(queued.id, checkMs);
    },
  };
}
