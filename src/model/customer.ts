/** Accounting customer: an individual or company that buys from the business. */
import { Type, type Static } from 'typebox';
import {
  AddressSchema,
  ContactSchema,
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  SubsidiaryStatusRefSchema,
  UpdatedAtProperty,
} from './shared.ts';

/** Status values of customers and vendors. */
export const CONTACT_STATUSES = ['active', 'archived', 'unknown'] as const;

export const CustomerSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    parent_id: Nullable(Str('Service id of the parent customer.'), 'Service id of the parent customer (two platforms).'),
    payment_terms_id: Nullable(Str('Service id of the payment terms.'), 'Service id of the default payment terms of the customer.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), {
      description: 'Deprecated: use subsidiaries. Service id of the subsidiary of the customer.',
      deprecated: true,
    }),
    status: StringEnum(CONTACT_STATUSES, 'Status of the customer.'),
    contact_name: Nullable(Str('Name of the primary contact.'), 'Name of the primary contact of the customer.'),
    currency_code: Nullable(Str('ISO 4217 currency code.'), 'ISO 4217 code of the currency of the customer.'),
    customer_name: Nullable(Str('Business name of the customer.'), 'Business name of the customer.'),
    first_name: Nullable(
      Str('First name of the primary contact person.'),
      'First name of the person contact_name names (the customer itself, when a person); null when the platform does not say.',
    ),
    last_name: Nullable(
      Str('Last name of the primary contact person.'),
      'Last name of the person contact_name names (the customer itself, when a person); null when the platform does not say.',
    ),
    email: Nullable(Str('Email address of the customer.'), 'Email address of the customer.'),
    phone: Nullable(Str('Phone number of the customer.'), 'Phone number of the customer.'),
    registration_number: Nullable(Str('Company registration number.'), 'Company registration number of the customer.'),
    tax_number: Nullable(Str('Tax number.'), 'Tax number of the customer.'),
    subsidiaries: Nullable(
      Type.Array(SubsidiaryStatusRefSchema, { description: 'Subsidiaries the customer belongs to.' }),
      'Subsidiaries the customer belongs to; null where the platform has no subsidiaries.',
    ),
    addresses: Type.Array(AddressSchema, {
      description: 'Addresses of the customer. On one platform only customers created or updated through the service carry addresses.',
    }),
    contacts: Type.Array(ContactSchema, { description: 'Contact persons of the customer (two platforms).' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An individual or company that buys goods or services from the business.' },
);

export type Customer = Static<typeof CustomerSchema>;
