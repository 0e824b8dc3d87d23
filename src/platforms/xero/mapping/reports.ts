/**
 * The organisation (company_info), monthly balance sheets and income statements cut from Xero's BalanceSheet and
 * ProfitAndLoss reports, and attachments.
 */
import { xeroIso } from '../dates.ts';
import type { ReportNode } from '../../../model/report-tree.ts';
import { sumAmounts } from '../../readers.ts';
import { incomeStatementOf, sectionsTree } from '../../statements.ts';
import type { XeroOrganisation, XeroReportRow, XeroStoredAttachment, XeroStoredReport } from '../types.ts';
import { addresses, optCurrency, phone, text, type Mapped, type Ref } from './common.ts';
import { UNFILLED } from './unfilled.ts';

export function mapOrganisation(o: XeroOrganisation): Mapped<'company_info'> {
  const endMonth = o.FinancialYearEndMonth;
  return {
    ...UNFILLED.company_info,
    platform_id: o.OrganisationID ?? '',
    name: text(o.Name),
    legal_name: text(o.LegalName),
    addresses: addresses(o.Addresses),
    currency_code: optCurrency(o.BaseCurrency),
    // Xero stores the year's last month; the next one starts the year.
    fiscal_year_start_month: endMonth === undefined || endMonth < 1 || endMonth > 12 ? null : (endMonth % 12) + 1,
    tax_number: text(o.TaxNumber),
    registration_number: text(o.RegistrationNumber),
    phone: phone(o.Phones),
    created_at: xeroIso(o.CreatedDateUTC),
  };
}

/** The Xero record a stored attachment hangs on: its unified type, Xero id and path (/Invoices/{id}). */
export interface XeroAttachmentParent {
  type: 'bill' | 'invoice' | 'journal_entry' | 'bank_transfer';
  id: string;
  path: string;
}

/** The parent the read stored beside the attachment (Xero's listing is per parent and does not name it); null when none. */
export function attachmentParent(a: XeroStoredAttachment): XeroAttachmentParent | null {
  const at = (type: XeroAttachmentParent['type'], list: string, id: string): XeroAttachmentParent => ({
    type,
    id,
    path: `/${list}/${encodeURIComponent(id)}`,
  });
  if (a.ManualJournal !== undefined) return at('journal_entry', 'ManualJournals', a.ManualJournal.ManualJournalID);
  if (a.BankTransfer !== undefined) return at('bank_transfer', 'BankTransfers', a.BankTransfer.BankTransferID);
  if (a.Invoice !== undefined) return at(a.Invoice.Type === 'ACCPAY' ? 'bill' : 'invoice', 'Invoices', a.Invoice.InvoiceID);
  return null;
}

export function mapAttachment(a: XeroStoredAttachment, ref: Ref): Mapped<'attachment'> {
  const parent = attachmentParent(a);
  return {
    ...UNFILLED.attachment,
    platform_id: a.AttachmentID ?? '',
    attached_to_id: parent === null ? null : ref(parent.type, parent.id),
    file_name: a.FileName ?? '',
    // Xero's own address of the file (it needs the connection's token); the API serves a signed address of its own.
    file_url: a.Url ?? '',
    attached_to_type: parent?.type ?? null,
  };
}

type Node = Mapped<'balance_sheet'>['assets'];
type Group = 'assets' | 'liabilities' | 'equity';

const GROUPS: Readonly<Record<string, Group>> = { assets: 'assets', liabilities: 'liabilities', equity: 'equity' };
const TOTAL = /^total (assets|liabilities|equity)$/i;

/** Report values as numeric text: thousands separators dropped, (12.00) read as -12.00, blanks as 0. */
export function numericText(value: string | undefined): string {
  const raw = (value ?? '').replaceAll(',', '').trim();
  const negative = /^\((.*)\)$/.exec(raw);
  const candidate = negative === null ? raw : `-${negative[1] ?? ''}`;
  return /^-?\d+(\.\d+)?$/.test(candidate) ? candidate : '0';
}

/** Xero's id for rows that stand for no account (Current Year Earnings). */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

function rowNode<V>(row: XeroReportRow, ref: Ref, valueOf: (text: string | undefined) => V): ReportNode<V> {
  const [label, value] = row.Cells ?? [];
  const accountId = label?.Attributes?.find((a) => a.Id === 'account')?.Value;
  return {
    account_id: accountId === NO_ACCOUNT ? '' : (ref('account', accountId) ?? ''),
    name: label?.Value ?? '',
    value: valueOf(value?.Value),
    items: [],
  };
}

/** The report's sections, each with its title trimmed and its rows. */
const sectionsOf = (r: XeroStoredReport): { title: string; rows: XeroReportRow[] }[] =>
  r.Rows.filter((section) => section.RowType === 'Section').map((section) => ({ title: (section.Title ?? '').trim(), rows: section.Rows ?? [] }));

const sum = (nodes: readonly Node[]): string => sumAmounts(nodes.map((n) => Number(n.value))).toFixed(2);

/**
 * Xero's balance sheet is a flat list of sections: a heading section per group
 * ("Assets"), titled sub-sections of account rows with their own total row,
 * and untitled sections with the group total ("Total Assets").
 */
export function mapBalanceSheet(r: XeroStoredReport, ref: Ref): Mapped<'balance_sheet'> {
  const items: Record<Group, Node[]> = { assets: [], liabilities: [], equity: [] };
  const totals: Record<Group, string | null> = { assets: null, liabilities: null, equity: null };
  let current: Group | null = null;
  for (const { title, rows } of sectionsOf(r)) {
    const group = GROUPS[title.toLowerCase()];
    if (group !== undefined) current = group;
    const own: Node[] = [];
    let subtotal: string | null = null;
    for (const row of rows) {
      const node = rowNode(row, ref, numericText);
      const total = TOTAL.exec(node.name);
      const totalled = total === null ? undefined : GROUPS[(total[1] ?? '').toLowerCase()];
      if (row.RowType === 'SummaryRow' && totalled !== undefined) totals[totalled] = node.value;
      else if (row.RowType === 'SummaryRow') subtotal = node.value;
      else if (row.RowType === 'Row' && title !== '') own.push(node);
    }
    if (current === null || own.length === 0) continue;
    if (group !== undefined) items[current].push(...own);
    else items[current].push({ account_id: '', name: title, value: subtotal ?? sum(own), items: own });
  }
  const tree = (group: Group, name: string): Node => ({ account_id: '', name, value: totals[group] ?? sum(items[group]), items: items[group] });
  return {
    ...UNFILLED.balance_sheet,
    start_date: `${r.PeriodStart}T00:00:00.000Z`,
    end_date: `${r.PeriodEnd}T00:00:00.000Z`,
    currency_code: r.BaseCurrency ?? 'XXX',
    total_assets: totals.assets,
    total_equity: totals.equity,
    total_liabilities: totals.liabilities,
    assets: tree('assets', 'Assets'),
    equity: tree('equity', 'Equity'),
    liabilities: tree('liabilities', 'Liabilities'),
    updated_at: xeroIso(r.UpdatedDateUTC),
  };
}

type Part = 'income' | 'cost_of_sales' | 'expenses';

/** Which part of the income statement a ProfitAndLoss section belongs to, by its title ("Less Cost of Sales", …). */
function partOf(title: string): Part | null {
  const t = title.toLowerCase();
  if (t.includes('cost of sales')) return 'cost_of_sales';
  if (t.includes('income')) return 'income';
  if (t.includes('expense')) return 'expenses';
  return null;
}

const amount = (text: string | undefined): number => Number(numericText(text));

/**
 * Xero's ProfitAndLoss is a flat list of titled sections of account rows, each with its total row, and untitled
 * sections holding one line (Gross Profit, Net Profit). Income is Income and Plus Other Income; expenses are Less
 * Operating Expenses (and any other expense section); paymentsOnly is not asked, so the basis is accrual.
 */
export function mapIncomeStatement(r: XeroStoredReport, ref: Ref): Mapped<'income_statement'> {
  const parts: Record<Part, ReportNode<number>[]> = { income: [], cost_of_sales: [], expenses: [] };
  const lines = new Map<string, number>();
  let sales: number | null = null;
  for (const { title, rows } of sectionsOf(r)) {
    const part = partOf(title);
    if (part === null) {
      for (const row of rows) if (row.RowType === 'Row') lines.set((row.Cells?.[0]?.Value ?? '').toLowerCase(), amount(row.Cells?.[1]?.Value));
      continue;
    }
    const items = rows.filter((row) => row.RowType === 'Row').map((row) => rowNode(row, ref, amount));
    const total = rows.find((row) => row.RowType === 'SummaryRow');
    const value = total === undefined ? sumAmounts(items.map((n) => n.value)) : amount(total.Cells?.[1]?.Value);
    if (part === 'income' && !title.toLowerCase().includes('other')) sales = value;
    parts[part].push({ account_id: '', name: title, value, items });
  }
  const net = lines.get('net profit') ?? null;
  return incomeStatementOf({
    ...UNFILLED.income_statement,
    start_date: `${r.PeriodStart}T00:00:00.000Z`,
    end_date: `${r.PeriodEnd}T00:00:00.000Z`,
    accounting_standard: 'accrual',
    currency_code: r.BaseCurrency ?? 'XXX',
    gross_profit: lines.get('gross profit') ?? null,
    net_income: net,
    net_sales: sales,
    income: sectionsTree('Income', parts.income),
    expenses: sectionsTree('Expenses', parts.expenses),
    cost_of_sales: sectionsTree('Cost of Sales', parts.cost_of_sales),
  });
}
