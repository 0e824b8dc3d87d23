/**
 * Which resources can be written, with which operations, and what a create
 * must carry. Required fields follow the spec's sample minimal create bodies,
 * narrowed to what a ledger cannot do without (docs/writes.md lists them):
 * paths name nested fields of array entries as `line_items[].account_id`.
 */
import type { TSchema } from 'typebox';
import type { LinkField } from '../model/fields.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { OrderCreateBody, OrderUpdateBody } from './commerce-bodies.ts';

export type ObjectWrite = 'create' | 'update' | 'delete';

export interface WritableSpec {
  operations: readonly ObjectWrite[];
  /** Top-level fields a client may send; everything else of the read model is set by the platform or the service. */
  fields: readonly string[];
  /** Fields a create must carry (array fields at least one entry); nested ones also bind PATCH when the array is sent. */
  required: readonly string[];
  /** Allowed values where the writable set is narrower than the read model's enum. */
  enums?: Readonly<Record<string, readonly string[]>>;
  /** Minimum entries of array fields, beyond the one every required array needs. */
  minItems?: Readonly<Record<string, number>>;
  /** Input-only nullable text fields that the read model does not have (spec sample bodies). */
  extra?: readonly string[];
  /** Which of the `extra` fields are references: checked like the read model's LINKS before anything is queued. */
  inputLinks?: readonly LinkField[];
  /** Nested fields of the read model a write does not take (`line_items[].amount`: the platform derives them). */
  omit?: readonly string[];
  /**
   * The object part of the request body where the reference's write body is not the read model's fields (commerce
   * objects: an order is created from variants and a buyer's email, src/writes/commerce-bodies.ts). `fields` and
   * `required` then describe this body, for the docs.
   */
  bodies?: Readonly<Partial<Record<'create' | 'update', TSchema>>>;
  /** The top-level fields a PATCH takes, where fewer than a create's (a product's variants have endpoints of their own). */
  updateFields?: readonly string[];
}

const DOCUMENT_LINES = ['line_items', 'line_items[].account_id', 'line_items[].total_amount'] as const;
const CONTACT_FIELDS = [
  'parent_id',
  'payment_terms_id',
  'status',
  'contact_name',
  'currency_code',
  'email',
  'phone',
  'registration_number',
  'tax_number',
  'subsidiaries',
  'addresses',
] as const;
const DOCUMENT_STATUSES = ['draft', 'open', 'void'] as const;

export const WRITABLE: Readonly<Partial<Record<UnifiedObjectType, WritableSpec>>> = {
  account: {
    operations: ['create', 'update'],
    fields: ['parent_id', 'subsidiary_id', 'account_type', 'status', 'currency_code', 'name', 'nominal_code', 'subsidiaries', 'additional_fields'],
    required: ['name', 'account_type'],
    enums: { status: ['active', 'inactive'] },
    extra: ['subsidiary_id'],
    inputLinks: [{ path: 'subsidiary_id', targets: ['subsidiary'] }],
  },
  bank_deposit: {
    operations: ['create', 'update', 'delete'],
    fields: ['account_id', 'department_id', 'subsidiary_id', 'transaction_date', 'currency_code', 'memo', 'linked_payments', 'line_items'],
    required: ['account_id', 'transaction_date', 'linked_payments[].id', 'line_items[].account_id', 'line_items[].total_amount'],
  },
  bank_feed_account: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'account_id',
      'contact_id',
      'internal_bank_account_id',
      'parent_bank_feed_account_id',
      'transaction_start_date',
      'bank_account_type',
      'feed_status',
      'currency_code',
      'name',
      'available_balance',
      'current_balance',
      'credit_limit',
      'bank_account_number',
      'line_of_business',
      'routing_number',
      'payment_network_ids',
      'additional_fields',
    ],
    required: ['name', 'bank_account_type'],
    // The reference's (2023-03-14) country of the institution's account: kept by the platform, in platform_data.
    extra: ['country'],
  },
  bank_transfer: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'credit_account_id',
      'debit_account_id',
      'transaction_date',
      'total_amount',
      'currency_code',
      'memo',
      'class_id',
      'department_id',
      'location_id',
      'project_id',
      'subsidiary_id',
    ],
    required: ['credit_account_id', 'debit_account_id', 'transaction_date', 'total_amount'],
  },
  bill: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'vendor_id',
      'account_id',
      'payment_terms_id',
      'subsidiary_id',
      'issue_date',
      'due_date',
      'currency_code',
      'currency_rate',
      'status',
      'document_number',
      'memo',
      'linked_purchase_orders',
      'line_items',
      'additional_fields',
    ],
    required: ['vendor_id', 'issue_date', ...DOCUMENT_LINES],
    enums: { status: DOCUMENT_STATUSES },
  },
  bill_credit_memo: {
    operations: ['create', 'update', 'delete'],
    fields: ['vendor_id', 'account_id', 'issue_date', 'document_number', 'currency_code', 'status', 'memo', 'linked_bills', 'line_items'],
    required: ['vendor_id', 'issue_date', ...DOCUMENT_LINES, 'linked_bills[].id', 'linked_bills[].allocated_amount'],
    enums: { status: ['open', 'void'] },
  },
  bill_payment: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'vendor_id',
      'account_id',
      'transaction_date',
      'currency_code',
      'currency_rate',
      'document_number',
      'memo',
      'reference',
      'status',
      'linked_bills',
      'additional_fields',
    ],
    required: ['vendor_id', 'account_id', 'transaction_date', 'linked_bills', 'linked_bills[].id', 'linked_bills[].allocated_amount'],
  },
  class: {
    operations: ['create'],
    fields: ['parent_id', 'name', 'status'],
    required: ['name'],
  },
  customer: {
    operations: ['create', 'update'],
    fields: ['customer_name', ...CONTACT_FIELDS],
    required: ['customer_name'],
    enums: { status: ['active', 'archived'] },
  },
  department: {
    operations: ['create'],
    fields: ['parent_id', 'name', 'status'],
    required: ['name'],
  },
  expense: {
    operations: ['create', 'update', 'delete'],
    fields: ['account_id', 'vendor_id', 'transaction_date', 'currency_code', 'expense_type', 'payment_type', 'document_number', 'memo', 'line_items'],
    required: ['account_id', 'transaction_date', ...DOCUMENT_LINES],
    // Refunds are money back on the account: no platform we write to records one as an expense (docs/reference.md).
    enums: { expense_type: ['expense'], payment_type: ['cash', 'check', 'credit_card'] },
  },
  invoice: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'customer_id',
      'account_id',
      'payment_terms_id',
      'subsidiary_id',
      'issue_date',
      'due_date',
      'currency_code',
      'currency_rate',
      'status',
      'document_number',
      'memo',
      'line_items',
      'additional_fields',
    ],
    // A line with an item may leave account_id out (the reference's item lines); the platform posts it to the item's income account.
    required: ['customer_id', 'issue_date', 'line_items', 'line_items[].total_amount'],
    enums: { status: DOCUMENT_STATUSES },
  },
  invoice_credit_memo: {
    operations: ['create', 'update', 'delete'],
    fields: ['customer_id', 'account_id', 'issue_date', 'document_number', 'currency_code', 'status', 'memo', 'linked_invoices', 'line_items'],
    // As invoice lines: a line with an item may leave account_id out (src/writes/check-input.ts).
    required: ['customer_id', 'issue_date', 'line_items', 'line_items[].total_amount', 'linked_invoices[].id', 'linked_invoices[].allocated_amount'],
    enums: { status: ['open', 'void'] },
    // The reference's flat repeats of the line's item and total: read-only echoes of item and total_amount.
    omit: ['line_items[].id', 'line_items[].item_id', 'line_items[].quantity', 'line_items[].unit_amount', 'line_items[].amount'],
  },
  invoice_payment: {
    operations: ['create', 'update', 'delete'],
    fields: [
      'customer_id',
      'account_id',
      'transaction_date',
      'txn_date',
      'currency_code',
      'currency_rate',
      'memo',
      'reference',
      'status',
      'total_amount',
      'linked_invoices',
    ],
    // Our names or the reference's (transaction_date or txn_date, allocated_amount or amount): check-input.ts wants one of each.
    required: ['customer_id', 'account_id', 'linked_invoices', 'linked_invoices[].id'],
  },
  item: {
    operations: ['create', 'update', 'delete'],
    fields: ['name', 'code', 'type', 'status', 'bill_item', 'invoice_item'],
    required: ['name', 'type'],
    // Inventory items need an opening quantity, its date and an asset account, none of which the model writes.
    enums: { type: ['non_inventory', 'service'], status: ['active', 'archived'] },
  },
  journal_entry: {
    operations: ['create', 'update', 'delete'],
    fields: ['transaction_date', 'currency_code', 'currency_rate', 'memo', 'subsidiary_id', 'line_items', 'additional_fields'],
    required: ['transaction_date', ...DOCUMENT_LINES],
    // At least one debit and one credit.
    minItems: { line_items: 2 },
  },
  order: {
    operations: ['create', 'update'],
    fields: ['currency_code', 'line_items', 'customer', 'billing_address', 'shipping_address', 'additional_fields', 'status'],
    required: ['currency_code', 'line_items', 'line_items[].variant_id', 'line_items[].quantity', 'customer', 'customer.email', 'billing_address'],
    // The reference's bodies: a create names variants and the buyer, an update only the order's status.
    bodies: { create: OrderCreateBody, update: OrderUpdateBody },
  },
  payment_term: {
    operations: ['create', 'delete'],
    fields: ['name', 'status', 'due_days', 'discount_days', 'discount_percentage'],
    required: ['name', 'due_days'],
  },
  product: {
    operations: ['create', 'update', 'delete'],
    fields: ['name', 'description', 'status', 'tags', 'images', 'variants'],
    // The reference's CreateProduct: a name and at least one variant with its price and sku.
    required: ['name', 'variants', 'variants[].price', 'variants[].sku'],
    // Draft, inactive and unknown are states platforms report; a write lists a product or takes it off sale.
    enums: { status: ['active', 'archived'] },
    // What the platform sets or derives for a variant: its ids, currency (the store's), stock tracking and dates.
    omit: [
      'variants[].id',
      'variants[].product_id',
      'variants[].iso_currency_code',
      'variants[].fulfillment_service',
      'variants[].inventory_management',
      'variants[].requires_shipping',
      'variants[].images',
      'variants[].created_at',
      'variants[].updated_at',
    ],
    // The reference's UpdateProduct: name, description and status; variants change through /products/{id}/variants.
    updateFields: ['name', 'description', 'status', 'tags', 'images'],
  },
  purchase_order: {
    operations: ['create', 'update', 'delete'],
    fields: ['vendor_id', 'issue_date', 'delivery_date', 'document_number', 'status', 'currency_code', 'memo', 'line_items'],
    // As on invoices, an item line may leave account_id out: it posts nothing, and the platform takes the item's expense account.
    required: ['vendor_id', 'issue_date', 'line_items', 'line_items[].total_amount'],
    // pending_bill is the platform's to set (received in full, waiting for its bill).
    enums: { status: ['draft', 'open', 'closed'] },
  },
  customer_refund: {
    // The reference's create and delete; it has no update of a refund.
    operations: ['create', 'delete'],
    fields: [
      'account_id',
      'class_id',
      'customer_id',
      'department_id',
      'tax_rate_id',
      'transaction_date',
      'currency_code',
      'currency_rate',
      'document_number',
      'line_items',
    ],
    // As the reference's: the account paid from and the lines; a line's total_amount unless its item has a unit_amount
    // (check-input.ts), its account unless it has an item. Without transaction_date, the platform's today.
    required: ['account_id', 'line_items'],
    // A line's type (shipping) is read from the account it posts to.
    omit: ['line_items[].type'],
  },
  sales_order: {
    operations: ['create', 'update'],
    fields: [
      'customer_id',
      'payment_terms_id',
      'issue_date',
      'status',
      'currency_code',
      'currency_rate',
      'document_number',
      'memo',
      'reference_number',
      'line_items',
    ],
    required: ['customer_id', 'issue_date', 'line_items', 'line_items[].total_amount'],
    // Closed comes with the order's invoices; draft, pending and rejected are Xero's, which writes no orders.
    enums: { status: ['open', 'pending_approval'] },
  },
  sales_receipt: {
    operations: ['create'],
    fields: ['customer_id', 'account_id', 'issue_date', 'currency_code', 'document_number', 'memo', 'reference', 'line_items'],
    // As an invoice's: a line with an item may leave account_id out. Without account_id the platform's default deposit account.
    required: ['issue_date', 'line_items', 'line_items[].total_amount'],
  },
  tax_rate: {
    operations: ['create'],
    fields: ['name', 'code', 'status', 'components', 'subsidiaries'],
    required: ['name', 'components', 'components[].name', 'components[].rate'],
  },
  vendor: {
    operations: ['create', 'update', 'delete'],
    fields: ['vendor_name', 'website', ...CONTACT_FIELDS],
    required: ['vendor_name'],
    enums: { status: ['active', 'archived'] },
  },
};

export function writableSpec(type: UnifiedObjectType): WritableSpec | null {
  return WRITABLE[type] ?? null;
}
