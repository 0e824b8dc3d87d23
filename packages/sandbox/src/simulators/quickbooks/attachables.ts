/**
 * Files as QBO Attachables and expenses as QBO Purchases. An attachable's FileAccessUri is the stable download endpoint
 * (GET download/{id}); that answers a short-lived link to the bytes, which the simulator serves too (files.ts).
 */
import type { NativeAttachment, NativeExpense } from '../../native.ts';
import { qboId } from './ids.ts';
import { amount, compact, entityMeta, optRef, ref, type Json } from './shapes.ts';
import { parseCents } from '../../money.ts';

/** QBO's entity names of what SANDBOX files attach to. */
const PARENT_ENTITY: Readonly<Record<NativeAttachment['ParentType'], string>> = {
  JournalEntry: 'JournalEntry',
  Bill: 'Bill',
  Invoice: 'Invoice',
  Expense: 'Purchase',
};

export function attachable(r: NativeAttachment, realmId: string): Json {
  return {
    FileName: r.FileName,
    FileAccessUri: `/v3/company/${realmId}/download/${qboId(r.Id)}`,
    Size: r.Size,
    ContentType: r.ContentType,
    AttachableRef: [{ EntityRef: { type: PARENT_ENTITY[r.ParentType], value: qboId(r.ParentId) }, IncludeOnSend: false }],
    ...entityMeta(r),
  };
}

const PAYMENT_TYPES: Readonly<Record<NativeExpense['PaymentType'], string>> = { Cash: 'Cash', Check: 'Check', CreditCard: 'CreditCard' };

export function purchase(r: NativeExpense): Json {
  return compact({
    TxnDate: r.TxnDate,
    CurrencyRef: { value: r.CurrencyCode },
    PaymentType: PAYMENT_TYPES[r.PaymentType],
    AccountRef: ref(r.PaymentAccountId),
    EntityRef: r.VendorId === undefined ? undefined : { ...ref(r.VendorId), type: 'Vendor' },
    DocNumber: r.Reference,
    PrivateNote: r.Status === 'Voided' ? `Voided${r.Memo === undefined ? '' : ` - ${r.Memo}`}` : r.Memo,
    TotalAmt: r.Status === 'Voided' ? 0 : amount(r.Total),
    TxnTaxDetail: { TotalTax: amount(r.TotalTax) },
    Line:
      r.Status === 'Voided'
        ? []
        : r.Lines.map((line, n) => ({
            Id: String(n + 1),
            Description: line.Description,
            Amount: (parseCents(line.SubTotal) - parseCents(line.Discount)) / 100,
            DetailType: 'AccountBasedExpenseLineDetail',
            AccountBasedExpenseLineDetail: compact({
              AccountRef: ref(line.AccountId),
              ClassRef: optRef(line.ClassId),
              TaxCodeRef: optRef(line.TaxCodeId),
            }),
          })),
    ...entityMeta(r),
  });
}
