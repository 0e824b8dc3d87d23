/**
 * Write bodies refused before anything is queued (issue 19): numbers that are
 * not what the user sent (1e309 parses as Infinity), amounts with more decimal
 * places than their currency has, and references that are not stored records of
 * the connection — on PATCH exactly as on POST. Real server, real PostgreSQL,
 * SANDBOX books; each refusal is a 400 naming the field, and leaves no job, no
 * queue entry and no changed record behind.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import { clientHeaders, errorBody, json, type TestApp } from '../../../test/support/app.ts';
import { storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { jobIdOf, line, sender, startWriteTestApp, today, type Json, type Method } from '../../../test/support/writes.ts';
import { QUEUES } from '../../queue/names.ts';
import { loadWriteJob, type WriteJob } from '../../sql/write-jobs.ts';
import { acceptWrite } from '../../writes/accept.ts';
import { WRITABLE } from '../../writes/writable.ts';
import { writeLinks } from '../../writes/check-input.ts';

let t: TestApp;
let c: SyncedConnection;
const f = { vendor: '', expense: '', bank: '', bank2: '', bill: '', account: '', subsidiary: '', company: '' };

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_refusals_size_300');
  const id = c.connection.id;
  f.vendor = (await storedWhere(t, id, 'vendor', (v) => v.status === 'active')).id;
  f.expense = (await storedWhere(t, id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
  const bank = await storedWhere(t, id, 'account', (a) => a.account_type === 'bank' && a.status === 'active');
  f.bank = bank.id;
  f.bank2 = (
    await storedWhere(
      t,
      id,
      'account',
      (a) => a.account_type === 'bank' && a.status === 'active' && a.id !== bank.id && a.currency_code === bank.currency_code,
    )
  ).id;
  const bill = await send('POST', '/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today(), line_items: [line(f.expense, 250)] } });
  expect(bill.statusCode, bill.body).toBe(200);
  f.bill = String((json(bill).bill as Json).id);
  f.account = f.expense;
  f.subsidiary = (await storedWhere(t, id, 'subsidiary', () => true)).id;
  f.company = String((await storedWhere(t, id, 'company_info', () => true)).currency_code);
}, 120_000);
afterAll(async () => {
  await t.close();
});

const send = (...args: Parameters<ReturnType<typeof sender>>): ReturnType<ReturnType<typeof sender>> => sender(t, c.token)(...args);

/** A body as raw JSON text: `1e309` cannot be written from a JavaScript object (JSON.stringify makes it null). */
function sendText(method: Method, url: string, text: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/versioned${url}?access_token=${c.token}`,
    payload: text,
    headers: { ...clientHeaders(t.org), 'content-type': 'application/json' },
  });
}

interface Footprint {
  jobs: number;
  queued: number;
  records: string;
}

/** Everything a write could leave behind: its job row, its queue entry, the stored copy. */
async function footprint(): Promise<Footprint> {
  const jobs = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1', [c.connection.id]);
  const queued = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [QUEUES.write]);
  const records = await t.db.pool.query<{ digest: string }>(
    `SELECT md5(string_agg(id::text || encode(content_hash, 'hex'), ',' ORDER BY id)) AS digest FROM records WHERE connection_id = $1`,
    [c.connection.id],
  );
  return { jobs: jobs.rows[0]?.n ?? -1, queued: queued.rows[0]?.n ?? -1, records: records.rows[0]?.digest ?? '' };
}

/** Each request answers 400 VALIDATION_ERROR naming `field` (and saying `words`), and nothing is written or queued. */
async function expectRefused(cases: readonly (readonly [() => Promise<LightMyRequestResponse>, string, string?])[]): Promise<void> {
  const before = await footprint();
  for (const [request, field, words] of cases) {
    const response = await request();
    expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
    const error = errorBody(response);
    expect(error.error_code).toBe('VALIDATION_ERROR');
    expect(error.error_metadata?.field, error.error_message).toBe(field);
    expect(error.error_message).toContain(field);
    if (words !== undefined) expect(error.error_message).toContain(words);
    expect(response.headers['x-service-job-id']).toBeUndefined();
  }
  expect(await footprint()).toEqual(before);
}

const billText = (amount: string, extra = ''): string =>
  `{"bill": {"vendor_id": "${f.vendor}", "issue_date": "${today()}"${extra}, "line_items": [{"account_id": "${f.expense}", "description": "x", "total_amount": ${amount}}]}}`;

describe('numbers are what the user sent, or refused', () => {
  it('refuses non-finite numbers (1e309 parses as Infinity) in every kind of write body, money or not', async () => {
    await expectRefused([
      [() => sendText('POST', '/accounting/bills', billText('1e309')), 'bill.line_items[0].total_amount', 'finite'],
      [() => sendText('POST', '/accounting/bills', billText('-1e309')), 'bill.line_items[0].total_amount', 'finite'],
      [
        () => sendText('PATCH', `/accounting/bills/${f.bill}`, `{"bill": {"line_items": [{"account_id": "${f.expense}", "total_amount": 1e309}]}}`),
        'bill.line_items[0].total_amount',
        'finite',
      ],
      [
        () =>
          sendText(
            'POST',
            '/accounting/bank_transfers',
            `{"bank_transfer": {"credit_account_id": "${f.bank}", "debit_account_id": "${f.bank2}", "transaction_date": "${today()}", "total_amount": 1e309}}`,
          ),
        'bank_transfer.total_amount',
        'finite',
      ],
      // Not money: rates and quantities keep their own rules, but must be finite too.
      [
        () =>
          sendText(
            'POST',
            '/accounting/journal_entries',
            `{"journal_entry": {"transaction_date": "${today()}", "currency_rate": 1e309, "line_items": [{"account_id": "${f.expense}", "total_amount": 5}, {"account_id": "${f.bank}", "total_amount": -5}]}}`,
          ),
        'journal_entry.currency_rate',
        'finite',
      ],
      [
        () =>
          sendText(
            'POST',
            '/accounting/journal_entries',
            `{"journal_entry": {"transaction_date": "${today()}", "line_items": [{"account_id": "${f.expense}", "total_amount": 1e309}, {"account_id": "${f.bank}", "total_amount": -1e309}]}}`,
          ),
        'journal_entry.line_items[0].total_amount',
        'finite',
      ],
      [
        () =>
          sendText(
            'POST',
            '/accounting/bill_payments',
            `{"bill_payment": {"vendor_id": "${f.vendor}", "account_id": "${f.bank}", "transaction_date": "${today()}", "linked_bills": [{"id": "${f.bill}", "allocated_amount": 1e309}]}}`,
          ),
        'bill_payment.linked_bills[0].allocated_amount',
        'finite',
      ],
    ]);
  });

  it('refuses amounts with more decimal places than their currency has, saying how many it allows; never rounds them', async () => {
    await expectRefused([
      // No currency in the body: the company's own (every SANDBOX business keeps cents).
      [
        () => sendText('POST', '/accounting/bills', billText('0.004')),
        'bill.line_items[0].total_amount',
        `${f.company} allows at most 2 decimal places`,
      ],
      [
        () => sendText('POST', '/accounting/bills', billText('0.004', ', "currency_code": "USD"')),
        'bill.line_items[0].total_amount',
        'USD allows at most 2 decimal places',
      ],
      [
        () => sendText('POST', '/accounting/bills', billText('1.5', ', "currency_code": "JPY"')),
        'bill.line_items[0].total_amount',
        'JPY allows no decimal places',
      ],
      [
        () => sendText('POST', '/accounting/bills', billText('0.1234', ', "currency_code": "KWD"')),
        'bill.line_items[0].total_amount',
        'KWD allows at most 3 decimal places',
      ],
      // PATCH without a currency: the stored bill's.
      [
        () => send('PATCH', `/accounting/bills/${f.bill}`, { bill: { line_items: [line(f.expense, 10.005)] } }),
        'bill.line_items[0].total_amount',
        '2 decimal places',
      ],
      [
        () =>
          send('POST', '/accounting/bill_payments', {
            bill_payment: {
              vendor_id: f.vendor,
              account_id: f.bank,
              transaction_date: today(),
              linked_bills: [{ id: f.bill, allocated_amount: 0.001 }],
            },
          }),
        'bill_payment.linked_bills[0].allocated_amount',
        '2 decimal places',
      ],
      // Balanced to the third decimal, but the third decimal is not money in this currency.
      [
        () =>
          send('POST', '/accounting/journal_entries', {
            journal_entry: { transaction_date: today(), line_items: [line(f.expense, 0.004), line(f.bank, -0.004)] },
          }),
        'journal_entry.line_items[0].total_amount',
        '2 decimal places',
      ],
      [
        () =>
          send('POST', '/accounting/bank_transfers', {
            bank_transfer: { credit_account_id: f.bank, debit_account_id: f.bank2, transaction_date: today(), total_amount: 0.1 + 0.2 },
          }),
        'bank_transfer.total_amount',
        'decimal places',
      ],
      // Too large to be kept exactly.
      [() => sendText('POST', '/accounting/bills', billText('1e300')), 'bill.line_items[0].total_amount', 'at most'],
      [
        () =>
          send('POST', '/accounting/bills', {
            bill: {
              vendor_id: f.vendor,
              issue_date: today(),
              line_items: [{ account_id: f.expense, description: 'x', total_amount: 5, tax_amount: 0.333 }],
            },
          }),
        'bill.line_items[0].tax_amount',
        '2 decimal places',
      ],
    ]);
  });

  it('lets an amount through that its currency can hold: 0.004 in a 3-decimal currency reaches the platform unrounded', async () => {
    const response = await sendText('POST', '/accounting/bills', billText('0.004', ', "currency_code": "KWD"'));
    jobIdOf(response);
    // SANDBOX keeps whole cents: it refuses the amount rather than booking 0.00 (it used to round it away).
    expect(response.statusCode, response.body).toBe(450);
    expect(errorBody(response).error_code).toBe('PLATFORM_BAD_REQUEST');
    const zero = await t.db.pool.query(
      `SELECT id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND (data->>'total_amount')::numeric = 0`,
      [c.connection.id],
    );
    expect(zero.rowCount).toBe(0);
  });

  it('refuses numbers that parsing would change (0.1e-400, -0, 1.00000000000000000000001), money or not', async () => {
    await expectRefused([
      // Each used to be booked: 0.1e-400 and -0 as paid bills of 0.00, the long one as 1.
      [() => sendText('POST', '/accounting/bills', billText('0.1e-400')), 'bill.line_items[0].total_amount', 'would be stored as 0'],
      [() => sendText('POST', '/accounting/bills', billText('-0')), 'bill.line_items[0].total_amount', 'negative zero'],
      [
        () => sendText('POST', '/accounting/bills', billText('1.00000000000000000000001')),
        'bill.line_items[0].total_amount',
        'would be stored as 1;',
      ],
      [
        () =>
          sendText(
            'POST',
            '/accounting/journal_entries',
            `{"journal_entry": {"transaction_date": "${today()}", "currency_rate": 1.23456789012345678, "line_items": [{"account_id": "${f.expense}", "total_amount": 5}, {"account_id": "${f.bank}", "total_amount": -5}]}}`,
          ),
        'journal_entry.currency_rate',
        'no number holds exactly',
      ],
    ]);
  });

  it('takes 1.50 and 1e2 as the decimals they write (1.5 and 100)', async () => {
    for (const [text, value] of [
      ['1.50', 1.5],
      ['1e2', 100],
    ] as const) {
      const response = await sendText('POST', '/accounting/bills', billText(text));
      expect(response.statusCode, response.body).toBe(200);
      expect((json(response).bill as Json).total_amount).toBe(value);
    }
  });

  it('accepts amounts exactly as sent', async () => {
    const response = await send('POST', '/accounting/bills', {
      bill: { vendor_id: f.vendor, issue_date: today(), line_items: [line(f.expense, 0.07), line(f.expense, 1234567.89)] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((json(response).bill as Json).total_amount).toBe(1234567.96);
  });
});

describe('actions go through the same number checks', () => {
  it("refuses an allocation with more decimals than the credit memo's currency has", async () => {
    const memo = await send('POST', '/accounting/bill_credit_memos', {
      bill_credit_memo: { vendor_id: f.vendor, issue_date: today(), line_items: [line(f.expense, 40)] },
    });
    expect(memo.statusCode, memo.body).toBe(200);
    const memoId = String((json(memo).bill_credit_memo as Json).id);
    await expectRefused([
      [
        () =>
          send('POST', '/accounting/bill_credit_applications', {
            bill_credit_application: { bill_credit_memo_id: memoId, linked_bills: [{ id: f.bill, allocated_amount: 0.004 }] },
          }),
        'bill_credit_application.linked_bills[0].allocated_amount',
        '2 decimal places',
      ],
    ]);
  });
});

describe('every write checks its references before anything is queued', () => {
  it('refuses PATCH /accounts/:id with a malformed or unknown subsidiary_id at once, as POST does', async () => {
    await expectRefused([
      [() => send('PATCH', `/accounting/accounts/${f.account}`, { account: { subsidiary_id: '0' } }), 'account.subsidiary_id', 'subsidiary'],
      [() => send('PATCH', `/accounting/accounts/${f.account}`, { account: { subsidiary_id: randomUUID() } }), 'account.subsidiary_id', 'subsidiary'],
      [() => send('PATCH', `/accounting/accounts/${f.account}`, { account: { subsidiary_id: f.vendor } }), 'account.subsidiary_id', 'vendor'],
      [
        () => send('POST', '/accounting/accounts', { account: { name: `Refused ${randomUUID()}`, account_type: 'expense', subsidiary_id: '0' } }),
        'account.subsidiary_id',
        'subsidiary',
      ],
    ]);
    const accepted = await send('PATCH', `/accounting/accounts/${f.account}`, { account: { subsidiary_id: f.subsidiary } });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('runs the same reference checks on PATCH for every top-level reference of every updatable resource', async () => {
    const cases: [() => Promise<LightMyRequestResponse>, string, string][] = [];
    for (const [type, spec] of Object.entries(WRITABLE) as [UnifiedObjectType, NonNullable<(typeof WRITABLE)[UnifiedObjectType]>][]) {
      if (!spec.operations.includes('update')) continue;
      const { path, singular } = OBJECT_TYPES[type];
      const target = await storedOrNone(type);
      if (target === null) continue;
      for (const link of writeLinks(type)) {
        if (link.path.includes('.') || link.path.includes('[]') || !spec.fields.includes(link.path)) continue;
        cases.push([
          () => send('PATCH', `${path}/${target}`, { [singular]: { [link.path]: '0' } }),
          `${singular}.${link.path}`,
          'in this connection',
        ]);
      }
    }
    expect(cases.length).toBeGreaterThan(20);
    await expectRefused(cases);
  });
});

/** The job as it ended, waiting for the workers (at most 30 s). */
async function settled(jobId: string): Promise<WriteJob> {
  for (let i = 0; i < 300; i++) {
    const job = await loadWriteJob(t.db.pool, jobId);
    if (job !== null && (job.status === 'completed' || job.status === 'failed')) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${jobId} did not settle`);
}

describe('a malformed id that reaches a worker anyway', () => {
  it('fails its job at once with a 400 naming the field, not with retries ending in a 500', async () => {
    // Queued as a job accepted before the checks above existed would be.
    const { job } = await acceptWrite(t.db.pool, t.services.jobs, {
      tenant: { organizationId: t.org.organization.id, environment: 'sandbox' },
      connectionId: c.connection.id,
      objectType: 'account',
      operation: 'update',
      targetId: f.account,
      idempotencyKey: null,
      request: { method: 'PATCH', path: `/versioned/accounting/accounts/${f.account}`, body: { account: { subsidiary_id: '0' } } },
    });
    const done = await settled(job.id);
    expect(done).toMatchObject({
      status: 'failed',
      attempts: 1,
      response: { status_code: 400, body: { error_code: 'VALIDATION_ERROR', error_metadata: { field: 'subsidiary_id' } } },
    });
  });
});

async function storedOrNone(type: UnifiedObjectType): Promise<string | null> {
  const result = await t.db.pool.query<{ id: string }>(
    'SELECT id FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL LIMIT 1',
    [c.connection.id, type],
  );
  return result.rows[0]?.id ?? null;
}
