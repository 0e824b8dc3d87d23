/**
 * The connector's types of Xero's records: the views of the contract are generated (./generated/types.ts, from
 * ./selection.ts by scripts/gen-xero-contract.ts); here are only the records the connector composes itself.
 */
import type { XeroAttachment, XeroReportRow } from './generated/types.ts';

export type * from './generated/types.ts';

/**
 * An attachment as the connector stores it: Xero's attachment record plus the
 * record it hangs on, in Xero's own nesting style (Payment.Invoice, …), since
 * the attachment listing is per parent and does not name it.
 */
export interface XeroStoredAttachment extends XeroAttachment {
  Invoice?: { InvoiceID: string; Type: string };
  ManualJournal?: { ManualJournalID: string };
  BankTransfer?: { BankTransferID: string };
}

/**
 * One month of a report as the connector stores it: the columns of Xero's
 * multi-period BalanceSheet or ProfitAndLoss report cut into one record per period end.
 */
export interface XeroStoredReport {
  ReportID: string;
  ReportName: string | null;
  ReportTitles: string[];
  UpdatedDateUTC: string | null;
  PeriodStart: string;
  PeriodEnd: string;
  BaseCurrency: string | null;
  /** The report's rows with two cells each: the label and this period's value. */
  Rows: XeroReportRow[];
}
