/** Balance sheet: a monthly statement of assets, liabilities and equity. */
import { Type, type Static, type TSchema } from 'typebox';
import {
  CreatedAtProperty, FreeObject, IdProperty, Nullable, NumericText, PlatformDataProperty, Str, Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export interface BalanceSheetNode {
  /** '' for section and total rows, which stand for no account (the spec types it as a string, not nullable). */
  account_id: string;
  name: string;
  value: string;
  items: BalanceSheetNode[];
}

/**
 * The tree is unrolled to a fixed depth instead of a $ref cycle: a cyclic schema
 * needs an $id, and Ajv rejects the same $id appearing under assets, equity and
 * liabilities. Below the last level, nodes are accepted as free objects.
 */
export const BALANCE_SHEET_TREE_DEPTH = 8;

function treeNode(level: number): TSchema {
  const child = level >= BALANCE_SHEET_TREE_DEPTH
    ? FreeObject('Deeper row of the statement.')
    : treeNode(level + 1);
  return Type.Object(
    {
      account_id: Str('Service id of the account the row stands for; an empty string for section and total rows, which stand for no account.'),
      name: Str('Name of the row.'),
      value: NumericText('Value of the row as decimal text.'),
      items: Type.Array(child, { description: 'Child rows, possibly empty.' }),
    },
    { additionalProperties: false, description: 'Row of the statement with its child rows.' },
  );
}

export const BalanceSheetNodeSchema = Type.Unsafe<BalanceSheetNode>(treeNode(1));

export const BalanceSheetSchema = Type.Object(
  {
    id: IdProperty,
    start_date: Timestamp('First day of the statement period (ISO 8601).'),
    end_date: Timestamp('Last day of the statement period (ISO 8601).'),
    currency_code: Str('ISO 4217 code of the currency of the statement.'),
    total_assets: Nullable(NumericText('Total assets as decimal text.'), 'Total assets as decimal text; null when not given.'),
    total_equity: Nullable(NumericText('Total equity as decimal text.'), 'Total equity as decimal text; null when not given.'),
    total_liabilities: Nullable(NumericText('Total liabilities as decimal text.'), 'Total liabilities as decimal text; null when not given.'),
    assets: BalanceSheetNodeSchema,
    equity: BalanceSheetNodeSchema,
    liabilities: BalanceSheetNodeSchema,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Monthly statement of the assets, equity and liabilities of the business.' },
);

export type BalanceSheet = Static<typeof BalanceSheetSchema>;
