/** Balance sheet: a monthly statement of assets, liabilities and equity. */
import { Type, type Static } from 'typebox';
import { REPORT_TREE_DEPTH, reportTree, type ReportNode } from './report-tree.ts';
import { CreatedAtProperty, IdProperty, Nullable, NumericText, PlatformDataProperty, Str, Timestamp, UpdatedAtProperty } from './shared.ts';

export type BalanceSheetNode = ReportNode<string>;

export const BALANCE_SHEET_TREE_DEPTH = REPORT_TREE_DEPTH;

export const BalanceSheetNodeSchema = Type.Unsafe<BalanceSheetNode>(reportTree(() => NumericText('Value of the row as decimal text.')));

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
