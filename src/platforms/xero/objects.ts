/**
 * How each unified object is read from Xero: which endpoint, which filter,
 * what counts as gone, and the mapper. One small entry per object.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectorContext, ObjectCapabilities, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { listOf, XERO_PAGE_SIZE, xeroCall } from './client.ts';
import { parseList } from './contract.ts';
import { xeroDay, xeroMillis } from './dates.ts';
import { isCustomer, isVendor, mapCustomer, mapVendor } from './mapping/contacts.ts';
import { mapBill, mapBillCredit, mapBillPayment, mapInvoice, mapInvoiceCredit, mapInvoicePayment } from './mapping/documents.ts';
import { mapAccount, mapCurrency, mapJournal, mapTaxRate, mapTracking, mapTransfer } from './mapping/ledger.ts';
import { mapEmployee } from './mapping/employees.ts';
import type { Ref } from './mapping/common.ts';
import { mapAttachment, mapBalanceSheet, mapIncomeStatement, mapOrganisation } from './mapping/reports.ts';
import { chartOf, readList, readOrganisation, recordOf, tokenNumber, withAccountIds, withCurrency, type XeroList } from './read.ts';
import type {
  XeroContact,
  XeroCreditNote,
  XeroInvoice,
  XeroLists,
  XeroManualJournal,
  XeroReportRow,
  XeroStoredAttachment,
  XeroStoredReport,
} from './types.ts';
import type { PlatformResponse } from '../http.ts';
import type { Mapped, ObjectReads } from '../objects.ts';
import { baseCurrency, knownBase } from '../readers.ts';

/** ctx.ref detached from ctx. */
const refOf =
  (ctx: ConnectorContext) =>
  (type: UnifiedObjectType, id: string | number | null | undefined): string | null =>
    ctx.ref(type, id);

/** Invoices or credit notes with AccountIDs on their lines (contract 2.9.4 names accounts by code only). */
async function documentRecords<D extends XeroInvoice | XeroCreditNote>(ctx: ConnectorContext, items: D[], id: (d: D) => string | undefined) {
  const chart = await chartOf(ctx);
  return items.map((d) => recordOf(id(d), { ...d, LineItems: withAccountIds(chart, d.LineItems) }, d.Status));
}

export const invoiceRecords = (ctx: ConnectorContext, items: XeroInvoice[]): Promise<PlatformRecord[]> =>
  documentRecords(ctx, items, (i) => i.InvoiceID);

export const creditRecords = (ctx: ConnectorContext, items: XeroCreditNote[]): Promise<PlatformRecord[]> =>
  documentRecords(ctx, items, (c) => c.CreditNoteID);

/**
 * Only posted journals are journal entries: a draft has not touched the ledger (and may never), a voided one no longer
 * does, and the unified entry has no status to tell them apart, so both are gone until a draft is posted. The entries'
 * currency is the organisation's base currency, which a journal does not name: learnt once per job.
 */
export async function journalRecords(ctx: ConnectorContext, items: XeroManualJournal[]): Promise<PlatformRecord[]> {
  const chart = await chartOf(ctx);
  if (items.length > 0) await XERO_BASE.get(ctx);
  return items.map((j) =>
    recordOf(j.ManualJournalID, { ...j, JournalLines: withAccountIds(chart, j.JournalLines) }, j.Status, ['DELETED', 'VOIDED', 'DRAFT']),
  );
}

/** The organisation's base currency, read once per job (a sync or a write) for the mappers, which are synchronous. */
const XERO_BASE = baseCurrency(async (ctx) => (await readOrganisation(ctx)).BaseCurrency);

const invoices = (type: 'ACCPAY' | 'ACCREC'): XeroList<'Invoices'> => ({
  key: 'Invoices',
  paged: true,
  dated: true,
  where: `Type=="${type}"`,
  records: (items, ctx) => invoiceRecords(ctx, items),
});

const credits = (type: 'ACCPAYCREDIT' | 'ACCRECCREDIT'): XeroList<'CreditNotes'> => ({
  key: 'CreditNotes',
  paged: true,
  dated: true,
  where: `Type=="${type}"`,
  records: (items, ctx) => creditRecords(ctx, items),
});

/** Payments on bills or on invoices; refunds of credit notes and over/prepayments are neither. */
const payments = (type: 'ACCPAYPAYMENT' | 'ACCRECPAYMENT', invoiceType: 'ACCPAY' | 'ACCREC'): XeroList<'Payments'> => ({
  key: 'Payments',
  paged: true,
  dated: true,
  where: `PaymentType=="${type}"`,
  records: (items) =>
    items.filter((p) => p.Invoice?.Type === undefined || p.Invoice.Type === invoiceType).map((p) => recordOf(p.PaymentID, p, p.Status)),
});

/** Every contact: those without the role are tombstones, so one that loses it leaves the list. */
const contacts = (hasRole: (c: XeroContact) => boolean): XeroList<'Contacts'> => ({
  key: 'Contacts',
  paged: true,
  query: { includeArchived: true },
  // A contact without the role is left out, never reported gone: a customer that receives a bill becomes a supplier in
  // Xero without ceasing to be a customer of ours (only Xero's archiving ends a contact: status archived).
  records: (items) => items.filter((c) => hasRole(c)).map((c) => recordOf(c.ContactID, c, undefined)),
});

async function readAccounts(ctx: ConnectorContext): Promise<ReadPage> {
  const chart = await chartOf(ctx);
  return { records: chart.map((a) => recordOf(a.AccountID, a, a.Status)), nextPageToken: null };
}

/** Months of statements read per sync: the current one and the eleven before (Xero's maximum of periods). */
export const REPORT_MONTHS = 12;

function monthEnd(year: number, month: number): string {
  return new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
}

/** One column of the report: each row's label cell and the cell of that period. */
function column(rows: readonly XeroReportRow[], index: number): XeroReportRow[] {
  return rows.map((row) => ({
    ...row,
    ...(row.Cells === undefined ? {} : { Cells: [row.Cells[0] ?? {}, row.Cells[index] ?? {}] }),
    ...(row.Rows === undefined ? {} : { Rows: column(row.Rows, index) }),
  }));
}

function storedReport(record: PlatformRecord): XeroStoredReport {
  const raw = record.raw;
  const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    ReportID: textOf(raw.ReportID) ?? 'BalanceSheet',
    ReportName: textOf(raw.ReportName),
    ReportTitles: Array.isArray(raw.ReportTitles) ? raw.ReportTitles.filter((t) => typeof t === 'string') : [],
    UpdatedDateUTC: textOf(raw.UpdatedDateUTC),
    PeriodStart: textOf(raw.PeriodStart) ?? record.platformId.slice(0, 8) + '01',
    PeriodEnd: textOf(raw.PeriodEnd) ?? record.platformId,
    BaseCurrency: textOf(raw.BaseCurrency),
    // The rows as the read stored them from Xero's answer, checked against the contract again rather than cast.
    Rows: Array.isArray(raw.Rows) ? (parseList('Reports', [{ Rows: raw.Rows }], 200)[0]?.Rows ?? []) : [],
  };
}

/** The query of each monthly report: the month ending now and the eleven before. */
function reportQuery(report: 'BalanceSheet' | 'ProfitAndLoss', now: Date): Record<string, string | number> {
  const end = monthEnd(now.getUTCFullYear(), now.getUTCMonth());
  if (report === 'BalanceSheet') return { date: end, periods: REPORT_MONTHS - 1, timeframe: 'MONTH' };
  return { fromDate: `${end.slice(0, 8)}01`, toDate: end, periods: REPORT_MONTHS - 1, timeframe: 'MONTH' };
}

/** A multi-period report (newest column first) cut into one record per month, keyed by the month's last day. */
async function readMonthlyReport(ctx: ConnectorContext, report: 'BalanceSheet' | 'ProfitAndLoss'): Promise<ReadPage> {
  const now = new Date();
  const organisation = await readOrganisation(ctx);
  const response = await xeroCall(ctx, {
    method: 'GET',
    path: `/Reports/${report}`,
    operation: `get ${report} report`,
    query: reportQuery(report, now),
  });
  const [found] = listOf(response, 'Reports');
  if (found === undefined) return { records: [], nextPageToken: null };
  const rows = found.Rows ?? [];
  const periods = Math.max(0, ...rows.map((r) => (r.Cells?.length ?? 1) - 1));
  const records: PlatformRecord[] = [];
  for (let index = 1; index <= Math.min(periods, REPORT_MONTHS); index++) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (index - 1), 1));
    const stored: XeroStoredReport = {
      ReportID: found.ReportID ?? report,
      ReportName: found.ReportName ?? null,
      ReportTitles: found.ReportTitles ?? [],
      UpdatedDateUTC: found.UpdatedDateUTC ?? null,
      PeriodStart: month.toISOString().slice(0, 10),
      PeriodEnd: monthEnd(month.getUTCFullYear(), month.getUTCMonth()),
      BaseCurrency: organisation.BaseCurrency ?? null,
      Rows: column(rows, index),
    };
    records.push({ platformId: stored.PeriodEnd, raw: { ...stored } });
  }
  return { records, nextPageToken: null };
}

/**
 * Attachments of bills and invoices, then of manual journals, then of bank transfers: a page of the parents Xero flags
 * HasAttachments, and each parent's attachment list, one call per parent. Re-listing every parent on every sync spent
 * most of Xero's 5,000 calls a day (84 of 126 calls of one sync; 200 documents with files at hourly syncs are over the
 * limit), so an incremental read lists only the parents changed since the last one (If-Modified-Since). Xero does not
 * document whether adding a file changes a document's UpdatedDateUTC, so once a day the read lists every parent again;
 * a file removed in Xero is swept when a full listing runs (deletions: full_listing).
 */
const FULL_ATTACHMENT_READ_MS = 24 * 3_600_000;
const ATTACHMENTS = 'a2';

/** A parent of files as the read sees it: its id, when it last changed, and what its attachments' records name as their owner. */
interface FileParent {
  id: string | undefined;
  changed: string | undefined;
  hasFiles: boolean | undefined;
  owner: Pick<XeroStoredAttachment, 'Invoice' | 'ManualJournal' | 'BankTransfer'>;
}

/** The lists whose records carry files, read in this order: their path, whether Xero pages them, and their parents. */
const PARENT_LISTS = {
  inv: {
    path: '/Invoices',
    paged: true,
    parents: (answer: PlatformResponse): FileParent[] =>
      listOf(answer, 'Invoices').map((i) => ({
        id: i.InvoiceID,
        changed: i.UpdatedDateUTC,
        hasFiles: i.HasAttachments,
        owner: { Invoice: { InvoiceID: i.InvoiceID ?? '', Type: i.Type ?? 'ACCREC' } },
      })),
  },
  mj: {
    path: '/ManualJournals',
    paged: true,
    parents: (answer: PlatformResponse): FileParent[] =>
      listOf(answer, 'ManualJournals').map((j) => ({
        id: j.ManualJournalID,
        changed: j.UpdatedDateUTC,
        hasFiles: j.HasAttachments,
        owner: { ManualJournal: { ManualJournalID: j.ManualJournalID ?? '' } },
      })),
  },
  // Bank transfers are not paged, and not edited once made: their CreatedDateUTC is their last change.
  bt: {
    path: '/BankTransfers',
    paged: false,
    parents: (answer: PlatformResponse): FileParent[] =>
      listOf(answer, 'BankTransfers').map((t) => ({
        id: t.BankTransferID,
        changed: t.CreatedDateUTC,
        hasFiles: t.HasAttachments,
        owner: { BankTransfer: { BankTransferID: t.BankTransferID ?? '' } },
      })),
  },
} as const;
type Phase = keyof typeof PARENT_LISTS;
const PHASES: readonly Phase[] = ['inv', 'mj', 'bt'];
const phaseOf = (text: string | undefined): Phase => PHASES.find((phase) => phase === text) ?? 'inv';

interface AttachmentRead {
  phase: Phase;
  page: number;
  /** If-Modified-Since for the parents (ms); null: every parent. */
  since: number | null;
  /** Newest UpdatedDateUTC among the parents listed so far (ms). */
  newest: number | null;
  /** When every parent was last listed (ms). */
  fullAt: number;
}

/** Where an attachment read starts: every parent without a cursor or once a day, else those changed since the cursor. */
function attachmentReadFrom(since: string | null, now: number): AttachmentRead {
  const [version, sinceText, fullAtText] = (since ?? '').split(':');
  const fullAt = tokenNumber(fullAtText);
  if (version !== ATTACHMENTS || fullAt === null || now - fullAt >= FULL_ATTACHMENT_READ_MS) {
    return { phase: 'inv', page: 1, since: null, newest: null, fullAt: now };
  }
  const from = tokenNumber(sinceText);
  return { phase: 'inv', page: 1, since: from, newest: from, fullAt };
}

function parseAttachmentToken(token: string, now: number): AttachmentRead {
  const [version, phase, page, since, newest, fullAt] = token.split(':');
  if (version !== ATTACHMENTS) {
    // A token of the version before cursors ("inv:2", "mj:1"): go on listing every parent.
    return { phase: phaseOf(version), page: tokenNumber(phase) ?? 1, since: null, newest: null, fullAt: now };
  }
  return {
    phase: phaseOf(phase),
    page: tokenNumber(page) ?? 1,
    since: tokenNumber(since),
    newest: tokenNumber(newest),
    fullAt: tokenNumber(fullAt) ?? now,
  };
}

const attachmentToken = (read: AttachmentRead): string =>
  [ATTACHMENTS, read.phase, read.page, read.since ?? '', read.newest ?? '', read.fullAt].join(':');

async function readAttachments(ctx: ConnectorContext, request: ReadRequest): Promise<ReadPage> {
  const read = request.pageToken === null ? attachmentReadFrom(request.since, Date.now()) : parseAttachmentToken(request.pageToken, Date.now());
  const list = PARENT_LISTS[read.phase];
  const answer = await xeroCall(ctx, {
    method: 'GET',
    path: list.path,
    operation: 'list parents with attachments',
    since: read.since === null ? null : new Date(read.since).toISOString(),
    query: { ...(list.paged ? { page: read.page } : {}), where: 'HasAttachments==true' },
  });
  const parents = list.parents(answer);
  const records: PlatformRecord[] = [];
  let newest = read.newest;
  for (const { id, owner, changed, hasFiles } of parents) {
    const updated = xeroMillis(changed);
    if (updated !== null && (newest === null || updated > newest)) newest = updated;
    if (id === undefined || hasFiles !== true) continue;
    // If-Modified-Since includes the cursor's own instant: the parent that set it was listed by the read before.
    if (read.since !== null && updated !== null && updated <= read.since) continue;
    const files = await xeroCall(ctx, { method: 'GET', path: `${list.path}/${encodeURIComponent(id)}/Attachments`, operation: 'list Attachments' });
    for (const attachment of listOf(files, 'Attachments')) {
      const stored: XeroStoredAttachment = { ...attachment, ...owner };
      records.push(recordOf(attachment.AttachmentID, stored, undefined));
    }
  }
  if (list.paged && parents.length >= XERO_PAGE_SIZE) return { records, nextPageToken: attachmentToken({ ...read, page: read.page + 1, newest }) };
  const next = PHASES[PHASES.indexOf(read.phase) + 1];
  if (next !== undefined) return { records, nextPageToken: attachmentToken({ ...read, phase: next, page: 1, newest }) };
  return { records, nextPageToken: null, nextSince: [ATTACHMENTS, newest ?? '', read.fullAt].join(':') };
}

/** An object's reads, and how a sync sees its changes (its capabilities' incremental and deletions). */
export type XeroReads<K extends UnifiedObjectType> = ObjectReads<K> & Pick<ObjectCapabilities, 'incremental' | 'deletions'>;

/** Read whole each time: who is missing from the list is gone. */
const WHOLE = { incremental: 'none', deletions: 'full_listing' } as const;
/** Always read whole: nothing there to be deleted (one organisation, a report computed on demand). */
const SNAPSHOT = { incremental: 'none', deletions: 'none' } as const;

/**
 * A list's reads. Paged lists take If-Modified-Since and report deletions as a DELETED (or VOIDED) status; the others
 * are read whole (WHOLE). Lists that honour the read's window are dated by their Date.
 */
function listed<K extends UnifiedObjectType, L extends keyof XeroLists>(
  list: XeroList<L>,
  map: (raw: PlatformRecord['raw'], ref: Ref, ctx: ConnectorContext) => Mapped<K>,
): XeroReads<K> {
  return {
    read: (ctx, request) => readList(ctx, request, list),
    map: (record, ctx) => map(record.raw, refOf(ctx), ctx),
    ...(list.dated === true ? { businessDate: (record: PlatformRecord) => xeroDay(record.raw.Date) } : {}),
    ...(list.paged === true ? { incremental: 'cursor', deletions: 'reported' } : WHOLE),
  };
}

// Records are Xero's own (or the connector's cut of them): each raw record has its list's shape by construction.
export const READERS: { readonly [K in UnifiedObjectType]?: XeroReads<K> } = {
  account: { read: readAccounts, map: (r) => mapAccount(r.raw), ...WHOLE },
  // Attachments read incrementally too (only changed parents), and are swept for removed files by a full listing.
  attachment: { read: readAttachments, map: (r, ctx) => mapAttachment(r.raw, refOf(ctx)), incremental: 'cursor', deletions: 'full_listing' },
  balance_sheet: {
    read: (ctx) => readMonthlyReport(ctx, 'BalanceSheet'),
    map: (r, ctx) => mapBalanceSheet(storedReport(r), refOf(ctx)),
    ...SNAPSHOT,
  },
  income_statement: {
    read: (ctx) => readMonthlyReport(ctx, 'ProfitAndLoss'),
    map: (r, ctx) => mapIncomeStatement(storedReport(r), refOf(ctx)),
    ...SNAPSHOT,
  },
  bank_transfer: listed(
    {
      key: 'BankTransfers',
      dated: true,
      async records(items, ctx) {
        const chart = await chartOf(ctx);
        return items.map((t) =>
          recordOf(
            t.BankTransferID,
            { ...t, FromBankAccount: withCurrency(chart, t.FromBankAccount), ToBankAccount: withCurrency(chart, t.ToBankAccount) },
            undefined,
          ),
        );
      },
    },
    mapTransfer,
  ),
  bill: listed(invoices('ACCPAY'), mapBill),
  invoice: listed(invoices('ACCREC'), mapInvoice),
  bill_credit_memo: listed(credits('ACCPAYCREDIT'), mapBillCredit),
  invoice_credit_memo: listed(credits('ACCRECCREDIT'), mapInvoiceCredit),
  bill_payment: listed(payments('ACCPAYPAYMENT', 'ACCPAY'), mapBillPayment),
  invoice_payment: listed(payments('ACCRECPAYMENT', 'ACCREC'), mapInvoicePayment),
  vendor: listed(contacts(isVendor), mapVendor),
  customer: listed(contacts(isCustomer), mapCustomer),
  journal_entry: listed({ key: 'ManualJournals', paged: true, dated: true, records: (items, ctx) => journalRecords(ctx, items) }, (raw, ref, ctx) =>
    mapJournal(raw, ref, knownBase(XERO_BASE, ctx)),
  ),
  tax_rate: listed({ key: 'TaxRates', records: (items) => items.map((r) => recordOf(r.TaxType, r, r.Status)) }, mapTaxRate),
  class: listed(
    {
      key: 'TrackingCategories',
      query: { includeArchived: true },
      // Categories and their options, as classes; an option's record names its category.
      records: (items) =>
        items.flatMap((c) => [
          recordOf(c.TrackingCategoryID, c, c.Status),
          ...(c.Status === 'DELETED'
            ? []
            : (c.Options ?? []).map((o) =>
                recordOf(o.TrackingOptionID, { ...o, TrackingCategoryID: o.TrackingCategoryID ?? c.TrackingCategoryID }, o.Status),
              )),
        ]),
    },
    mapTracking,
  ),
  currency: listed({ key: 'Currencies', records: (items) => items.map((c) => recordOf(c.Code, c, undefined)) }, mapCurrency),
  // The whole list each time (it is short): who is missing from it, or DELETED in it, is gone.
  employee: listed({ key: 'Employees', records: (items) => items.map((e) => recordOf(e.EmployeeID, e, e.Status)) }, mapEmployee),
  company_info: {
    read: async (ctx) => {
      const organisation = await readOrganisation(ctx);
      return { records: [recordOf(organisation.OrganisationID, organisation, undefined)], nextPageToken: null };
    },
    map: (r) => mapOrganisation(r.raw),
    ...SNAPSHOT,
  },
};
