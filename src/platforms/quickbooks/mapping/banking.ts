/** Deposits, transfers, journal entries and attachments. */
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import type { QboAttachable, QboDeposit, QboJournalEntry, QboTransfer } from '../generated/native.ts';
import { amount, recordFields, refTo, requiredDay, text, time, type MapContext, type Mapped } from './common.ts';

/** Deposited transactions the unified model links to (other kinds stay in platform_data). */
const DEPOSITED: Readonly<Record<string, 'invoice_payment' | 'journal_entry'>> = { Payment: 'invoice_payment', JournalEntry: 'journal_entry' };

export function mapDeposit(r: QboDeposit, mc: MapContext): Mapped<'bank_deposit'> {
  const lines = r.Line ?? [];
  return {
    ...recordFields(r, 'bank_deposit', mc),
    account_id: refTo(mc.ref, 'account', r.DepositToAccountRef),
    department_id: refTo(mc.ref, 'department', r.DepartmentRef),
    subsidiary_id: null,
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    total_amount: amount(r.TotalAmt),
    linked_payments: lines.flatMap((line) =>
      (line.LinkedTxn ?? []).flatMap((t) => {
        const type = DEPOSITED[t.TxnType];
        return type === undefined ? [] : [{ id: mc.ref(type, t.TxnId) ?? '', payment_amount: amount(line.Amount), type }];
      }),
    ),
    line_items: lines.flatMap((line) => {
      const detail = line.DepositLineDetail;
      if (detail === undefined) return [];
      const entity = detail.Entity;
      return [
        {
          platform_id: line.Id ?? null,
          account_id: refTo(mc.ref, 'account', detail.AccountRef),
          class_id: refTo(mc.ref, 'class', detail.ClassRef),
          customer_id: entity?.type?.toUpperCase() === 'CUSTOMER' ? refTo(mc.ref, 'customer', entity) : null,
          department_id: null,
          location_id: null,
          project_id: null,
          tax_rate_id: null,
          vendor_id: entity?.type?.toUpperCase() === 'VENDOR' ? refTo(mc.ref, 'vendor', entity) : null,
          total_amount: amount(line.Amount),
          description: text(line.Description),
        },
      ];
    }),
  };
}

export function mapTransfer(r: QboTransfer, mc: MapContext): Mapped<'bank_transfer'> {
  return {
    ...recordFields(r, 'bank_transfer', mc),
    class_id: refTo(mc.ref, 'class', r.ClassRef),
    department_id: refTo(mc.ref, 'department', r.DepartmentRef),
    location_id: null,
    project_id: null,
    credit_account_id: refTo(mc.ref, 'account', r.FromAccountRef),
    debit_account_id: refTo(mc.ref, 'account', r.ToAccountRef),
    subsidiary_id: null,
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    total_amount: amount(r.Amount),
  };
}

/** Journal lines signed as the model wants them: debits positive, credits negative. */
export function mapJournalEntry(r: QboJournalEntry, mc: MapContext): Mapped<'journal_entry'> {
  const mapped: Mapped<'journal_entry'> = {
    ...recordFields(r, 'journal_entry', mc),
    subsidiary_id: null,
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    deposited: null,
    line_items: (r.Line ?? []).flatMap((line) => {
      const detail = line.JournalEntryLineDetail;
      if (detail === undefined) return [];
      const value = amount(line.Amount);
      return [
        {
          account_id: refTo(mc.ref, 'account', detail.AccountRef) ?? '',
          tax_rate_id: null,
          total_amount: detail.PostingType === 'Credit' ? -value : value,
          description: text(line.Description),
        },
      ];
    }),
  };
  if (r.ExchangeRate !== undefined) mapped.currency_rate = r.ExchangeRate;
  return mapped;
}

/** QBO entity names an attachable can hang off, as unified object types. */
const ATTACHED_TO: Readonly<Record<string, UnifiedObjectType>> = {
  Bill: 'bill',
  VendorCredit: 'bill_credit_memo',
  BillPayment: 'bill_payment',
  Invoice: 'invoice',
  Payment: 'invoice_payment',
  CreditMemo: 'invoice_credit_memo',
  Deposit: 'bank_deposit',
  Transfer: 'bank_transfer',
  JournalEntry: 'journal_entry',
  Customer: 'customer',
  Vendor: 'vendor',
  Purchase: 'expense',
  PurchaseOrder: 'purchase_order',
};

/** Whether the attachable is a file (the unified attachment); note-only attachables are not. */
export function isFileAttachable(r: QboAttachable): boolean {
  return r.FileName !== undefined && r.FileName !== '';
}

/**
 * file_url keeps QBO's stable FileAccessUri: TempDownloadUri is re-signed on
 * every read (and expires after 15 minutes), so storing it would make every
 * sync look like a change.
 */
export function mapAttachment(r: QboAttachable, mc: MapContext): Mapped<'attachment'> {
  const target = r.AttachableRef?.find((a) => a.EntityRef !== undefined)?.EntityRef;
  const type = target?.type === undefined ? undefined : ATTACHED_TO[target.type];
  return {
    platform_id: r.Id,
    attached_to_id: type === undefined ? null : mc.ref(type, target?.value),
    file_name: r.FileName ?? '',
    file_url: r.FileAccessUri ?? '',
    attached_to_type: type ?? null,
    created_at: time(r.MetaData?.CreateTime),
  };
}
