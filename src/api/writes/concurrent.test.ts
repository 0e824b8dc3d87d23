/**
 * 200 creates sent at once in async mode: every one answered 202 at once, every
 * job completes, each bill exists exactly once on the platform and in the
 * stored copy, and each job has one JOB_COMPLETED and one BILL_CREATED with
 * its job id.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { jobIdOf, line, platformBillMemos, sender, startWriteTestApp, today, type Json } from '../../../test/support/writes.ts';

const WRITES = 200;
const USER = 'user_concurrent_size_300';
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('concurrent async writes', () => {
  it(`${WRITES} async creates at once: each completes exactly once, with its JOB_COMPLETED and entity event`, async () => {
    const send = sender(t, c.token);
    const vendor = (await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active')).id;
    const expense = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
    const run = randomUUID().slice(0, 8);
    const responses = await Promise.all(
      Array.from({ length: WRITES }, (_, n) =>
        send('POST', '/accounting/bills', {
          response_mode: 'async',
          bill: { vendor_id: vendor, issue_date: today(), memo: `${run}-${n}`, line_items: [line(expense, n + 1)] },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(WRITES).fill(202));
    const jobIds = responses.map(jobIdOf);
    expect(new Set(jobIds).size).toBe(WRITES);
    expect(responses.map((r) => (json(r).async_response as Json).id)).toEqual(jobIds);

    const deadline = Date.now() + 120_000;
    let open = WRITES;
    while (open > 0 && Date.now() < deadline) {
      await sleep(250);
      const result = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM write_jobs WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed')`,
        [jobIds],
      );
      open = result.rows[0]?.n ?? WRITES;
    }
    const statuses = await t.db.pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM write_jobs WHERE id = ANY($1::uuid[]) GROUP BY status`,
      [jobIds],
    );
    expect(statuses.rows).toEqual([{ status: 'completed', n: WRITES }]);

    // On the platform: each memo exactly once.
    const memos = (await platformBillMemos(t, USER)).filter((m) => m.startsWith(`${run}-`));
    expect(memos.length).toBe(WRITES);
    expect(new Set(memos).size).toBe(WRITES);

    // In the stored copy and the events: one record per job, announced once with the job id.
    const results = await t.db.pool.query<{ id: string; result_id: string }>('SELECT id, result_id FROM write_jobs WHERE id = ANY($1::uuid[])', [
      jobIds,
    ]);
    const stored = await t.db.pool.query<{ id: string }>(
      `SELECT id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND data->>'memo' LIKE $2 AND deleted_at IS NULL`,
      [c.connection.id, `${run}-%`],
    );
    expect(new Set(stored.rows.map((r) => r.id))).toEqual(new Set(results.rows.map((r) => r.result_id)));
    const events = await eventsOf(t, c.connection.id);
    const completedByJob = new Map<string, number>();
    const createdByJob = new Map<string, string[]>();
    for (const event of events) {
      if (event.code === 'JOB_COMPLETED') {
        const id = String((event.payload.job as Json).id);
        completedByJob.set(id, (completedByJob.get(id) ?? 0) + 1);
      }
      if (event.code === 'BILL_CREATED' && typeof event.payload.job_id === 'string') {
        createdByJob.set(event.payload.job_id, [...(createdByJob.get(event.payload.job_id) ?? []), String((event.payload.bill as Json).id)]);
      }
    }
    const resultOf = new Map(results.rows.map((r) => [r.id, r.result_id]));
    for (const job of jobIds) {
      expect(completedByJob.get(job), job).toBe(1);
      expect(createdByJob.get(job), job).toEqual([resultOf.get(job)]);
    }
  }, 180_000);
});
