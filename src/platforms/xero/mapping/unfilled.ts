import type { UnifiedObjectType } from '../../../model/object-types.ts';
import type { Mapped } from '../../objects.ts';

/**
 * Unified fields Xero never fills, per object: its mapper spreads them (null), and its capabilities list them as
 * unmapped (docs/platforms.md).
 */
export const UNFILLED = {
  account: { parent_id: null, balance: null, created_at: null },
  attachment: { created_at: null },
  balance_sheet: { created_at: null },
  // Xero's report has no operating-income line.
  income_statement: { created_at: null, updated_at: null, net_operating_income: null },
  bank_transfer: { class_id: null, department_id: null, location_id: null, project_id: null, subsidiary_id: null, memo: null },
  bill: { account_id: null, payment_terms_id: null, subsidiary_id: null, memo: null, created_at: null },
  bill_credit_memo: { account_id: null, created_at: null },
  bill_payment: { document_number: null, memo: null, created_at: null },
  class: { created_at: null, updated_at: null },
  company_info: { email: null, updated_at: null, platform_url: null },
  currency: { created_at: null, updated_at: null },
  employee: {
    department_id: null,
    manager_id: null,
    hire_date: null,
    termination_date: null,
    employee_number: null,
    position: null,
    salary: null,
    created_at: null,
  },
  customer: { parent_id: null, payment_terms_id: null, subsidiary_id: null, registration_number: null, subsidiaries: null, created_at: null },
  invoice: { account_id: null, payment_terms_id: null, subsidiary_id: null, created_at: null },
  invoice_credit_memo: { account_id: null, created_at: null },
  invoice_payment: { document_number: null, memo: null, payment_method_id: null, deposited: null, created_at: null },
  journal_entry: { subsidiary_id: null, deposited: null, created_at: null },
  tax_rate: { created_at: null, updated_at: null },
  vendor: { parent_id: null, payment_terms_id: null, registration_number: null, subsidiaries: null, created_at: null },
} as const satisfies { readonly [K in UnifiedObjectType]?: Partial<Record<keyof Mapped<K>, null>> };
