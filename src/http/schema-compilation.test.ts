import { describe, expect, it } from 'vitest';
import { adminEndpoints, publicEndpoints, versionedEndpoints } from '../api/routes.ts';
import { routeSchema } from './contract.ts';
import { buildSerializer } from './serialization.ts';
import { validatorCompiler } from './validation.ts';

// Schemas compile on a route's first request (docs/architecture.md), so a schema AJV or
// fast-json-stringify rejects would no longer stop the start: this test is that check now.
describe('route schemas', () => {
  const endpoints = [...publicEndpoints, ...adminEndpoints, ...versionedEndpoints];

  // Every schema of about 200 routes: over 30 s on a loaded machine.
  it('every request and response schema of every endpoint compiles', { timeout: 180_000 }, () => {
    const problems: string[] = [];
    for (const { contract } of endpoints) {
      const schema = routeSchema(contract);
      const where = `${contract.method} ${contract.url}`;
      for (const httpPart of ['params', 'querystring', 'body', 'headers'] as const) {
        const part = schema[httpPart];
        if (part === undefined) continue;
        try {
          // The first call compiles.
          validatorCompiler({ schema: part, httpPart, method: contract.method, url: contract.url })(undefined);
        } catch (error) {
          problems.push(`${where} ${httpPart}: ${String(error)}`);
        }
      }
      for (const [status, response] of Object.entries(schema.response as Record<string, object>)) {
        try {
          buildSerializer(response);
        } catch (error) {
          problems.push(`${where} ${status}: ${String(error)}`);
        }
      }
    }
    expect(endpoints.length).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
