/**
 * Writes against SANDBOX's misbehaving accounts, end to end: a platform that
 * answers 429 every third call, and one that fails every fourth call — on
 * writes with a 500 *after* applying the write. Every write ends applied
 * exactly once: no record missing, none twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, storedWhere, syncedSandboxConnection } from '../../../test/support/sandbox-connection.ts';
import { jobIdOf, line, platformBillMemos, sender, startWriteTestApp, today, type Json } from '../../../test/support/writes.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startWriteTestApp();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe.each(['user_rate_limited', 'user_flaky'])('%s', (user) => {
  it('applies every write exactly once, answering each with its record', async () => {
    const c = await syncedSandboxConnection(t, user);
    const send = sender(t, c.token);
    const vendor = (await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active')).id;
    const expense = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
    const run = randomUUID().slice(0, 8);
    const memos = Array.from({ length: 8 }, (_, n) => `${user}-${run}-${n}`);
    const jobs: string[] = [];
    for (const memo of memos) {
      const response = await send('POST', '/accounting/bills', {
        bill: { vendor_id: vendor, issue_date: today(), memo, line_items: [line(expense, 10)] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((json(response).bill as Json).memo).toBe(memo);
      jobs.push(jobIdOf(response));
    }
    const onPlatform = (await platformBillMemos(t, user)).filter((m) => m.startsWith(`${user}-${run}-`));
    expect(onPlatform.sort()).toEqual([...memos].sort());
    const created = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'BILL_CREATED' && typeof e.payload.job_id === 'string');
    expect(created.map((e) => e.payload.job_id).sort()).toEqual([...jobs].sort());
  }, 120_000);
});
