/** Currency: a currency enabled in the accounting platform. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

export const CurrencySchema = Type.Object(
  {
    id: IdProperty,
    currency_code: CurrencyCodeEnum('Code of the currency.'),
    currency_name: Nullable(Str('Name of the currency.'), 'Name of the currency.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A currency enabled in the accounting platform.' },
);

export type Currency = Static<typeof CurrencySchema>;
