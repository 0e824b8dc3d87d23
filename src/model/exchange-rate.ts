/**
 * Exchange rate: what one unit of a currency is worth in another from a date on. Neither the spec (which names
 * "exchange rates" among the further accounting endpoints, shape not shown) nor the reference (2024-08-31) has such an
 * object: this one mirrors QuickBooks Online's ExchangeRate entity in the reference's naming. docs/reference.md,
 * "Exchange rates", records why.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  PlatformDataProperty,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const ExchangeRateSchema = Type.Object(
  {
    id: IdProperty,
    source_currency_code: CurrencyCodeEnum('Currency the rate converts from.'),
    target_currency_code: CurrencyCodeEnum("Currency the rate converts into: the business's home currency on every platform served."),
    rate: Type.Number({ description: 'Units of the target currency that one unit of the source currency is worth from as_of_date on.' }),
    as_of_date: Timestamp('Date the rate applies from (ISO 8601, midnight UTC), until the next rate of the same currencies.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: "The rate between a currency and the business's home currency from a date on." },
);

export type ExchangeRate = Static<typeof ExchangeRateSchema>;
