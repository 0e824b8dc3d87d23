import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedOpenApiDocument } from '../../test/support/openapi-document.ts';
import type { ApiDocument } from './api-snapshot.ts';

const run = promisify(execFile);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

function stdoutOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'stdout' in error && typeof error.stdout === 'string') return error.stdout;
  throw error;
}

interface NamedOperation {
  operationId?: string;
}

// Redocly's recommended rules (redocly.yaml) on the document the service serves, as an operator's deployment
// serves it (its own PUBLIC_URL in `servers`, not the localhost default).
describe('/openapi.json', () => {
  let directory = '';
  let document: ApiDocument;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ledgerport-openapi-lint-'));
    ({ document } = await servedOpenApiDocument({ PUBLIC_URL: 'https://ledgerport.acme.test' }));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('passes Redocly lint with the recommended rules, no error and no warning', async () => {
    const file = join(directory, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const redocly = join(import.meta.dirname, '../../node_modules/.bin/redocly');
    const config = join(import.meta.dirname, '../../redocly.yaml');
    // Exit status 1 when an error is found: the report says which, so read it either way.
    const output = await run(redocly, ['lint', file, '--config', config, '--format', 'json', '--max-problems', '1000'], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: unknown) => ({ stdout: stdoutOf(error) }));
    const report = JSON.parse(output.stdout) as LintReport;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
    expect(report.totals).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
  });

  it('names every operation once', () => {
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = operations[method] as NamedOperation | undefined;
        if (operation === undefined) continue;
        expect(operation.operationId, `${method.toUpperCase()} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(operation.operationId ?? '');
      }
    }
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
    expect(ids.length).toBeGreaterThan(190);
  });
});
