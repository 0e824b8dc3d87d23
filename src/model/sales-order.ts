/**
 * Sales order: what a customer asked the business to sell them, before (or instead of) an invoice. Not shown in the
 * spec (named among the further accounting endpoints); follows the reference's "Sales Orders" (2024-08-31), its
 * fields, nullability and status enum, decisions in docs/reference.md. An order moves no money: nothing posts.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** The reference's enum: draft, pending and rejected are Xero's only (its page says so). */
export const SALES_ORDER_STATUSES = ['draft', 'pending', 'open', 'closed', 'pending_approval', 'rejected', 'unknown'] as const;

export type SalesOrderStatus = (typeof SALES_ORDER_STATUSES)[number];

const amount = (what: string) => Nullable(Type.Number({ description: `${what}.` }), `${what}; null when the platform does not give it.`);

/** The reference's sales order line: narrower than the standard line (no account or tracking per line). */
export const SalesOrderLineSchema = Type.Object(
  {
    platform_id: Nullable(Str('Id of the line on the platform.'), 'Id of the line on the platform; null when lines have no id there.'),
    tax_rate_id: Nullable(Str('Service id of the tax rate.'), 'Service id of the tax rate applied to the line; null when none.'),
    description: Nullable(Str('Description of the line.'), 'Description of the line; null when it has none.'),
    total_amount: amount('Total amount of the line'),
    item: Nullable(
      Type.Object(
        {
          id: Str('Service id of the item.'),
          quantity: amount('Quantity ordered'),
          unit_amount: amount('Price of one unit'),
        },
        { additionalProperties: false, description: 'Item ordered on the line.' },
      ),
      'Item ordered on the line; null for a line without an item.',
    ),
  },
  { additionalProperties: false, description: 'Line of the sales order.' },
);

export const SalesOrderSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    class_id: Nullable(Str('Service id of the class.'), 'Service id of the class the order is tracked under; null when none.'),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer who placed the order.'),
    department_id: Nullable(Str('Service id of the department.'), 'Service id of the department the order is tracked under; null when none.'),
    location_id: Nullable(Str('Service id of the location.'), 'Service id of the location the order is tracked under; null when none.'),
    payment_terms_id: Nullable(Str('Service id of the payment terms.'), 'Service id of the payment terms of the order; null when none.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the order belongs to; null when none.'),
    issue_date: Timestamp('When the order was issued (ISO 8601).'),
    status: StringEnum(
      SALES_ORDER_STATUSES,
      "Status of the sales order: closed once invoiced (or closed by hand); draft, pending and rejected are Xero's only.",
    ),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the order.'), 'Currency of the order; null when the platform does not say.'),
    currency_rate: amount('Rate from the order currency to the business default currency'),
    discount_amount: amount('Discount applied to the order'),
    document_number: Nullable(Str('Customer-facing number of the order.'), 'Customer-facing number of the order; null when none.'),
    memo: Nullable(Str('Memo of the order.'), 'Memo of the order; null when none.'),
    reference_number: Nullable(
      Str('Reference number of the order.'),
      "Reference number of the order (the customer's purchase order number, say); null when none.",
    ),
    tax_amount: amount('Tax amount of the order'),
    total_amount: amount('Total amount of the order'),
    line_items: Type.Array(SalesOrderLineSchema, { description: 'Lines of the order.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An order a customer placed with the business; it moves no money until invoiced.' },
);

export type SalesOrder = Static<typeof SalesOrderSchema>;
