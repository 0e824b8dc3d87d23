/**
 * SANDBOX's monthly statements as a report's columns, whatever the platform's layout around them: the month ends a
 * report covers, the leaf rows under a statement row, and the rows of several columns merged by account (or name).
 */
import type { NativeReportRow } from '../native.ts';

/** The last day (YYYY-MM-DD) of the month of `day` and of the `count - 1` months before it, newest first. */
export function monthEnds(day: string, count: number): string[] {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Array.from({ length: count }, (_v, back) =>
    new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back + 1, 0)).toISOString().slice(0, 10),
  );
}

/** Leaf rows (accounts and the net income line) under a row, nested groups flattened. */
export function leaves(row: NativeReportRow): NativeReportRow[] {
  return row.Kind === 'Group' || row.Rows.length > 0 ? row.Rows.flatMap(leaves) : [row];
}

const keyOf = (row: NativeReportRow): string => row.AccountId ?? `name:${row.Name}`;

/** The rows of several columns merged by account (else name), first seen first, with each column's amount (undefined: none). */
export function mergedRows(columns: readonly (readonly NativeReportRow[])[]): { row: NativeReportRow; amounts: (string | undefined)[] }[] {
  const first = new Map<string, NativeReportRow>();
  for (const rows of columns) for (const row of rows) if (!first.has(keyOf(row))) first.set(keyOf(row), row);
  return [...first].map(([key, row]) => ({ row, amounts: columns.map((rows) => rows.find((r) => keyOf(r) === key)?.Amount) }));
}
