/** Currencies (a CompanyCurrency, or the home currency's slice of Preferences) and exchange rates. */
import type { QboCompanyCurrency, QboExchangeRate, QboPreferences } from '../generated/native.ts';
import { currency } from '../../readers.ts';
import { createdUpdated, day, time, type Mapped } from './common.ts';

/** A currency the record names: XXX ("no currency") when it is none the model knows. */
const code = (value: string | undefined): Mapped<'currency'>['currency_code'] => currency(value, null) ?? 'XXX';

/** A CompanyCurrency, or the home currency (its raw record is Preferences' CurrencyPrefs and MetaData: no name, no creation time). */
export function mapCurrency(r: Omit<QboCompanyCurrency, 'Id'> & Pick<QboPreferences, 'CurrencyPrefs'>): Mapped<'currency'> {
  if (r.Code === undefined) {
    return {
      currency_code: code(r.CurrencyPrefs?.HomeCurrency?.value),
      currency_name: r.CurrencyPrefs?.HomeCurrency?.name ?? null,
      created_at: null,
      updated_at: time(r.MetaData?.LastUpdatedTime),
    };
  }
  return { currency_code: code(r.Code), currency_name: r.Name ?? null, ...createdUpdated(r) };
}

/** Read rates always have both currencies, a date and a rate (currencies.ts leaves out those that do not). */
export function mapExchangeRate(r: QboExchangeRate): Mapped<'exchange_rate'> {
  return {
    source_currency_code: code(r.SourceCurrencyCode),
    target_currency_code: code(r.TargetCurrencyCode),
    rate: r.Rate ?? 0,
    as_of_date: day(r.AsOfDate) ?? '1970-01-01T00:00:00.000Z',
    // QBO keeps only when a rate last changed.
    created_at: null,
    updated_at: time(r.MetaData?.LastUpdatedTime),
  };
}
