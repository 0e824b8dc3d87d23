/**
 * SANDBOX's monthly statements as the columns of a report over several months, for platforms whose reports keep the
 * statement's tree (QuickBooks' sections within sections): the months of a date range, and the statement trees of
 * those months merged level by level (by account, or by name for rows of no account), each row with its amount in
 * every column. A month with no statement, or a row a month lacks, has no amount in that column.
 */
import type { NativeReportRow } from '../native.ts';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface Period {
  /** "Jan 2025". */
  title: string;
  start: string;
  end: string;
  /** YYYY-MM: the SANDBOX statement of the month. */
  month: string;
}

/** The months from `start` to `end` (YYYY-MM-DD), the first and last cut to the range. */
export function periods(start: string, end: string): Period[] {
  const out: Period[] = [];
  for (let cursor = new Date(`${start.slice(0, 7)}-01T00:00:00Z`); cursor.toISOString().slice(0, 10) <= end;) {
    const next = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1));
    const first = cursor.toISOString().slice(0, 10);
    const last = new Date(next.getTime() - 86_400_000).toISOString().slice(0, 10);
    out.push({
      title: `${MONTH_NAMES[cursor.getUTCMonth()] ?? ''} ${cursor.getUTCFullYear()}`,
      start: first < start ? start : first,
      end: last > end ? end : last,
      month: first.slice(0, 7),
    });
    cursor = next;
  }
  return out;
}

/** A row merged across the columns: its amount in each (undefined where that column lacks it) and its children. */
export interface AlignedRow {
  name: string;
  accountId: string | undefined;
  amounts: (string | undefined)[];
  children: AlignedRow[];
}

const aligned = (name: string, accountId: string | undefined, columns: number): AlignedRow => ({
  name,
  accountId,
  amounts: Array.from({ length: columns }, () => undefined),
  children: [],
});

/** Adds column `index`'s row (and its children) into the merged row. */
function mergeInto(target: AlignedRow, row: NativeReportRow, index: number): void {
  target.amounts[index] = row.Amount;
  for (const child of row.Rows) {
    const key = child.AccountId ?? child.Name;
    let found = target.children.find((c) => (c.accountId ?? c.name) === key);
    if (found === undefined) {
      found = aligned(child.Name, child.AccountId, target.amounts.length);
      target.children.push(found);
    }
    mergeInto(found, child, index);
  }
}

/** One tree per column (undefined: none in that column) merged into one, named `name`. */
export function alignTrees(name: string, trees: readonly (NativeReportRow | undefined)[]): AlignedRow {
  const root = aligned(name, undefined, trees.length);
  trees.forEach((tree, index) => {
    if (tree !== undefined) mergeInto(root, tree, index);
  });
  return root;
}
