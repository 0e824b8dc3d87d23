/** docs/filtering.md stays true: its examples compile and its error table shows the real messages. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFilterFor, jsonbFieldSql } from './model-query.ts';

const doc = readFileSync(new URL('../../docs/filtering.md', import.meta.url), 'utf8');
const options = { fieldSql: jsonbFieldSql('data'), paramOffset: 0 };

function firstCodeBlockAfter(heading: string): string[] {
  const section = doc.split(heading)[1]?.split('```')[1] ?? '';
  return section.trim().split('\n');
}

describe('docs/filtering.md', () => {
  it.each([
    ['bill', '### Bills'],
    ['account', '### Accounts'],
    ['customer', '### Customers'],
  ] as const)('%s examples compile', (type, heading) => {
    const examples = firstCodeBlockAfter(heading);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const filter of examples) expect(compileFilterFor(type, filter, options)).toBeDefined();
  });

  it('error examples show the messages the service gives', () => {
    const table = doc.split('| Filter (bills) | Message |')[1]?.split('\n## ')[0] ?? '';
    const rows = table
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => /^\| `(.*)` \| (.*) \|$/.exec(row));
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      const [, filter = '', message = ''] = row ?? [];
      expect(() => compileFilterFor('bill', filter, options)).toThrow(message);
    }
  });
});
