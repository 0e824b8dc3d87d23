import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { accessTokenOf } from '../../connections/connections.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { MODEL } from '../../model/index.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES } from '../../model/object-types.ts';
import { SINGLE_OBJECT_TYPES } from './routes.ts';
import { requestSync } from '../../sync/requests.ts';
import { runSync } from '../../sync/runner.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { linkProblems } from '../../../test/support/links.ts';
import { sandboxConnection as linkedSandbox, syncedSandboxConnection } from '../../../test/support/sandbox-connection.ts';

let t: TestApp;
let connection: ConnectionRecord;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  ({ connection, token } = await syncedSandboxConnection(t, 'user_reads_size_1500'));
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

// Every list SANDBOX serves (it keeps no disputes or subscriptions: src/api/data/commerce.test.ts reads those lists' 404). Attachments
// are listed per document type, each list its type's only: src/api/accounting/attachments/attachments.test.ts.
describe.each(UNIFIED_OBJECT_TYPES.filter((type) => !SINGLE_OBJECT_TYPES.has(type) && type !== 'dispute' && type !== 'subscription' && type !== 'attachment'))('%s', (type) => {
  const names = OBJECT_TYPES[type];

  it('lists every stored record exactly once across pages, each matching the schema', async () => {
    const stored = await t.db.pool.query<{ id: string }>('SELECT id FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL', [connection.id, type]);
    expect(stored.rows.length).toBeGreaterThan(0);
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const response = await get(`${names.path}?access_token=${token}&limit=17${cursor === '' ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const body = json(response);
      expect(body.connection).toEqual({ id: connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
      const items = body[names.plural] as Record<string, unknown>[];
      for (const item of items) {
        expect(Value.Check(MODEL[type].schema, item), JSON.stringify([...Value.Errors(MODEL[type].schema, item)].slice(0, 2))).toBe(true);
        expect('platform_data' in item).toBe(false);
      }
      seen.push(...items.map((i) => String(i.id)));
      cursor = body.next_cursor as string | null;
      pages += 1;
    }
    expect(seen.length).toBe(stored.rows.length);
    expect(new Set(seen)).toEqual(new Set(stored.rows.map((r) => r.id)));
    expect(pages).toBe(Math.max(1, Math.ceil(stored.rows.length / 17)));
  });

  it('fetches by service id and by platform id, with platform_data on request', async () => {
    const row = (await t.db.pool.query<{ id: string; platform_id: string }>(
      'SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL LIMIT 1', [connection.id, type])).rows[0];
    if (row === undefined) throw new Error('no record');
    const byService = json(await get(`${names.path}/${row.id}?access_token=${token}`));
    expect((byService[names.singular] as { id: string }).id).toBe(row.id);
    const byPlatform = json(await get(`${names.path}/${encodeURIComponent(row.platform_id)}?access_token=${token}&id_type=platform&expand=platform_data`));
    const object = byPlatform[names.singular] as { id: string; platform_data?: unknown };
    expect(object.id).toBe(row.id);
    expect(typeof object.platform_data).toBe('object');
    expect(Value.Check(MODEL[type].schema, object)).toBe(true);
  });
});

describe('company info', () => {
  it('is one object per connection, as the reference serves it: {company_info, connection}', async () => {
    const response = await get(`/accounting/company_info?access_token=${token}`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['company_info', 'connection']);
    expect(body.connection).toEqual({ id: connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    const company = body.company_info as Record<string, unknown>;
    expect(Value.Check(MODEL.company_info.schema, company)).toBe(true);
    const stored = (await t.db.pool.query<{ id: string }>(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'company_info' AND deleted_at IS NULL`, [connection.id])).rows;
    expect(stored.map((r) => r.id)).toEqual([company.id]);
    const raw = json(await get(`/accounting/company_info?access_token=${token}&expand=platform_data`)).company_info as Record<string, unknown>;
    expect(typeof raw.platform_data).toBe('object');
    // No list paging and no fetch by id.
    expect((await get(`/accounting/company_info/${String(company.id)}?access_token=${token}`)).statusCode).toBe(404);
  });

  it('answers 410 when the connection has none stored', async () => {
    await t.db.pool.query(`UPDATE records SET deleted_at = now() WHERE connection_id = $1 AND object_type = 'company_info'`, [connection.id]);
    try {
      const response = await get(`/accounting/company_info?access_token=${token}`);
      expect(response.statusCode).toBe(410);
      expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await t.db.pool.query(`UPDATE records SET deleted_at = NULL WHERE connection_id = $1 AND object_type = 'company_info'`, [connection.id]);
    }
  });
});

describe('read conventions', () => {
  it('answer 410 for unknown ids and ids of other connections', async () => {
    const other = await linkedSandbox(t, 'user_reads_other_size_300');
    await requestSync(t.db.pool, t.services.jobs, other.id, { kind: 'initial', trigger: 'api', details: {} }).then((r) => runSync(t.services, r.id, new AbortController().signal));
    const theirs = (await t.db.pool.query<{ id: string }>(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'bill' LIMIT 1`, [other.id])).rows[0]?.id ?? '';
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await get(`/accounting/bills/${id}?access_token=${token}`);
      expect(response.statusCode).toBe(410);
      expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it('answer ENTITY_NOT_READY when a ready connection has never read an object in full, not an empty page or a 410', async () => {
    // As after an upgrade that taught the connector a new object: nothing stored, no completed read of it.
    const saved = await t.db.pool.query<{ object_type: string }>(`SELECT object_type FROM sync_objects WHERE connection_id = $1 AND object_type = 'tax_agency'`, [connection.id]);
    expect(saved.rows).toHaveLength(1);
    await t.db.pool.query(`UPDATE sync_objects SET last_completed_at = NULL WHERE connection_id = $1 AND object_type = 'tax_agency'`, [connection.id]);
    const hidden = (await t.db.pool.query<{ id: string }>(
      `UPDATE records SET deleted_at = now() WHERE connection_id = $1 AND object_type = 'tax_agency' AND deleted_at IS NULL RETURNING id`, [connection.id])).rows.map((r) => r.id);
    try {
      for (const url of [`/accounting/tax_agencies?access_token=${token}`, `/accounting/tax_agencies/00000000-0000-4000-8000-000000000000?access_token=${token}`]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(409);
        expect(errorBody(response)).toMatchObject({ error_type: 'CONNECTION_ERROR', error_code: 'ENTITY_NOT_READY' });
      }
      expect(errorBody(await get(`/accounting/tax_agencies?access_token=${token}`)).error_message).toContain('have not been synced yet');
      // force_fetch answers what is stored (nothing); a filter matching nothing on an object that was read stays an empty page.
      expect(json(await get(`/accounting/tax_agencies?access_token=${token}&force_fetch=true`)).tax_agencies).toEqual([]);
      expect(json(await get(`/accounting/bills?access_token=${token}&document_number=no-such-bill`)).bills).toEqual([]);
    } finally {
      await t.db.pool.query(`UPDATE sync_objects SET last_completed_at = now() WHERE connection_id = $1 AND object_type = 'tax_agency'`, [connection.id]);
      await t.db.pool.query('UPDATE records SET deleted_at = NULL WHERE id = ANY($1::uuid[])', [hidden]);
    }
  });

  it('answer 404 ROUTE_NOT_FOUND for a sub-path of the reference that falls into /:id, on reads and writes alike', async () => {
    // Bills, invoices and expenses have attachment paths of their own now (src/api/accounting/attachments); vendors do not.
    for (const [method, url] of [['GET', '/accounting/vendors/attachments'], ['GET', '/accounting/customers/attachments'], ['DELETE', '/accounting/bills/attachments'], ['GET', '/accounting/vendors/custom_fields']] as const) {
      const response = await t.app.inject({ method, url: `/versioned${url}?access_token=${token}`, headers: clientHeaders(t.org) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(errorBody(response).error_code).toBe('ROUTE_NOT_FOUND');
      expect(errorBody(response).error_message).toContain(`No endpoint ${method} /versioned${url}`);
    }
    // Before anything about the connection: also without an access token.
    expect((await t.app.inject({ method: 'GET', url: '/versioned/accounting/vendors/attachments', headers: clientHeaders(t.org) })).statusCode).toBe(404);
    // By platform id the word is an id like any other.
    expect((await get(`/accounting/vendors/attachments?access_token=${token}&id_type=platform`)).statusCode).toBe(410);
  });

  it('answer PRODUCT_NOT_READY before the initial sync, and data so far with force_fetch', async () => {
    const fresh = await linkedSandbox(t, 'user_reads_fresh_size_300');
    const freshToken = accessTokenOf(t.services.cipher, fresh);
    const early = await get(`/accounting/bills?access_token=${freshToken}`);
    expect(early.statusCode).toBe(409);
    expect(errorBody(early).error_code).toBe('PRODUCT_NOT_READY');
    const forced = await get(`/accounting/bills?access_token=${freshToken}&force_fetch=true`);
    expect(forced.statusCode).toBe(200);
    expect(json(forced).bills).toEqual([]);
  });

  it('refuse missing auth, other tenants and malformed input', async () => {
    expect((await get(`/accounting/bills?access_token=${token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const otherOrg = await t.newOrg();
    expect(errorBody(await get(`/accounting/bills?access_token=${token}`, clientHeaders(otherOrg))).error_code).toBe('INVALID_CREDENTIALS');
    expect(errorBody(await get('/accounting/bills')).error_code).toBe('MISSING_ACCESS_TOKEN');
    for (const query of ['limit=501', 'limit=0', 'limit=abc', 'expand=everything', 'force_fetch=yes', 'updated_at_min=-5']) {
      expect((await get(`/accounting/bills?access_token=${token}&${query}`)).statusCode, query).toBe(400);
    }
    for (const cursor of ['abc', Buffer.from('{"s":"name ASC","v":"x","id":"00000000-0000-4000-8000-000000000000"}').toString('base64url'),
      Buffer.from('{"s":"updated_at DESC","v":"2024-02-30 10:00:00+00","id":"00000000-0000-4000-8000-000000000000"}').toString('base64url'),
      Buffer.from('{"s":"updated_at DESC","v":"soon","id":"00000000-0000-4000-8000-000000000000"}').toString('base64url')]) {
      expect(errorBody(await get(`/accounting/bills?access_token=${token}&cursor=${cursor}`)).error_code).toBe('INVALID_CURSOR');
    }
    expect((await get(`/accounting/bills/x?access_token=${token}&id_type=other`)).statusCode).toBe(400);
  });

  it('sort by updated_at descending by default, with deprecated bounds and filters', async () => {
    const body = json(await get(`/accounting/bills?access_token=${token}&limit=500`));
    const times = (body.bills as { updated_at: string | null }[]).map((b) => (b.updated_at === null ? -Infinity : Date.parse(b.updated_at)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const pivot = times[Math.floor(times.length / 2)] ?? 0;
    const newer = json(await get(`/accounting/bills?access_token=${token}&limit=500&updated_at_min=${pivot}`)).bills as { updated_at: string }[];
    expect(newer.length).toBeGreaterThan(0);
    expect(newer.every((b) => Date.parse(b.updated_at) >= pivot)).toBe(true);
    const one = (body.bills as { document_number: string }[])[0];
    const byNumber = json(await get(`/accounting/bills?access_token=${token}&document_number=${encodeURIComponent(one?.document_number ?? '')}`)).bills as unknown[];
    expect(byNumber).toHaveLength(1);
  });

  it('take only the values of an enum in a deprecated filter: a misspelt one is a 400 listing them, not an empty page', async () => {
    const banks = json(await get(`/accounting/accounts?access_token=${token}&account_type=bank`)).accounts as { account_type: string }[];
    expect(banks.length).toBeGreaterThan(0);
    expect(banks.every((a) => a.account_type === 'bank')).toBe(true);
    const refused = await get(`/accounting/accounts?access_token=${token}&account_type=bogus`);
    expect(refused.statusCode).toBe(400);
    const body = errorBody(refused);
    expect(body.error_code).toBe('VALIDATION_ERROR');
    expect(body.error_metadata).toMatchObject({ field: 'account_type', location: 'query' });
    expect(body.error_message).toMatch(/^`account_type` in the query string must be one of: .*\bbank\b.*\bexpense\b/);
  });
});

describe('versions', () => {
  const at = (version: string, url: string) => get(url, { ...clientHeaders(t.org), 'x-service-version': version });

  it('platform_url appears from 2024-04-30 on', async () => {
    for (const [version, present] of [['2024-08-31', true], ['2024-04-30', true], ['2023-03-14', false], ['2023-02-07', false]] as const) {
      const bills = json(await at(version, `/accounting/bills?access_token=${token}&limit=3`)).bills as Record<string, unknown>[];
      expect(bills.length).toBe(3);
      for (const bill of bills) expect('platform_url' in bill, version).toBe(present);
    }
  });

  it('next_cursor is null on the last page from 2023-03-14 on, and left out before', async () => {
    const last = (version: string) => at(version, `/accounting/currencies?access_token=${token}&limit=500`);
    expect(json(await last('2023-03-14')).next_cursor).toBeNull();
    expect('next_cursor' in json(await last('2023-02-07'))).toBe(false);
    expect(typeof json(await at('2023-02-07', `/accounting/bills?access_token=${token}&limit=2`)).next_cursor).toBe('string');
  });

  it('journal entry currency_rate is a number from 2024-08-31 and decimal text before', async () => {
    await t.db.pool.query(`UPDATE records SET data = data || '{"currency_rate": 1.25}' WHERE connection_id = $1 AND object_type = 'journal_entry'`, [connection.id]);
    const newest = json(await at('2024-08-31', `/accounting/journal_entries?access_token=${token}&limit=2`)).journal_entries as { currency_rate: unknown }[];
    expect(newest.map((j) => j.currency_rate)).toEqual([1.25, 1.25]);
    const older = json(await at('2024-04-30', `/accounting/journal_entries?access_token=${token}&limit=2`)).journal_entries as { currency_rate: unknown }[];
    expect(older.map((j) => j.currency_rate)).toEqual(['1.25', '1.25']);
    const one = json(await at('2024-04-30', `/accounting/journal_entries/${String((newest[0] as { id?: string }).id)}?access_token=${token}`)).journal_entry as { currency_rate: unknown };
    expect(one.currency_rate).toBe('1.25');
  });
});

describe('attachments', () => {
  it('list by attached_to_id and download through a signed file_url', async () => {
    const all = json(await get(`/accounting/journal_entries/attachments?access_token=${token}&limit=5`)).attachments as { id: string; attached_to_id: string; file_url: string; file_name: string }[];
    const first = all[0];
    if (first === undefined) throw new Error('no attachments');
    const mine = json(await get(`/accounting/journal_entries/attachments?access_token=${token}&attached_to_id=${first.attached_to_id}`)).attachments as { attached_to_id: string }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.attached_to_id === first.attached_to_id)).toBe(true);
    const url = new URL(first.file_url);
    expect(url.pathname).toBe(`/files/${first.id}`);
    const download = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBeGreaterThan(0);
    expect(download.headers['content-disposition']).toContain('attachment; filename=');
    const source = (await t.db.pool.query<{ f: string }>(`SELECT data->>'file_url' AS f FROM records WHERE id = $1`, [first.id])).rows[0]?.f ?? '';
    expect(download.rawPayload.equals(Buffer.from(source.slice(source.indexOf(',') + 1), 'base64'))).toBe(true);
    const forged = await t.app.inject({ method: 'GET', url: `${url.pathname}?expires=${url.searchParams.get('expires') ?? ''}&signature=forged` });
    expect(forged.statusCode).toBe(401);
    const expired = await t.app.inject({ method: 'GET', url: `${url.pathname}?expires=1&signature=${url.searchParams.get('signature') ?? ''}` });
    expect(expired.statusCode).toBe(401);
  });

  it('take updated_at_min and updated_at_max on their creation time (an attachment is never updated)', async () => {
    type Listed = { id: string; created_at: string | null };
    const list = async (query: string): Promise<Listed[]> => json(await get(`/accounting/journal_entries/attachments?access_token=${token}&limit=500${query}`)).attachments as Listed[];
    const all = await list('');
    expect(all.length).toBeGreaterThan(1);
    expect((await list('&updated_at_min=0')).map((a) => a.id).sort()).toEqual(all.map((a) => a.id).sort());
    const times = all.map((a) => Date.parse(a.created_at ?? '')).sort((a, b) => a - b);
    const pivot = times[Math.floor(times.length / 2)] ?? 0;
    const older = await list(`&updated_at_max=${pivot}`);
    const newer = await list(`&updated_at_min=${pivot}`);
    expect(older.length).toBeGreaterThan(0);
    expect(older.every((a) => Date.parse(a.created_at ?? '') <= pivot)).toBe(true);
    expect(newer.every((a) => Date.parse(a.created_at ?? '') >= pivot)).toBe(true);
    expect(new Set([...older, ...newer].map((a) => a.id)).size).toBe(all.length);
  });
});

describe('balance sheets', () => {
  it('are monthly and honour the deprecated start_date and end_date (inclusive)', async () => {
    const all = json(await get(`/accounting/balance_sheets?access_token=${token}&limit=500`)).balance_sheets as { start_date: string; end_date: string; total_assets: string; total_liabilities: string; total_equity: string }[];
    expect(all.length).toBeGreaterThan(3);
    for (const sheet of all) {
      expect(Number(sheet.total_assets)).toBeCloseTo(Number(sheet.total_liabilities) + Number(sheet.total_equity), 2);
    }
    const months = all.map((s) => s.start_date.slice(0, 7)).sort();
    const from = months[1] ?? '';
    const to = months[2] ?? '';
    const ranged = json(await get(`/accounting/balance_sheets?access_token=${token}&start_date=${from}-01&end_date=${to}-27`)).balance_sheets as { start_date: string }[];
    expect(ranged.map((s) => s.start_date.slice(0, 7)).sort()).toEqual([from]);
    const toEnd = all.find((sheet) => sheet.start_date.startsWith(to))?.end_date.slice(0, 10) ?? '';
    const whole = json(await get(`/accounting/balance_sheets?access_token=${token}&start_date=${from}-01&end_date=${toEnd}`)).balance_sheets as { start_date: string }[];
    expect(whole.map((s) => s.start_date.slice(0, 7)).sort()).toEqual([from, to]);
    expect((await get(`/accounting/balance_sheets?access_token=${token}&start_date=yesterday`)).statusCode).toBe(400);
  });
});

type Row = { account_id: string; name: string; value: number; items: Row[] };
const REPORTS = [
  { path: '/accounting/balance_sheets', key: 'balance_sheets', type: 'balance_sheet' },
  { path: '/accounting/income_statements', key: 'income_statements', type: 'income_statement' },
  { path: '/accounting/cash_flow_statements', key: 'cash_flows', type: 'cash_flow_statement' },
] as const;

describe('income statements and cash flow statements', () => {
  it('are monthly, like balance sheets, with the reference\'s list keys and amounts as numbers', async () => {
    const sheets = json(await get(`/accounting/balance_sheets?access_token=${token}&limit=500`)).balance_sheets as { start_date: string }[];
    const incomes = json(await get(`/accounting/income_statements?access_token=${token}&limit=500`)).income_statements as Record<string, unknown>[];
    const flows = json(await get(`/accounting/cash_flow_statements?access_token=${token}&limit=500`)).cash_flows as Record<string, unknown>[];
    const months = (list: readonly { start_date?: unknown }[]): string[] => list.map((s) => String(s.start_date).slice(0, 7)).sort();
    expect(months(incomes)).toEqual(months(sheets));
    expect(months(flows)).toEqual(months(sheets));
    for (const income of incomes) {
      expect(Value.Check(MODEL.income_statement.schema, income)).toBe(true);
      expect(income).toMatchObject({ accounting_standard: 'accrual', platform_url: null });
      expect(typeof income.net_income).toBe('number');
      expect(typeof (income.income as Row).value).toBe('number');
      expect(Math.round((Number(income.total_income) - Number(income.total_cost_of_sales) - Number(income.total_expenses)) * 100)).toBe(Math.round(Number(income.net_income) * 100));
    }
    for (const flow of flows) {
      expect(Math.round((Number(flow.starting_balance) + Number(flow.total_operating) + Number(flow.total_investing) + Number(flow.total_financing)) * 100))
        .toBe(Math.round(Number(flow.ending_balance) * 100));
    }
    // The trees link rows to accounts by service id; section rows have "".
    const rows = (row: Row): Row[] => [row, ...row.items.flatMap(rows)];
    const linked = incomes.flatMap((i) => rows(i.income as Row)).filter((r) => r.account_id !== '');
    expect(linked.length).toBeGreaterThan(0);
    const accounts = new Set((await t.db.pool.query<{ id: string }>(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'account'`, [connection.id])).rows.map((r) => r.id));
    expect(linked.every((r) => accounts.has(r.account_id))).toBe(true);
  });

  it('honour start_date and end_date, and refuse bad dates and a bad response_mode listing every value', async () => {
    for (const report of REPORTS) {
      const all = json(await get(`${report.path}?access_token=${token}&limit=500`))[report.key] as { start_date: string; end_date: string }[];
      const months = all.map((s) => s.start_date.slice(0, 7)).sort();
      const from = months[1] ?? '';
      const ranged = json(await get(`${report.path}?access_token=${token}&start_date=${from}-01&end_date=${from}-27`))[report.key] as { start_date: string }[];
      expect(ranged, report.path).toEqual([]);
      const end = all.find((s) => s.start_date.startsWith(from))?.end_date.slice(0, 10) ?? '';
      const month = json(await get(`${report.path}?access_token=${token}&start_date=${from}-01&end_date=${end}`))[report.key] as { start_date: string }[];
      expect(month.map((s) => s.start_date.slice(0, 7)), report.path).toEqual([from]);
      for (const bad of ['start_date=yesterday', 'end_date=2024-02-30', 'start_date=2024-13-01', 'end_date=0000-01-01']) {
        const response = await get(`${report.path}?access_token=${token}&${bad}`);
        expect(response.statusCode, `${report.path} ${bad}`).toBe(400);
        expect(errorBody(response).error_code).toBe('VALIDATION_ERROR');
      }
      const mode = await get(`${report.path}?access_token=${token}&response_mode=later`);
      expect(mode.statusCode).toBe(400);
      expect(errorBody(mode).error_message).toContain('prefer_sync');
      expect(errorBody(mode).error_message).toContain('async');
    }
  });

  it('refuse missing auth, a missing access token and another organisation\'s access token', async () => {
    const otherOrg = await t.newOrg('Reports other');
    for (const report of REPORTS) {
      const unauthenticated = await t.app.inject({ method: 'GET', url: `/versioned${report.path}?access_token=${token}`, headers: { 'x-service-version': '2024-08-31' } });
      expect(unauthenticated.statusCode, report.path).toBe(401);
      const noToken = await get(report.path);
      expect(errorBody(noToken).error_code).toBe('MISSING_ACCESS_TOKEN');
      const foreign = await get(`${report.path}?access_token=${token}`, clientHeaders(otherOrg));
      expect(foreign.statusCode, report.path).toBe(401);
      expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
      expect(foreign.body).not.toContain(connection.id);
    }
  });
});

describe('statements with response_mode=async', () => {
  it('answer 202 with async_response; the job, from any process and only for its organisation, holds the synchronous answer', async () => {
    for (const report of REPORTS) {
      const query = `access_token=${token}&start_date=2000-01-01&expand=platform_data`;
      const sync = await get(`${report.path}?${query}`);
      expect(sync.statusCode).toBe(200);
      const preferSync = await get(`${report.path}?${query}&response_mode=prefer_sync`);
      expect(preferSync.statusCode).toBe(200);
      expect(json(preferSync)).toEqual(json(sync));
      const response = await get(`${report.path}?${query}&response_mode=async`);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(202);
      const asyncAnswer = json(response).async_response as { id: string; status: string; response_url: string };
      expect(asyncAnswer.status).toBe('success');
      expect(response.headers['x-service-job-id']).toBe(asyncAnswer.id);
      expect(asyncAnswer.response_url).toBe(`${t.services.config.publicUrl}/versioned/jobs/${asyncAnswer.id}`);
      // The job is a row, not process memory: whichever process answers GET /jobs/:id reads it there.
      const stored = await t.db.pool.query<{ operation: string; status: string }>('SELECT operation, status FROM write_jobs WHERE id = $1', [asyncAnswer.id]);
      expect(stored.rows).toEqual([{ operation: 'read', status: 'completed' }]);
      const job = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${asyncAnswer.id}`, headers: clientHeaders(t.org) }));
      expect(job).toMatchObject({ id: asyncAnswer.id, status: 'success', request: { method: 'GET', url: `${t.services.config.publicUrl}/versioned${report.path}?start_date=2000-01-01&expand=platform_data&response_mode=async` } });
      expect(JSON.stringify(job)).not.toContain(token);
      expect(job.response).toEqual({ http_status: 200, body: json(sync) });
    }
  });

  it('keep another organisation\'s job as not found as a write\'s job, and announce JOB_COMPLETED', async () => {
    const response = await get(`/accounting/income_statements?access_token=${token}&response_mode=async`);
    const id = (json(response).async_response as { id: string }).id;
    const otherOrg = await t.newOrg('Report jobs other');
    const theirs = await t.app.inject({ method: 'GET', url: `/versioned/jobs/${id}`, headers: clientHeaders(otherOrg) });
    expect(theirs.statusCode).toBe(410);
    expect(errorBody(theirs).error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await t.app.inject({ method: 'GET', url: `/versioned/jobs/${id}`, headers: { 'x-service-version': '2024-08-31' } })).statusCode).toBe(401);
    const events = await t.db.pool.query<{ code: string }>(`SELECT code FROM events WHERE connection_id = $1 AND payload->'job'->>'id' = $2`, [connection.id, id]);
    expect(events.rows.map((e) => e.code)).toEqual(['JOB_COMPLETED']);
  });

  it('stay synchronous on lists that are not statements', async () => {
    const bills = await get(`/accounting/bills?access_token=${token}&response_mode=async&limit=1`);
    expect(bills.statusCode).toBe(200);
    expect(json(bills).bills).toHaveLength(1);
  });
});

describe('filter and sort', () => {
  type Bill = { id: string; status: string; due_date: string | null; document_number: string | null; total_amount: number; vendor_id: string | null };
  const bills = async (query: string) => {
    const response = await get(`/accounting/bills?access_token=${token}&limit=500&${query}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return json(response).bills as Bill[];
  };

  it('apply every operator on bills as the data says', async () => {
    const all = await bills('');
    const open = all.filter((b) => b.status === 'open');
    expect(open.length).toBeGreaterThan(0);
    expect((await bills(`filter=${encodeURIComponent('status = "open"')}`)).map((b) => b.id).sort()).toEqual(open.map((b) => b.id).sort());
    expect((await bills(`filter=${encodeURIComponent('status != "open"')}`)).length).toBe(all.length - open.length);
    const pivot = all.find((b) => b.due_date !== null)?.due_date ?? '';
    const later = await bills(`filter=${encodeURIComponent(`due_date > "${pivot}"`)}`);
    expect(later.every((b) => b.due_date !== null && Date.parse(b.due_date) > Date.parse(pivot))).toBe(true);
    expect(later.length).toBe(all.filter((b) => b.due_date !== null && Date.parse(b.due_date) > Date.parse(pivot)).length);
    const number = all[0]?.document_number ?? '';
    expect((await bills(`filter=${encodeURIComponent(`document_number = "${number}" OR status = "void"`)}`)).length)
      .toBe(all.filter((b) => b.document_number === number || b.status === 'void').length);
  });

  it('sort on an F field, paging stably through ties', async () => {
    const sorted = await bills('sort=due_date%20ASC');
    const dates = sorted.map((b) => (b.due_date === null ? -Infinity : Date.parse(b.due_date)));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const body = json(await get(`/accounting/bills?access_token=${token}&limit=13&sort=status&filter=${encodeURIComponent('status != "void"')}${cursor === '' ? '' : `&cursor=${cursor}`}`));
      seen.push(...(body.bills as Bill[]).map((b) => b.id));
      cursor = body.next_cursor as string | null;
    }
    const expected = (await bills(`filter=${encodeURIComponent('status != "void"')}`)).length;
    expect(seen.length).toBe(expected);
    expect(new Set(seen).size).toBe(expected);
  });

  it('refuse bad filters and sorts with what to fix, and never fail on injection', async () => {
    const before = await t.db.pool.query<{ n: number; h: string }>(`SELECT count(*)::int AS n, md5(string_agg(content_hash::text, ',' ORDER BY id)) AS h FROM records WHERE connection_id = $1`, [connection.id]);
    const bad = await get(`/accounting/bills?access_token=${token}&filter=${encodeURIComponent('amount > 5')}`);
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).error_code).toBe('INVALID_FILTER');
    expect(errorBody(bad).error_message).toMatch(/Unknown field "amount".*filterable fields/);
    expect((await get(`/accounting/bills?access_token=${token}&sort=memo`)).statusCode).toBe(400);
    for (const attack of [`document_number = "x' OR 1=1 --"`, `document_number = "\\" OR 1=1"`, `name; DROP TABLE records = "x"`]) {
      const response = await get(`/accounting/bills?access_token=${token}&filter=${encodeURIComponent(attack)}`);
      expect([200, 400]).toContain(response.statusCode);
      if (response.statusCode === 200) expect(json(response).bills).toEqual([]);
    }
    const after = await t.db.pool.query<{ n: number; h: string }>(`SELECT count(*)::int AS n, md5(string_agg(content_hash::text, ',' ORDER BY id)) AS h FROM records WHERE connection_id = $1`, [connection.id]);
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});

describe('links', () => {
  it('are service ids that their endpoints serve, every link of every stored object (test/support/links.ts)', async () => {
    expect(await linkProblems(t, connection.id)).toEqual([]);
  }, 300_000);
});
