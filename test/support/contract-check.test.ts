import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/http/contract.ts';
import { registerVersionChanges } from '../../src/http/version-changes.ts';
import { VersionRegistry, type JsonSchema } from '../../src/http/versioning.ts';
import { ContractChecker, type ObservedResponse, type OpenApiDocument } from './contract-check.ts';
import { ContractValidators } from './contract-validators.ts';

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

describe('ContractValidators shared across the processes of a run', () => {
  // One directory per test, as one run's.
  let root: string;
  let runs = 0;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-contract-validators-test-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const newRun = async () => {
    const dir = path.join(root, String(++runs));
    await mkdir(dir);
    return dir;
  };

  // Formats (ajv-formats), a pattern, an enum, a nested array and a $ref-free union: what the standalone code must
  // reach through its own requires.
  const PAYMENT = {
    type: 'object',
    required: ['id', 'paid_at', 'status', 'lines'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^pay_[a-z0-9]+$' },
      paid_at: { type: 'string', format: 'date-time' },
      status: { type: 'string', enum: ['paid', 'void'] },
      lines: {
        type: 'array',
        items: { type: 'object', required: ['amount'], properties: { amount: { anyOf: [{ type: 'number' }, { type: 'null' }] } } },
      },
    },
  };
  const GOOD = { id: 'pay_1a', paid_at: '2024-05-01T10:00:00Z', status: 'paid', lines: [{ amount: 12.5 }, { amount: null }] };
  const BAD = [
    { ...GOOD, id: 'PAY-1' },
    { ...GOOD, paid_at: '2024-13-01T10:00:00Z' },
    { ...GOOD, status: 'open' },
    { ...GOOD, lines: [{ amount: '12.50' }] },
    { ...GOOD, extra: true },
    { id: 'pay_1a' },
  ];
  const errorsOf = (validators: ContractValidators, body: unknown) => {
    const validate = validators.validatorOf(PAYMENT);
    return validate(body) ? [] : validate.errors;
  };

  it('compiles a schema once per run: the next process loads what the first left, and it refuses exactly the same', async () => {
    const dir = await newRun();
    const first = new ContractValidators(() => dir);
    const compiledErrors = BAD.map((body) => errorsOf(first, body));
    expect(first.counts).toEqual({ compiled: 1, shared: 0 });

    const next = new ContractValidators(() => dir);
    expect(errorsOf(next, GOOD)).toEqual([]);
    expect(next.counts).toEqual({ compiled: 0, shared: 1 });
    const sharedErrors = BAD.map((body) => errorsOf(next, body));
    for (const errors of sharedErrors) expect(errors?.length).toBeGreaterThan(0);
    expect(sharedErrors).toEqual(compiledErrors);
  });

  it('keeps one file per schema text, whatever object holds it', async () => {
    const dir = await newRun();
    new ContractValidators(() => dir).validatorOf(PAYMENT);
    const validators = new ContractValidators(() => dir);
    validators.validatorOf(structuredClone(PAYMENT));
    validators.validatorOf({ ...PAYMENT, required: ['id'] });
    validators.validatorOf({ ...PAYMENT, required: ['id'] });
    expect(validators.counts).toEqual({ compiled: 1, shared: 1 });
    expect((await readdir(dir)).filter((name) => name.endsWith('.cjs'))).toHaveLength(2);
  });

  it('lets the checker refuse an answer outside the document with validators another process compiled', async () => {
    const dir = await newRun();
    const compiling = new ContractValidators(() => dir);
    const loading = new ContractValidators(() => dir);
    const bad = { ...base, body: JSON.stringify({ bill: { id: 7, platform_url: 'x' } }) };
    const badError = { ...base, status: 410, body: JSON.stringify({ message: 'gone' }) };
    expect(new ContractChecker(DOCUMENT, versions, compiling).check(bad)).toEqual(['body/bill/id must be string {"type":"string"}']);
    expect(new ContractChecker(DOCUMENT, versions, compiling).check(badError)).toContain(
      'error body must have required property \'error_type\' {"missingProperty":"error_type"}',
    );
    const checker = new ContractChecker(DOCUMENT, versions, loading);
    expect(checker.check(bad)).toEqual(['body/bill/id must be string {"type":"string"}']);
    expect(checker.check(badError)).toContain('error body must have required property \'error_type\' {"missingProperty":"error_type"}');
    expect(checker.check({ ...base, status: 410, body: ERROR })).toEqual([]);
    expect(checker.check(base)).toEqual([]);
    expect(loading.counts).toEqual({ compiled: 0, shared: 2 });
  });

  it('compiles everything itself without a directory', () => {
    const alone = new ContractValidators(() => undefined);
    expect(errorsOf(alone, BAD[1])?.[0]?.message).toBe('must match format "date-time"');
    expect(alone.counts).toEqual({ compiled: 1, shared: 0 });
  });
});
