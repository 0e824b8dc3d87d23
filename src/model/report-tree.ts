/**
 * The row tree of the financial statements (balance sheets, income statements, cash flow statements): a row has
 * the account it stands for, a name, a value and child rows.
 *
 * The tree is unrolled to a fixed depth instead of a $ref cycle: a cyclic schema needs an $id, and Ajv rejects the
 * same $id appearing under several sections. Below the last level, rows are accepted as free objects.
 */
import { Type, type TSchema } from 'typebox';
import { FreeObject, Str } from './shared.ts';

export const REPORT_TREE_DEPTH = 8;

/** A row of a statement whose value is `V` (decimal text on balance sheets, a number on the other statements). */
export interface ReportNode<V> {
  /** '' for section and total rows, which stand for no account (the spec types it as a string, not nullable). */
  account_id: string;
  name: string;
  value: V;
  items: ReportNode<V>[];
}

/** The schema of a row and its children, each row's value described by `value()`. */
export function reportTree(value: () => TSchema, level = 1): TSchema {
  const child = level >= REPORT_TREE_DEPTH ? FreeObject('Deeper row of the statement.') : reportTree(value, level + 1);
  return Type.Object(
    {
      account_id: Str('Service id of the account the row stands for; an empty string for section and total rows, which stand for no account.'),
      name: Str('Name of the row.'),
      value: value(),
      items: Type.Array(child, { description: 'Child rows, possibly empty.' }),
    },
    { additionalProperties: false, description: 'Row of the statement with its child rows.' },
  );
}

/** Links of a statement: the account of every row of each section, "" meaning none. */
export function reportTreeLinks(...sections: string[]): { path: string; targets: ['account']; recursive: 'items'; emptyIsNone: true }[] {
  return sections.map((section) => ({ path: `${section}.account_id`, targets: ['account'], recursive: 'items', emptyIsNone: true }));
}
