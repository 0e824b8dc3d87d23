/**
 * The connector's types of QuickBooks Online's records: the views of the contract are generated
 * (./generated/native.ts, from ./selection.ts by scripts/gen-quickbooks-contract.ts); here is only the record the
 * connector composes itself. test/fixtures/quickbooks/README.md says where each answer was recorded from.
 */
import type { QboReportRow } from './generated/native.ts';

export type * from './generated/native.ts';

/**
 * One month of a report (BalanceSheet, ProfitAndLoss, CashFlow) as the connector
 * stores it: the report's header and rows with the values of that month's column only.
 */
export interface QboReportMonth {
  Id: string;
  StartDate: string;
  EndDate: string;
  Currency: string;
  ReportTime?: string;
  /** Accrual or Cash, as the report's header says. */
  ReportBasis?: string;
  Rows: QboReportRow[];
}
