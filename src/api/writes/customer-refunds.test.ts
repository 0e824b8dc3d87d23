/**
 * Customer refunds written through the real server on SANDBOX (the lifecycle is in writes.test.ts): async mode and
 * its job, one job and one refund per Idempotency-Key, the books balanced after create and delete, another
 * organisation's and another connection's ids answered as unknown ones, and bodies refused before anything is queued,
 * naming the field.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../test/support/app.ts';
import { storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { jobIdOf, line, sender, startWriteTestApp, today, type Json } from '../../../test/support/writes.ts';
import { auditBooks } from '../../../packages/sandbox/src/audit.ts';
import { readAll, testContext } from '../../../packages/sandbox/src/testkit.ts';

const USER = 'user_refund_writes_size_600';
let t: TestApp;
let c: SyncedConnection;
const f = { income: '', bank: '', customer: '' };

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, USER);
  const id = c.connection.id;
  f.income = (await storedWhere(t, id, 'account', (a) => a.account_type === 'income' && a.status === 'active')).id;
  f.bank = (await storedWhere(t, id, 'account', (a) => a.account_type === 'bank' && a.status === 'active')).id;
  f.customer = (await storedWhere(t, id, 'customer', (a) => a.status === 'active')).id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

const send = (...args: Parameters<ReturnType<typeof sender>>): ReturnType<ReturnType<typeof sender>> => sender(t, c.token)(...args);
const refundBody = (amount: number, extra: Json = {}): Json => ({
  customer_refund: { customer_id: f.customer, account_id: f.bank, transaction_date: today(), line_items: [line(f.income, amount)], ...extra },
});

let other: SyncedConnection | undefined;
/** Another connection of the same organisation, to other books. */
async function otherConnection(): Promise<SyncedConnection> {
  other ??= await syncedSandboxConnection(t, 'user_refund_writes_other_size_300');
  return other;
}

/** SANDBOX's own books, read through its connector, audited. */
async function bookProblems(): Promise<string[]> {
  const ctx = testContext({ basic_username: USER, basic_password: 'pass_good' });
  const { records } = await readAll(t.sandbox.connector, ctx);
  return auditBooks(records);
}

async function finished(jobId: string): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const job = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${jobId}`, headers: clientHeaders(t.org) }));
    if (job.status === 'success' || job.status === 'failure') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('POST and DELETE /accounting/customer_refunds', () => {
  it('creates a refund in async mode, deletes it, and leaves the books balanced', async () => {
    const created = await send('POST', '/accounting/customer_refunds', {
      response_mode: 'async',
      ...refundBody(18.25, { document_number: 'RF-ASYNC' }),
    });
    expect(created.statusCode, created.body).toBe(202);
    const job = await finished(jobIdOf(created));
    expect(job.status).toBe('success');
    const refund = (job.response as { body: { customer_refund: Json } }).body.customer_refund;
    expect(refund).toMatchObject({ total_amount: 18.25, document_number: 'RF-ASYNC', account_id: f.bank, customer_id: f.customer });
    expect(await bookProblems()).toEqual([]);
    const fetched = await send('GET', `/accounting/customer_refunds/${String(refund.id)}`);
    expect(json(fetched).customer_refund).toEqual(refund);
    const deleted = await send('DELETE', `/accounting/customer_refunds/${String(refund.id)}`);
    expect([deleted.statusCode, json(deleted)]).toEqual([200, { code: 'deleted', success: true }]);
    expect((await send('GET', `/accounting/customer_refunds/${String(refund.id)}`)).statusCode).toBe(410);
    expect(await bookProblems()).toEqual([]);
  });

  it('keeps a refund to one job and one record when the same Idempotency-Key is sent again', async () => {
    const key = randomUUID();
    const payload = refundBody(7, { document_number: `RF-${key.slice(0, 8)}` });
    const [first, second] = await Promise.all([
      send('POST', '/accounting/customer_refunds', payload, { 'idempotency-key': key }),
      send('POST', '/accounting/customer_refunds', payload, { 'idempotency-key': key }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(jobIdOf(first)).toBe(jobIdOf(second));
    expect((json(second).customer_refund as Json).id).toBe((json(first).customer_refund as Json).id);
    const stored = await t.db.pool.query(
      `SELECT id FROM records WHERE connection_id = $1 AND object_type = 'customer_refund' AND data->>'document_number' = $2`,
      [c.connection.id, `RF-${key.slice(0, 8)}`],
    );
    expect(stored.rowCount).toBe(1);
  });

  it("refuses missing auth, another organisation's credentials, and another connection's refund as an unknown one", async () => {
    const url = `/versioned/accounting/customer_refunds?access_token=${c.token}`;
    const noAuth = await t.app.inject({ method: 'POST', url, headers: { 'x-service-version': '2024-08-31' }, payload: refundBody(1) });
    expect(noAuth.statusCode).toBe(401);
    const otherOrg = await t.newOrg('Refunds other');
    const foreign = await t.app.inject({ method: 'POST', url, headers: clientHeaders(otherOrg), payload: refundBody(1) });
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const other = await otherConnection();
    const theirs = await storedWhere(t, other.connection.id, 'customer_refund', () => true);
    for (const id of [theirs.id, randomUUID()]) {
      const response = await send('DELETE', `/accounting/customer_refunds/${id}`);
      expect([response.statusCode, errorBody(response).error_code], id).toEqual([410, 'RESOURCE_NOT_FOUND']);
    }
    expect((await send('GET', `/accounting/customer_refunds/${theirs.id}`)).statusCode).toBe(410);
    expect((await send('PATCH', `/accounting/customer_refunds/${theirs.id}`, { customer_refund: { document_number: 'x' } })).statusCode).toBe(404);
  });

  it('refuses bodies the schema or the ledger rules refuse before anything is queued, naming the field', async () => {
    const other = await otherConnection();
    const theirBank = await storedWhere(t, other.connection.id, 'account', (a) => a.account_type === 'bank');
    const refused: [Json, string][] = [
      [{ customer_refund: { line_items: [line(f.income, 1)] } }, 'customer_refund.account_id'],
      [{ customer_refund: { account_id: f.bank, line_items: [] } }, 'customer_refund.line_items'],
      [{ customer_refund: { account_id: theirBank.id, line_items: [line(f.income, 1)] } }, 'customer_refund.account_id'],
      [{ customer_refund: { account_id: f.bank, line_items: [{ total_amount: 5 }] } }, 'customer_refund.line_items[0].account_id'],
      [{ customer_refund: { account_id: f.bank, line_items: [{ account_id: f.income }] } }, 'customer_refund.line_items[0].total_amount'],
      [{ customer_refund: { account_id: f.bank, line_items: [line(f.income, -5)] } }, 'customer_refund.line_items[0].total_amount'],
      [{ customer_refund: { account_id: f.bank, total_amount: 5, line_items: [line(f.income, 5)] } }, 'customer_refund.total_amount'],
      [{ customer_refund: { account_id: f.bank, currency_code: 'ZZZ', line_items: [line(f.income, 5)] } }, 'customer_refund.currency_code'],
    ];
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs');
    for (const [body, field] of refused) {
      const response = await send('POST', '/accounting/customer_refunds', body);
      expect([response.statusCode, errorBody(response).error_metadata?.field], field).toEqual([400, field]);
      expect(response.headers['x-service-job-id'], field).toBeUndefined();
    }
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});
