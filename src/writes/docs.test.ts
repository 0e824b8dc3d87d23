import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderWritableTable, withWritableTable } from './docs.ts';
import { JOB_VIEW_STATUSES, JobSchema } from './job-view.ts';

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

  it('shows the job object as GET /jobs/:id serves it (JobSchema), with its status words', async () => {
    const document = await readFile(new URL('../../docs/writes.md', import.meta.url), 'utf8');
    const section = document.slice(document.indexOf('### Jobs'), document.indexOf('### Webhooks'));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const { properties } = JobSchema;
    const keys = [...Object.keys(properties), ...Object.keys(properties.request.properties), ...Object.keys(properties.response.properties)];
    expect(keys.filter((key) => !example.includes(`"${key}":`))).toEqual([]);
    // Only the job's own keys and the written object's (bill) are quoted keys of the example.
    const quoted = [...example.matchAll(/"([a-z_]+)":/g)].map((m) => m[1]);
    expect(quoted.filter((key) => key !== 'bill' && !keys.includes(key ?? ''))).toEqual([]);
    for (const status of JOB_VIEW_STATUSES) expect(section).toContain(`\`${status}\``);
  });
});
