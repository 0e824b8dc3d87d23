import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import { parseVersionHeader, VersionRegistry } from './versioning.ts';

describe('version header', () => {
  it('accepts every published version', () => {
    for (const v of ['2024-08-31', '2024-04-30', '2023-03-14', '2023-02-07']) expect(parseVersionHeader(v)).toBe(v);
  });

  it('rejects a missing header listing the accepted versions', () => {
    expect(() => parseVersionHeader(undefined)).toThrow(/2024-08-31, 2024-04-30, 2023-03-14, 2023-02-07/);
    try {
      parseVersionHeader(undefined);
    } catch (e) {
      expect((e as ServiceError).code).toBe('MISSING_VERSION');
    }
  });

  it('rejects an unknown version', () => {
    expect(() => parseVersionHeader('2025-01-01')).toThrow(ServiceError);
    expect(() => parseVersionHeader('latest')).toThrow(/not a published version/);
  });
});

describe('version registry', () => {
  it('applies downgrades newest first, only below their version and only on their routes', () => {
    const registry = new VersionRegistry();
    const calls: string[] = [];
    registry.register({
      since: '2023-03-14',
      description: 'b',
      appliesTo: (r) => r === 'GET /x',
      downgrade: (body) => {
        calls.push('2023-03-14');
        return { ...(body as object), b: true };
      },
      downgradeSchema: (schema) => ({ ...schema, b: true }),
    });
    registry.register({
      since: '2024-08-31',
      description: 'a',
      appliesTo: (r) => r === 'GET /x',
      downgrade: (body) => {
        calls.push('2024-08-31');
        return { ...(body as object), a: true };
      },
      downgradeSchema: (schema) => ({ ...schema, a: true }),
    });
    expect(registry.render('GET /x', '2024-08-31', {})).toEqual({});
    expect(registry.render('GET /x', '2024-04-30', {})).toEqual({ a: true });
    expect(registry.render('GET /x', '2023-02-07', {})).toEqual({ a: true, b: true });
    expect(calls).toEqual(['2024-08-31', '2024-08-31', '2023-03-14']);
    expect(registry.render('GET /y', '2023-02-07', { z: 1 })).toEqual({ z: 1 });
    expect(registry.affects('GET /x', '2024-04-30')).toBe(true);
    expect(registry.affects('GET /x', '2024-08-31')).toBe(false);
  });
});
