import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/http/contract.ts';
import { registerVersionChanges } from '../../src/http/version-changes.ts';
import { VersionRegistry, type JsonSchema } from '../../src/http/versioning.ts';
import { ContractChecker, type ObservedResponse, type OpenApiDocument } from './contract-check.ts';

const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
const BILL = {
  type: 'object',
  required: ['bill'],
  properties: {
    bill: { type: 'object', required: ['id', 'platform_url'], properties: { id: { type: 'string' }, platform_url: { type: 'string' } } },
  },
};
const DOCUMENT: OpenApiDocument = {
  paths: {
    '/versioned/accounting/bills/{id}': { get: { responses: { '200': json(BILL), '410': json({ ...ErrorBodySchema }) } } },
    '/files/{id}': { get: { responses: { '200': { content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } } } },
  },
};

const versions = new VersionRegistry();
registerVersionChanges(versions);
const checker = new ContractChecker(DOCUMENT, versions);

const ERROR = JSON.stringify({ error_type: 'INVALID_REQUEST', error_code: 'RESOURCE_NOT_FOUND', error_message: 'No bill.' });
const base: ObservedResponse = {
  method: 'GET',
  path: '/versioned/accounting/bills/b1',
  route: '/versioned/accounting/bills/:id',
  hasContract: true,
  version: '2024-08-31',
  successStatus: 200,
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ bill: { id: 'b1', platform_url: 'https://books.example/b1' } }),
};
const check = (changes: Partial<ObservedResponse>) => checker.check({ ...base, ...changes });

describe('ContractChecker', () => {
  it('accepts an answer as the document describes it', () => {
    expect(check({})).toEqual([]);
    expect(check({ status: 410, body: ERROR })).toEqual([]);
  });

  it('refuses an undeclared status, even with a good error body', () => {
    expect(check({ status: 400, body: ERROR })).toEqual(['status 400 is not declared (declared: 200, 410)']);
  });

  it('refuses an undeclared content type', () => {
    expect(check({ contentType: 'text/plain' })).toEqual(['content type text/plain is not declared for 200 (declared: application/json)']);
  });

  it('takes an empty answer only for a status the contract lets the route answer without a body', () => {
    const empty = { contentType: undefined, body: '' };
    expect(check({ ...empty, withoutBody: [200] })).toEqual([]);
    expect(check({ ...empty, status: 410, withoutBody: [410] })).toEqual([]);
    expect(check(empty)).toEqual(['content type (none) is not declared for 200 (declared: application/json)']);
    expect(check({ ...empty, status: 410, withoutBody: [200] })).toEqual([
      'error answer with content type (none)',
      'content type (none) is not declared for 410 (declared: application/json)',
    ]);
    expect(check({ contentType: undefined, body: 'text', withoutBody: [200] })).toEqual([
      'content type (none) is not declared for 200 (declared: application/json)',
    ]);
  });

  it('refuses a body that does not fit the schema', () => {
    expect(check({ body: JSON.stringify({ bill: { id: 7, platform_url: 'x' } }) })).toEqual(['body/bill/id must be string {"type":"string"}']);
  });

  it('checks an older version against the schema its registered changes make (no platform_url before 2024-04-30)', () => {
    const older = JSON.stringify({ bill: { id: 'b1' } });
    expect(check({ version: '2023-02-07', body: older })).toEqual([]);
    expect(check({ version: '2024-08-31', body: older })).toEqual([
      'body/bill must have required property \'platform_url\' {"missingProperty":"platform_url"}',
    ]);
  });

  it('checks every error answer against the one error body, routed or not', () => {
    expect(check({ status: 410, body: JSON.stringify({ message: 'gone' }) })).toContain(
      'error body must have required property \'error_type\' {"missingProperty":"error_type"}',
    );
    expect(check({ route: undefined, status: 404, body: ERROR })).toEqual([]);
    expect(check({ route: undefined, status: 404, contentType: 'text/html', body: '<p>no</p>' })).toEqual([
      'error answer with content type text/html',
    ]);
  });

  it('matches media ranges: a file with its own type', () => {
    const file = { path: '/files/f1', route: '/files/:id', version: null, contentType: 'application/pdf', body: null };
    expect(check(file)).toEqual([]);
  });

  it('leaves out routes without a contract and the link pages', () => {
    expect(check({ route: '/dashboard/bills', hasContract: false, status: 500, contentType: 'text/html', body: '<p>oops</p>' })).toEqual([]);
    expect(check({ path: '/link/a/b/c', route: undefined, status: 404, contentType: 'text/html', body: '<p>no</p>' })).toEqual([]);
  });

  it('names a contract route missing from the document', () => {
    expect(check({ route: '/versioned/accounting/invoices/:id' })).toEqual(['the route is not in /openapi.json']);
  });
});
