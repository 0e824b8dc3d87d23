/** Journal entries (payroll, accruals, depreciation, …) with their supporting attachments, and the opening balances. */
import { journalLine } from '../books.ts';
import { attachmentParentType } from '../collections.ts';
import type { NativeAttachment, NativeJournalEntry, NativeJournalLine } from '../native.ts';
import type { Rng } from '../prng.ts';
import { BILL_EXPENSE_CODES, ROLES, SPEND_CODES, acc } from './chart.ts';
import { dateIn, stampsOn, type GenState } from './transactions.ts';

/** Line sets of typical manual journals; each sums to zero by construction. */
function journalLines(s: GenState): { memo: string; lines: NativeJournalLine[] } {
  const { rng } = s;
  const kind = rng.weighted([
    ['depreciation', 2],
    ['payroll', 4],
    ['accrual', 2],
    ['loan', 1],
    ['drawings', 1],
    ['tax', 1],
    ['card', 2],
    ['reclass', 1],
  ] as const);
  const x = rng.int(20_000, 500_000);
  switch (kind) {
    case 'depreciation':
      return { memo: 'Monthly depreciation', lines: [journalLine('1', acc('7200'), x), journalLine('2', acc('1550'), -x)] };
    case 'payroll': {
      const gross = rng.int(500_000, 4_000_000);
      const tax = Math.round(gross * 0.0765);
      const withheld = Math.round(gross * 0.2);
      return {
        memo: 'Payroll run',
        lines: [
          journalLine('1', acc('6900'), gross, 'Gross wages'),
          journalLine('2', acc('6950'), tax, 'Employer taxes'),
          journalLine('3', acc(rng.chance(0.3) ? '1020' : '1000'), -(gross - withheld), 'Net pay'),
          journalLine('4', acc('2300'), -(withheld + tax), 'Withholdings'),
        ],
      };
    }
    case 'accrual': {
      const account = acc(rng.pick(BILL_EXPENSE_CODES));
      return { memo: 'Month-end accrual', lines: [journalLine('1', account, x), journalLine('2', acc('2400'), -x)] };
    }
    case 'loan': {
      const interest = Math.round(x * 0.1);
      return {
        memo: 'Loan repayment',
        lines: [journalLine('1', acc('2700'), x), journalLine('2', acc('8000'), interest), journalLine('3', acc('1000'), -(x + interest))],
      };
    }
    case 'drawings':
      return { memo: 'Owner drawings', lines: [journalLine('1', acc('3100'), x), journalLine('2', acc('1000'), -x)] };
    case 'tax':
      return {
        memo: 'Tax remittance',
        lines: [journalLine('1', acc('2200'), x), journalLine('2', acc('2300'), x), journalLine('3', acc('1000'), -2 * x)],
      };
    case 'card':
      return { memo: 'Credit card payment', lines: [journalLine('1', acc('2100'), x), journalLine('2', acc('1000'), -x)] };
    case 'reclass': {
      const [a, b] = [rng.pick(BILL_EXPENSE_CODES), rng.pick(SPEND_CODES)];
      return { memo: 'Reclassification', lines: [journalLine('1', acc(a), x), journalLine('2', acc(b), -x)] };
    }
  }
}

export function journalEntry(s: GenState, date: string, memo: string, lines: NativeJournalLine[]): NativeJournalEntry {
  const id = s.out.nextId('journal_entry');
  const entry: NativeJournalEntry = {
    Id: id,
    ...stampsOn(s, date),
    DocNumber: `JE-${id.slice(3)}`,
    TxnDate: date,
    CurrencyCode: s.palette.currency,
    ExchangeRate: '1.000000',
    Memo: memo,
    Status: 'Posted',
    Lines: lines,
  };
  if (s.palette.subsidiaries[0] !== undefined && s.rng.chance(0.3)) entry.SubsidiaryId = s.palette.subsidiaries[0];
  return entry;
}

export function attachmentFor(s: GenState, entry: NativeJournalEntry): NativeAttachment {
  const text =
    ['line,account,debit,credit', ...entry.Lines.map((l) => `${l.LineId},${l.AccountId},${l.Debit ?? ''},${l.Credit ?? ''}`)].join('\n') + '\n';
  const content = Buffer.from(text, 'utf8');
  return {
    Id: s.out.nextId('attachment'),
    CreatedAt: entry.CreatedAt,
    UpdatedAt: entry.CreatedAt,
    FileName: `${entry.DocNumber.toLowerCase()}-support.csv`,
    ContentType: 'text/csv',
    Size: content.length,
    Content: content.toString('base64'),
    ParentType: 'JournalEntry',
    ParentId: entry.Id,
  };
}

/** Share of bills, invoices, expenses, deposits and transfers that come with a supporting file. */
const DOCUMENT_FILE_SHARE = 0.15;
const DOCUMENT_FILES = {
  bill: { prefix: 'Vendor invoice', suffix: 'scan' },
  invoice: { prefix: 'Invoice copy', suffix: 'copy' },
  expense: { prefix: 'Receipt', suffix: 'receipt' },
  bank_deposit: { prefix: 'Deposit slip', suffix: 'slip' },
  bank_transfer: { prefix: 'Transfer confirmation', suffix: 'confirmation' },
} as const;
const isFiled = (type: string): type is keyof typeof DOCUMENT_FILES => Object.hasOwn(DOCUMENT_FILES, type);
/** Banking records draw from a stream of their own, so the documents' files are what they were before banking had any. */
const BANK_TYPES: ReadonlySet<string> = new Set(['bank_deposit', 'bank_transfer']);

/** Streams the supporting files are drawn from: documents' and banking records'. */
export interface FileStreams {
  documents: Rng;
  banking: Rng;
}

/**
 * Supporting files of the documents and banking records a unit of the generator just made (`records`). Drawn from
 * `files`, streams of their own, and left out of the unit's record count: every other record is the same as
 * without them.
 */
export function documentAttachments(s: GenState, files: FileStreams, records: readonly { type: string; data: Record<string, unknown> }[]): void {
  for (const { type, data } of records) {
    if (!isFiled(type)) continue;
    const parentType = attachmentParentType(type);
    const id = typeof data.Id === 'string' ? data.Id : '';
    const createdAt = typeof data.CreatedAt === 'string' ? data.CreatedAt : '';
    if (parentType === undefined || !(BANK_TYPES.has(type) ? files.banking : files.documents).chance(DOCUMENT_FILE_SHARE)) continue;
    const name = typeof data.DocNumber === 'string' ? data.DocNumber : id;
    const { prefix, suffix } = DOCUMENT_FILES[type];
    const total = data.Total ?? data.Amount;
    const content = Buffer.from(`${prefix} ${name}\nDate: ${String(data.TxnDate)}\nTotal: ${String(total)} ${String(data.CurrencyCode)}\n`, 'utf8');
    s.out.push('attachment', {
      Id: s.out.nextId('attachment'),
      CreatedAt: createdAt,
      UpdatedAt: createdAt,
      FileName: `${name.toLowerCase()}-${suffix}.txt`,
      ContentType: 'text/plain',
      Size: content.length,
      Content: content.toString('base64'),
      ParentType: parentType,
      ParentId: id,
    } satisfies NativeAttachment);
  }
}

export function journalUnit(s: GenState, from: string, to: string): void {
  const { memo, lines } = journalLines(s);
  const entry = journalEntry(s, dateIn(s, from, to), memo, lines);
  if (s.rng.chance(0.01)) entry.Status = 'Voided';
  s.out.push('journal_entry', entry);
  if (s.rng.chance(0.3)) s.out.push('attachment', attachmentFor(s, entry));
}

/** The opening balances: cash, equipment and a loan against owner's capital. */
export function openingEntry(s: GenState, date: string): void {
  const cash = s.rng.int(20_000_000, 60_000_000);
  const savings = s.rng.int(5_000_000, 20_000_000);
  const equipment = s.rng.int(3_000_000, 15_000_000);
  const loan = s.rng.int(5_000_000, 20_000_000);
  s.out.push(
    'journal_entry',
    journalEntry(s, date, 'Opening balances', [
      journalLine('1', acc('1000'), cash),
      journalLine('2', acc('1010'), savings),
      journalLine('3', acc('1500'), equipment),
      journalLine('4', acc('2700'), -loan),
      journalLine('5', ROLES.OwnerCapital, -(cash + savings + equipment - loan)),
    ]),
  );
}
