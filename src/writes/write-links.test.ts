import { describe, expect, it } from 'vitest';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { writeLinks } from './check-input.ts';
import { objectInputSchema } from './input-schemas.ts';
import { WRITABLE } from './writable.ts';

type Json = Record<string, unknown>;

/** Id-like fields of write bodies that name no stored record: the bank's own ids and payment network names. */
const NOT_REFERENCES: Readonly<Partial<Record<UnifiedObjectType, readonly string[]>>> = {
  bank_feed_account: ['contact_id', 'internal_bank_account_id', 'payment_network_ids[]'],
  // The platform's variant ids, as products serve them: checked against the stored products (checkVariants).
  order: ['line_items[].variant_id'],
};

/** Paths (`line_items[].account_id`) of the string fields named `id`, `*_id` or `*_ids` a write body may carry. */
function idFields(schema: unknown, path = '', name = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Json;
  const found: string[] = [];
  if (s.type === 'string' && (name === 'id' || name.endsWith('_id') || name.endsWith('_ids'))) found.push(path);
  if (Array.isArray(s.anyOf)) for (const branch of s.anyOf) found.push(...idFields(branch, path, name));
  if (s.type === 'array') found.push(...idFields(s.items, `${path}[]`, name));
  if (typeof s.properties === 'object' && s.properties !== null) {
    for (const [key, child] of Object.entries(s.properties)) found.push(...idFields(child, path === '' ? key : `${path}.${key}`, key));
  }
  return found;
}

describe('references of write bodies', () => {
  it.each(Object.keys(WRITABLE) as UnifiedObjectType[])(
    '%s: every id field a create or update may carry is checked against the stored copy',
    (type) => {
      const checked = new Set(writeLinks(type).map((link) => link.path));
      const exempt = new Set(NOT_REFERENCES[type] ?? []);
      for (const operation of ['create', 'update'] as const) {
        const unchecked = [...new Set(idFields(objectInputSchema(type, operation)))].filter((path) => !checked.has(path) && !exempt.has(path));
        expect(unchecked, `${type} ${operation}`).toEqual([]);
      }
    },
  );

  it('checks the account\'s input-only subsidiary_id (PATCH with "0" was queued and failed in the job with a 500)', () => {
    expect(writeLinks('account')).toContainEqual({ path: 'subsidiary_id', targets: ['subsidiary'] });
  });
});
