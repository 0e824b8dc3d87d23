import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { servedOpenApiDocument } from '../../test/support/openapi-document.ts';
import { formatSnapshot, snapshotOf, unexplainedBreakingChanges, type ApiDocument, type ApiSnapshot } from './api-snapshot.ts';
import { API_VERSIONS, VersionRegistry, type JsonSchema } from './versioning.ts';

const REFRESH = 'node scripts/api-snapshot.ts';

describe('the committed snapshot of each version’s response schemas (src/http/api-snapshot.json)', () => {
  let served: { document: ApiDocument; versions: VersionRegistry };
  let recorded: ApiSnapshot;
  beforeAll(async () => {
    served = await servedOpenApiDocument();
    recorded = JSON.parse(await readFile(new URL('api-snapshot.json', import.meta.url), 'utf8')) as ApiSnapshot;
  }, 120_000);

  it('has no breaking change in a published version that a registered version change does not explain', () => {
    const problems = unexplainedBreakingChanges(recorded, served.document, served.versions);
    expect(
      problems,
      'A published version changed shape. Make the change in a new version (register it in src/http/version-changes.ts, docs/versions.md) ' +
        `instead of changing this one; only then run ${REFRESH}.`,
    ).toEqual([]);
  });

  it('is current: additions are recorded too', () => {
    const current = formatSnapshot(snapshotOf(served.document, API_VERSIONS, served.versions));
    expect(
      current === formatSnapshot(recorded),
      `The response schemas changed without breaking anything: run ${REFRESH} and commit src/http/api-snapshot.json.`,
    ).toBe(true);
  });

  it('fails when the served job object renames its status field', () => {
    const changed = structuredClone(served.document);
    const job = changed.paths['/versioned/jobs/{id}']?.get?.responses?.['200']?.content?.['application/json']?.schema;
    expect(job).toBeDefined();
    const properties = (job?.properties ?? {}) as Record<string, JsonSchema>;
    properties.state = properties.status ?? {};
    delete properties.status;
    expect(unexplainedBreakingChanges(recorded, changed, served.versions)).toContain(
      '2024-08-31 GET /versioned/jobs/:id 200.status: removed or renamed',
    );
  });
});

/** A document of one operation, GET /versioned/things/{id}, answering `schema`. */
function documentOf(schema: JsonSchema, extraPaths: ApiDocument['paths'] = {}): ApiDocument {
  return {
    paths: {
      '/versioned/things/{id}': { get: { responses: { '200': { content: { 'application/json': { schema } } }, '404': {} } } },
      ...extraPaths,
    },
  };
}

const thing = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
});

const BEFORE = thing({
  id: { type: 'string', description: 'The id.' },
  amount: { type: 'number' },
  status: { type: 'string', enum: ['pending', 'success', 'failure'] },
  platform: { type: 'string', enum: ['XERO', 'QUICKBOOKS'] },
  paid_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
  lines: { type: 'array', items: thing({ quantity: { type: 'integer' } }) },
});

function withProperty(name: string, schema: JsonSchema | undefined, required?: string[]): JsonSchema {
  const properties = Object.entries(BEFORE.properties as Record<string, JsonSchema>).filter(([key]) => key !== name);
  if (schema !== undefined) properties.push([name, schema]);
  return thing(Object.fromEntries(properties), required ?? properties.map(([key]) => key));
}

/** `amount` renamed `total`. */
function renamedAmount(): JsonSchema {
  const { amount: _renamed, ...rest } = BEFORE.properties as Record<string, JsonSchema>;
  return thing({ ...rest, total: { type: 'number' } });
}

function breaking(after: ApiDocument, registry = new VersionRegistry()): string[] {
  const recorded = snapshotOf(documentOf(BEFORE), ['2024-08-31', '2024-04-30'], registry);
  return unexplainedBreakingChanges(recorded, after, registry);
}

describe('breaking changes by the spec', () => {
  it.each([
    ['a removed field', withProperty('amount', undefined), /\.amount: removed or renamed/],
    ['a renamed field', renamedAmount(), /\.amount: removed or renamed/],
    ['a changed type', withProperty('amount', { type: 'string' }), /\.amount: type changed from number to string/],
    ['a field made nullable', withProperty('amount', { anyOf: [{ type: 'number' }, { type: 'null' }] }), /\.amount: became nullable/],
    [
      'a renamed enum value',
      withProperty('status', { type: 'string', enum: ['pending', 'succeeded', 'failure'] }),
      /\.status: enum values removed or renamed: \["success"\]/,
    ],
    [
      'a new enum value',
      withProperty('status', { type: 'string', enum: ['pending', 'success', 'failure', 'queued'] }),
      /\.status: enum values added: \["queued"\]/,
    ],
    ['an enum opened to any string', withProperty('status', { type: 'string' }), /\.status: enum .* is no longer an enum/],
    [
      'a field that may now be absent',
      withProperty('amount', { type: 'number' }, ['id', 'status', 'platform', 'paid_at', 'lines']),
      /\.amount: was always present, now optional/,
    ],
    [
      'a change inside array items',
      withProperty('lines', { type: 'array', items: thing({ quantity: { type: 'string' } }) }),
      /\.lines\[\]\.quantity: type changed/,
    ],
  ])('%s', (_name, after, expected) => {
    const problems = breaking(documentOf(after));
    // Found in every version the snapshot has.
    expect(problems.filter((p) => expected.test(p)).map((p) => p.split(' ')[0])).toEqual(['2024-08-31', '2024-04-30']);
  });

  it('a removed endpoint', () => {
    expect(breaking({ paths: {} })).toEqual([
      '2024-08-31 GET /versioned/things/:id: endpoint removed',
      '2024-04-30 GET /versioned/things/:id: endpoint removed',
    ]);
  });

  it.each([
    ['a new field', withProperty('memo', { type: 'string' })],
    ['a new platform', withProperty('platform', { type: 'string', enum: ['XERO', 'QUICKBOOKS', 'SAGE'] })],
    ['reworded descriptions', withProperty('id', { type: 'string', description: 'Another word.' })],
    ['a field no longer nullable', withProperty('paid_at', { type: 'string', format: 'date-time' })],
    ['an optional field made required', thing(BEFORE.properties as Record<string, JsonSchema>)],
  ])('not: %s', (_name, after) => {
    expect(breaking(documentOf(after))).toEqual([]);
  });

  it('not: a new endpoint', () => {
    expect(
      breaking(documentOf(BEFORE, { '/versioned/others': { get: { responses: { '200': { content: { 'application/json': { schema: {} } } } } } } })),
    ).toEqual([]);
  });

  it('a change registered for that version explains it, when its downgrade gives back the recorded shape', () => {
    const after = documentOf(renamedAmount());
    const registry = new VersionRegistry();
    const rename = (schema: JsonSchema): JsonSchema => {
      const { total, ...rest } = schema.properties as Record<string, JsonSchema>;
      return thing({ ...rest, amount: total ?? {} });
    };
    registry.register({
      since: '2024-08-31',
      description: 'amount is total',
      appliesTo: (key) => key === 'GET /versioned/things/:id',
      downgrade: (b) => b,
      downgradeSchema: rename,
    });
    const recorded = snapshotOf(documentOf(BEFORE), ['2024-08-31', '2024-04-30'], new VersionRegistry());
    // 2024-04-30 keeps the old shape through the change; 2024-08-31's own change explains its new one.
    expect(unexplainedBreakingChanges(recorded, after, registry)).toEqual([]);
    // Registered for the older version instead, it explains nothing in 2024-08-31.
    const elsewhere = new VersionRegistry();
    elsewhere.register({ since: '2024-04-30', description: 'amount is total', appliesTo: () => true, downgrade: (b) => b, downgradeSchema: rename });
    expect(unexplainedBreakingChanges(recorded, after, elsewhere)).toContain('2024-08-31 GET /versioned/things/:id 200.amount: removed or renamed');
    // A change that does not give back the recorded shape explains nothing either.
    const unrelated = new VersionRegistry();
    unrelated.register({ since: '2024-08-31', description: 'other', appliesTo: () => true, downgrade: (b) => b, downgradeSchema: (s) => s });
    expect(unexplainedBreakingChanges(recorded, after, unrelated)).toContain('2024-08-31 GET /versioned/things/:id 200.amount: removed or renamed');
  });
});
