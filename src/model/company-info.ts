/** Company info: the connected business itself, one per connection. Not shown in the spec. */
import { Type, type Static } from 'typebox';
import {
  AddressSchema,
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

export const CompanyInfoSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Nullable(Str('Display name of the business.'), 'Display name of the business.'),
    legal_name: Nullable(Str('Legal name of the business.'), 'Registered legal name of the business.'),
    addresses: Type.Array(AddressSchema, { description: 'Addresses of the business (for example legal, billing).' }),
    currency_code: Nullable(
      CurrencyCodeEnum('Default (home) currency of the business.'),
      'Default (home) currency of the business; null when the platform does not say.',
    ),
    fiscal_year_start_month: Nullable(
      Type.Integer({ minimum: 1, maximum: 12, description: 'Month the fiscal year starts (1 = January).' }),
      'Month the fiscal year starts, 1 (January) to 12; null when the platform does not say.',
    ),
    tax_number: Nullable(Str('Tax number.'), 'Tax number of the business.'),
    registration_number: Nullable(Str('Company registration number.'), 'Company registration number of the business.'),
    email: Nullable(Str('Email address.'), 'Email address of the business.'),
    phone: Nullable(Str('Phone number.'), 'Phone number of the business.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'The connected business: names, addresses, home currency and fiscal year.' },
);

export type CompanyInfo = Static<typeof CompanyInfoSchema>;
