/** The company: CompanyInfo, Preferences (its home currency and whether it is multicurrency), CompanyCurrency, ExchangeRate. */
import type { NativeCompany, NativeCurrency, NativeExchangeRate } from '../../native.ts';
import type { SimulatorBooks } from '../kit.ts';
import { postalAddress } from './names.ts';
import { bookkeeping, compact, entityMeta, qboTime, type Json } from './shapes.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function companyInfo(r: NativeCompany | undefined, books: SimulatorBooks): Json {
  const address = postalAddress.out(r?.Address);
  return compact({
    CompanyName: r?.TradingName ?? books.company.name,
    LegalName: r?.LegalName ?? books.company.name,
    CompanyAddr: address,
    LegalAddr: address,
    CustomerCommunicationAddr: address,
    Country: r?.Country ?? books.company.country,
    Email: r === undefined ? undefined : { Address: r.Email },
    PrimaryPhone: r === undefined ? undefined : { FreeFormNumber: r.Phone },
    WebAddr: r === undefined ? {} : { URI: r.Website },
    FiscalYearStartMonth: MONTHS[(r?.FiscalYearStartMonth ?? 1) - 1] ?? 'January',
    CompanyStartDate: r?.CreatedAt.slice(0, 10),
    SupportedLanguages: 'en',
    NameValue: r === undefined ? undefined : [{ Name: 'IndustryType', Value: r.Industry }],
    ...(r === undefined ? { domain: 'QBO', sparse: false, SyncToken: '0' } : entityMeta(r)),
    // CompanyInfo's Id is the realm's own record, always 1.
    Id: '1',
  });
}

/** Multicurrency is on when the books hold a currency other than the home one. */
export function preferences(books: SimulatorBooks, currencies: readonly NativeCurrency[]): Json {
  const home = books.company.currency;
  const at = Date.now();
  return {
    AccountingInfoPrefs: { TrackDepartments: true, FirstMonthOfFiscalYear: 'January', ClassTrackingPerTxnLine: true, ClassTrackingPerTxn: false },
    ProductAndServicesPrefs: { ForSales: true, ForPurchase: true, QuantityWithPriceAndRate: true, QuantityOnHand: false },
    CurrencyPrefs: { HomeCurrency: { value: home }, MultiCurrencyEnabled: currencies.some((c) => c.Code !== home) },
    TaxPrefs: { UsingSalesTax: true },
    ...bookkeeping('1', 0, at, at),
  };
}

/** The company's other currencies, numbered by code (QBO references them by code; their Ids only order them). */
export function companyCurrencies(currencies: readonly NativeCurrency[], home: string): Json[] {
  return currencies
    .filter((c) => c.Code !== home)
    .sort((a, b) => (a.Code < b.Code ? -1 : 1))
    .map((c, n) => ({ Code: c.Code, Name: c.Name, Active: true, ...entityMeta(c), Id: String(n + 2) }));
}

export function exchangeRate(r: NativeExchangeRate): Json {
  return {
    SourceCurrencyCode: r.SourceCurrencyCode,
    TargetCurrencyCode: r.TargetCurrencyCode,
    Rate: Number(r.Rate),
    AsOfDate: r.AsOfDate,
    SyncToken: '0',
    MetaData: { LastUpdatedTime: qboTime(r.UpdatedAt) },
  };
}
