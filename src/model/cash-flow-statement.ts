/**
 * Cash flow statement: a monthly statement of the cash the business started and ended with and of the operating,
 * investing and financing activities between. Fields follow the reference (docs/reference.md, "Objects"); amounts
 * are JSON numbers where the reference has decimal text (spec, Shared rules).
 */
import { Type, type Static } from 'typebox';
import { StatementNodeSchema, StatementTotal } from './income-statement.ts';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  PlatformDataProperty,
  PlatformUrlProperty,
  Str,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const CashFlowStatementSchema = Type.Object(
  {
    id: IdProperty,
    start_date: Timestamp('First day of the statement period (ISO 8601).'),
    end_date: Timestamp('Last day of the statement period (ISO 8601).'),
    currency_code: Str('ISO 4217 code of the currency of the statement.'),
    starting_balance: StatementTotal('Cash at the start of the period'),
    ending_balance: StatementTotal('Cash at the end of the period'),
    total_financing: StatementTotal('Net cash from financing activities'),
    total_investing: StatementTotal('Net cash from investing activities'),
    total_operating: StatementTotal('Net cash from operating activities'),
    gross_cash_in_flow: StatementTotal('Cash received in the period'),
    gross_cash_out_flow: StatementTotal('Cash paid out in the period'),
    financing_activities: StatementNodeSchema,
    investing_activities: StatementNodeSchema,
    operating_activities: StatementNodeSchema,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Monthly statement of the cash flows of the business.' },
);

export type CashFlowStatement = Static<typeof CashFlowStatementSchema>;
