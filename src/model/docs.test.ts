import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decisionAnchor, renderObjectTable, withObjectTable } from './docs.ts';
import { MODEL } from './index.ts';
import { UNIFIED_OBJECT_TYPES } from './object-types.ts';
import { OBJECT_SOURCES } from './reference-pages.ts';

const SPEC = new URL('../../../shared/spec/accounting-resources.md', import.meta.url);

interface SpecSection {
  fields: string[];
  filterable: string[];
  prose: string;
}

/** The spec's object sections: field tables (first column: field names; "F" in the type column: filterable), or prose. */
function specSections(text: string): Map<string, SpecSection> {
  const sections = new Map<string, SpecSection>();
  const parts = text.split(/^### /m).slice(1);
  for (const part of parts) {
    const [heading = '', ...lines] = part.split('\n');
    const fields: string[] = [];
    const filterable: string[] = [];
    for (const line of lines) {
      const cells = line.split('|').map((c) => c.trim());
      if (cells.length < 4 || cells[1] === 'Field' || cells[1]?.startsWith('---')) continue;
      const names = (cells[1] ?? '')
        .split(',')
        .map((n) => n.trim().replace(/ \(.*\)$/, ''))
        .filter((n) => /^[a-z_]+$/.test(n));
      fields.push(...names);
      const type = (cells[2] ?? '').split(',').map((t) => t.trim());
      if (type.includes('F')) filterable.push(...names);
      // "created_at, updated_at, last_synced_at are F" / "F on the three timestamps" in the notes of the shared row.
      const notes = cells[3] ?? '';
      if (/are F|F on the three timestamps/.test(notes))
        filterable.push(...names.filter((n) => ['created_at', 'updated_at', 'last_synced_at'].includes(n)));
    }
    sections.set(heading.trim(), { fields, filterable, prose: lines.join('\n') });
  }
  return sections;
}

function fieldsOf(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  return properties === undefined ? [] : Object.keys(properties);
}

describe('docs/objects.md', () => {
  it('carries the objects table exactly as the code has it (run node scripts/gen-object-docs.ts when this fails)', async () => {
    const document = await readFile(new URL('../../docs/objects.md', import.meta.url), 'utf8');
    expect(document).toContain(renderObjectTable());
    expect(withObjectTable(document)).toBe(document);
  });

  it('names for every object a spec section that exists, a reference page, or a section of reference.md with our decision', async () => {
    const sections = specSections(await readFile(SPEC, 'utf8'));
    const decisions = await readFile(new URL('../../docs/reference.md', import.meta.url), 'utf8');
    for (const type of UNIFIED_OBJECT_TYPES) {
      const source = OBJECT_SOURCES[type];
      if (source.follows === 'spec') expect(sections.has(source.section), `${type}: spec section "${source.section}"`).toBe(true);
      else if (source.follows === 'reference') expect(source.page, type).toMatch(/^https:\/\/docs\.rutter\.com\/rest\/2024-08-31\/[a-z-]+$/);
      else expect(decisions.split('\n'), `${type}: reference.md section "${source.decision}"`).toContain(`## ${source.decision}`);
    }
    expect(decisionAnchor('Exchange rates')).toBe('reference.md#exchange-rates');
  });

  it('has every field of each spec field table in the schema, and filters on every field the spec marks F', async () => {
    const sections = specSections(await readFile(SPEC, 'utf8'));
    const checked: string[] = [];
    for (const type of UNIFIED_OBJECT_TYPES) {
      const source = OBJECT_SOURCES[type];
      if (source.follows !== 'spec') continue;
      const section = sections.get(source.section);
      if (section === undefined || section.fields.length === 0) continue;
      checked.push(type);
      const ours = fieldsOf(MODEL[type].schema);
      expect(
        section.fields.filter((f) => !ours.includes(f)),
        `${type}: spec fields missing from the schema`,
      ).toEqual([]);
      const filterable = Object.keys(MODEL[type].filterable);
      expect(
        section.filterable.filter((f) => !filterable.includes(f)),
        `${type}: spec F fields we do not filter on`,
      ).toEqual([]);
    }
    // The table sections of the spec: a parser that read none would pass vacuously.
    expect(checked.sort()).toEqual([
      'account',
      'attachment',
      'bank_deposit',
      'bank_feed_account',
      'bank_transfer',
      'bill',
      'bill_credit_memo',
      'bill_payment',
      'customer',
      'journal_entry',
      'location',
      'tax_rate',
    ]);
  });

  it('has the fields the spec lists in prose for its smaller objects, filtering on those it marks F', async () => {
    const sections = specSections(await readFile(SPEC, 'utf8'));
    for (const type of ['currency', 'project', 'task', 'tax_agency', 'balance_sheet'] as const) {
      const source = OBJECT_SOURCES[type];
      if (source.follows !== 'spec') throw new Error(`${type} follows the spec`);
      // The sentence listing the fields: "name, other (type, F); next (type); …".
      const sentences = (sections.get(source.section)?.prose ?? '').split(/\.\s/);
      const list = sentences.reduce((best, s) => ((s.match(/;/g) ?? []).length > (best.match(/;/g) ?? []).length ? s : best), '');
      const named: string[] = [];
      const marked: string[] = [];
      for (const chunk of list.replace(/^.*Fields: /, '').split(';')) {
        const types = /\(([^)]*)\)/.exec(chunk)?.[1] ?? '';
        const names = chunk
          .replace(/\([^)]*\)/g, '')
          .split(',')
          .map((n) => n.trim())
          .filter((n) => /^[a-z_]+$/.test(n));
        named.push(...names);
        if (
          types
            .split(',')
            .map((t) => t.trim())
            .includes('F')
        )
          marked.push(...names);
      }
      expect(named.length, `${type}: fields read from the spec`).toBeGreaterThan(3);
      const ours = fieldsOf(MODEL[type].schema);
      expect(
        named.filter((f) => !ours.includes(f)),
        `${type}: fields the spec names`,
      ).toEqual([]);
      const filterable = Object.keys(MODEL[type].filterable);
      expect(
        marked.filter((f) => !filterable.includes(f)),
        `${type}: fields the spec marks F`,
      ).toEqual([]);
    }
  });
});
