import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderWritableTable, withWritableTable } from './docs.ts';

describe('docs/writes.md', () => {
  it('carries the writable resources table exactly as the code has it (run node scripts/gen-write-docs.ts when this fails)', async () => {
    const document = await readFile(new URL('../../docs/writes.md', import.meta.url), 'utf8');
    expect(document).toContain(renderWritableTable());
    expect(withWritableTable(document)).toBe(document);
  });

  it('lists every writable resource with its required fields', () => {
    const table = renderWritableTable();
    expect(table).toContain(
      '| journal_entry | `/accounting/journal_entries` | POST, PATCH, DELETE | `transaction_date`, `line_items`, `line_items[].account_id`, `line_items[].total_amount` |',
    );
    expect(table).toContain('| tax_rate | `/accounting/tax_rates` | POST |');
  });
});
