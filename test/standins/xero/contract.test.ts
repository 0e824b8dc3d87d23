/**
 * The stand-in's contract validator: what it lets through and what it
 * refuses, so a green Xero run means the connector's traffic fits Xero's
 * published contract, not just the stand-in's leniency.
 */
import { describe, expect, it } from 'vitest';
import { convertNullable, xeroContract, type RequestParts } from './contract.ts';

const contract = xeroContract();
const TENANT = { 'xero-tenant-id': 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58' };

function request(parts: Partial<RequestParts> & { path?: string; method?: string }): { problems: string[]; operation: string } {
  const found = contract.find('accounting', parts.method ?? 'PUT', parts.path ?? '/Invoices');
  if (found === null) throw new Error('no operation');
  const problems = contract.validateRequest(found.operation, {
    pathParams: found.pathParams,
    query: parts.query ?? new URLSearchParams(),
    headers: parts.headers ?? TENANT,
    contentType: parts.contentType ?? (parts.body === undefined ? null : 'application/json'),
    body: parts.body,
  });
  return { problems, operation: found.operation.id };
}

const invoice = {
  Invoices: [
    {
      Type: 'ACCPAY',
      Contact: { ContactID: '430fa14a-f945-44d3-9f97-5df5e28441b8' },
      Date: '2024-05-01',
      DueDate: '2024-05-31',
      LineAmountTypes: 'NoTax',
      LineItems: [{ Description: 'Tyres', Quantity: 2, UnitAmount: 20, AccountCode: '400' }],
      Status: 'AUTHORISED',
    },
  ],
};

describe('Xero contract validator', () => {
  it('accepts a correct invoice create and names its operation', () => {
    expect(request({ body: invoice })).toEqual({ problems: [], operation: 'createInvoices' });
  });

  it('refuses a body whose Invoices is not an array', () => {
    const { problems } = request({ body: { Invoices: 'nope' } });
    expect(problems).toEqual(['body/Invoices must be array']);
  });

  it('refuses wrong types and enum values inside the body', () => {
    const bad = { Invoices: [{ ...invoice.Invoices[0], Status: 'OPEN', LineItems: [{ Quantity: 'two' }] }] };
    const { problems } = request({ body: bad });
    expect(problems).toContain('body/Invoices/0/LineItems/0/Quantity must be number');
    expect(problems).toContain('body/Invoices/0/Status must be equal to one of the allowed values');
  });

  it('requires the body, the xero-tenant-id header and path parameters of the right format', () => {
    expect(request({}).problems).toEqual(['the request body is required']);
    expect(request({ body: invoice, headers: {} }).problems).toEqual(['header parameter xero-tenant-id is required']);
    const byId = request({ method: 'GET', path: '/Invoices/not-a-uuid' });
    expect(byId.problems).toEqual(['path parameter InvoiceID must match format "uuid"']);
  });

  it('types query parameters and refuses ones the contract does not have', () => {
    const get = (query: string) => request({ method: 'GET', path: '/Invoices', query: new URLSearchParams(query) }).problems;
    expect(get('page=2&where=Type%3D%3D%22ACCPAY%22&order=UpdatedDateUTC%20ASC')).toEqual([]);
    expect(get('page=two')).toEqual(['query parameter page must be integer']);
    expect(get('pageSize=500')).toEqual(['query parameter pageSize is not in the contract of GET /Invoices']);
    expect(get('IDs=00000000-0000-0000-0000-000000000000,nope')).toEqual(['query parameter IDs/1 must match format "uuid"']);
  });

  it('checks If-Modified-Since as a date-time', () => {
    const withSince = (since: string) => request({ method: 'GET', path: '/Invoices', headers: { ...TENANT, 'if-modified-since': since } }).problems;
    expect(withSince('2024-05-01T10:00:00.000Z')).toEqual([]);
    expect(withSince('yesterday')).toEqual(['header parameter If-Modified-Since must match format "date-time"']);
  });

  it('prefers literal paths and valid path parameters', () => {
    expect(contract.find('accounting', 'GET', '/Reports/BalanceSheet')?.operation.id).toBe('getReportBalanceSheet');
    expect(contract.find('accounting', 'GET', '/Contacts/8138a266-fb42-49b2-a104-014b7045753d')?.operation.id).toBe('getContact');
    expect(contract.find('accounting', 'GET', '/Contacts/CUST-001')?.operation.id).toBe('getContactByContactNumber');
    expect(contract.find('identity', 'GET', '/connections')?.operation.id).toBe('getConnections');
    expect(contract.find('accounting', 'GET', '/Nowhere')).toBeNull();
  });

  it('validates answers against the response schema of their status', () => {
    const found = contract.find('accounting', 'GET', '/Invoices');
    if (found === null) throw new Error('no operation');
    expect(contract.validateResponse(found.operation, 200, { Invoices: [{ InvoiceID: '046d8a6d-1ae1-4b4d-9340-5601bdf41b87', Total: 46 }] })).toEqual(
      [],
    );
    expect(contract.validateResponse(found.operation, 200, { Invoices: [{ Total: '46' }] })).toEqual([
      'response 200/Invoices/0/Total must be number',
    ]);
    // Statuses the contract does not describe are not judged.
    expect(contract.validateResponse(found.operation, 429, 'slow down')).toEqual([]);
  });

  it('turns OpenAPI nullable into a null type', () => {
    expect(convertNullable({ type: 'string', nullable: true, enum: ['A'] })).toEqual({ type: ['string', 'null'], enum: ['A', null] });
    expect(convertNullable({ $ref: '#/x', nullable: true })).toEqual({ anyOf: [{ $ref: '#/x' }, { type: 'null' }] });
    expect(convertNullable({ properties: { a: { type: 'number', nullable: false } } })).toEqual({
      properties: { a: { type: 'number', nullable: false } },
    });
  });
});
