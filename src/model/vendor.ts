/**
 * Vendor: a business or person the business buys from. Not shown in the spec;
 * designed as the mirror of the accounting customer.
 */
import { Type, type Static } from 'typebox';
import { CONTACT_STATUSES } from './customer.ts';
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

/** The reference's vendor subsidiary entry: the status ref plus which subsidiary is the vendor's primary one. */
const VendorSubsidiarySchema = Type.Object(
  {
    ...SubsidiaryStatusRefSchema.properties,
    primary: Type.Boolean({ description: 'Whether this is the primary subsidiary of the vendor.' }),
  },
  { additionalProperties: false, description: 'Subsidiary the vendor belongs to, with its status there and whether it is the primary one.' },
);

export const VendorSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    parent_id: Nullable(Str('Service id of the parent vendor.'), 'Service id of the parent vendor, where the platform nests vendors.'),
    payment_terms_id: Nullable(Str('Service id of the payment terms.'), 'Service id of the default payment terms of the vendor.'),
    status: StringEnum(CONTACT_STATUSES, 'Status of the vendor.'),
    contact_name: Nullable(Str('Name of the primary contact.'), 'Name of the primary contact of the vendor.'),
    currency_code: Nullable(Str('ISO 4217 currency code.'), 'ISO 4217 code of the currency of the vendor.'),
    currency_codes: Type.Array(Str('ISO 4217 currency code.'), {
      description: 'ISO 4217 codes of the currencies the vendor is paid in: its currency_code where the platform gives one, else empty.',
    }),
    vendor_name: Nullable(Str('Business name of the vendor.'), 'Business name of the vendor.'),
    display_name: Nullable(Str('Name the platform shows for the vendor.'), 'Name the platform shows for the vendor in its lists.'),
    bank_account_number: Nullable(
      Str('Bank account number of the vendor.'),
      'Bank account number the vendor is paid into, as the platform gives it; null when the platform has none.',
    ),
    email: Nullable(Str('Email address of the vendor.'), 'Email address of the vendor.'),
    phone: Nullable(Str('Phone number of the vendor.'), 'Phone number of the vendor.'),
    registration_number: Nullable(Str('Company registration number.'), 'Company registration number of the vendor.'),
    tax_number: Nullable(Str('Tax number.'), 'Tax number of the vendor.'),
    website: Nullable(Str('Website of the vendor.'), 'Website address of the vendor; null when not given.'),
    subsidiaries: Nullable(
      Type.Array(VendorSubsidiarySchema, { description: 'Subsidiaries the vendor belongs to.' }),
      'Subsidiaries the vendor belongs to; null where the platform has no subsidiaries.',
    ),
    addresses: Type.Array(AddressSchema, { description: 'Addresses of the vendor.' }),
    contacts: Type.Array(ContactSchema, { description: 'Contact persons of the vendor.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A business or person the business buys goods or services from (a supplier).' },
);

export type Vendor = Static<typeof VendorSchema>;

/** The vendor's currencies as the reference lists them: every platform we serve names at most one, its currency_code. */
export function currencyCodesOf(currencyCode: string | null): string[] {
  return currencyCode === null ? [] : [currencyCode];
}
