/**
 * Customer refund: money paid back to a customer out of a bank account, for goods or services the lines name (what
 * QuickBooks calls a refund receipt: a sales receipt in reverse). Not in the spec; the reference's object
 * (2024-08-31) field for field, decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  LineItemItemSchema,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const CUSTOMER_REFUND_LINE_TYPES = ['shipping'] as const;

export const CustomerRefundLineItemSchema = Type.Object(
  {
    account_id: Nullable(
      Str('Service id of the account the line posts to.'),
      'Service id of the account the line takes the refund out of (an income account: the sale refunded).',
    ),
    class_id: Nullable(Str('Service id of the class.'), 'Service id of the class the line is tracked under.'),
    tax_rate_id: Nullable(Str('Service id of the tax rate.'), 'Service id of the tax rate applied to the line.'),
    total_amount: Type.Number({ description: 'Total amount of the line, tax included.' }),
    description: Nullable(Str('Description of the line.'), 'Description of the line.'),
    type: Nullable(StringEnum(CUSTOMER_REFUND_LINE_TYPES, 'shipping: the line refunds shipping.'), 'shipping for a shipping line; null otherwise.'),
    item: Nullable(LineItemItemSchema, 'Item refunded on the line; null for lines that post to an account only.'),
  },
  { additionalProperties: false, description: 'Line of the customer refund.' },
);

export const CustomerRefundAdditionalFieldsSchema = Type.Object(
  {
    shipping_amount: Nullable(
      Type.Number({ description: 'Shipping refunded.' }),
      'Total shipping refunded (the shipping lines); null when the platform does not say.',
    ),
  },
  { additionalProperties: false, description: "The reference's additional fields of a customer refund; always present." },
);

export const CustomerRefundSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Str('Service id of the bank (or other asset) account the money was paid out of: the account credited.'),
    class_id: Nullable(
      Str('Service id of the class.'),
      'Service id of the class of the whole refund; null where the platform tracks classes per line.',
    ),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer refunded; null for a refund to no named customer.'),
    department_id: Nullable(
      Str('Service id of the department.'),
      'Service id of the department of the whole refund; null where the platform tracks departments per line.',
    ),
    tax_rate_id: Nullable(Str('Service id of the tax rate.'), 'Service id of the tax rate of the whole refund; null where taxes are per line.'),
    transaction_date: Nullable(Timestamp('When the refund was made.'), 'When the refund was made (ISO 8601).'),
    total_amount: Type.Number({ description: 'Total amount refunded, tax included.' }),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the refund.'), 'Currency of the refund; null when the platform does not say.'),
    currency_rate: Nullable(
      Type.Number({ description: 'Exchange rate to the home currency.' }),
      'Units of the home currency one unit of the refund currency is worth; null when the platform does not say.',
    ),
    discount_amount: Nullable(Type.Number({ description: 'Total discount.' }), 'Total discount of the refund; null when the platform does not say.'),
    document_number: Nullable(Str('Number of the refund.'), 'Number of the refund; null when it has none.'),
    tax_amount: Nullable(Type.Number({ description: 'Total tax.' }), 'Total tax refunded; null when the platform does not say.'),
    line_items: Type.Array(CustomerRefundLineItemSchema, { description: 'Lines of the refund.' }),
    // Optional as on every object (the reference requires it); always present here.
    additional_fields: Type.Optional(CustomerRefundAdditionalFieldsSchema),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'Money paid back to a customer out of a bank account, for the goods or services its lines name.',
  },
);

export type CustomerRefund = Static<typeof CustomerRefundSchema>;
