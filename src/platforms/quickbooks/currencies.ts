/**
 * Currencies and exchange rates. The home currency is a preference (Preferences.CurrencyPrefs.HomeCurrency); other
 * currencies and their rates exist only in a multicurrency company (CurrencyPrefs.MultiCurrencyEnabled): its
 * CompanyCurrency list and its ExchangeRate entities, both read by query, whole each sync (neither is known to be in
 * ChangeDataCapture). Without multicurrency the company has one currency and no rates, and neither is queried.
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { nextOffset } from '../paging.ts';
import { baseCurrency, currency, text } from '../readers.ts';
import { PAGE_SIZE, preferences, queryPage } from './client.ts';
import { parseEntity } from './contract.ts';
import type { QboCompanyCurrency, QboExchangeRate } from './generated/native.ts';

/**
 * The home currency, learnt once per job (a sync or a write): a transaction without a CurrencyRef is in it. Mappers
 * are synchronous, so a read that meets such a transaction loads it first (read.ts) and the mapper reads it known.
 */
export const QBO_BASE = baseCurrency(async (ctx) => (await preferences(ctx))?.CurrencyPrefs?.HomeCurrency?.value);

async function currencyPrefs(ctx: ConnectorContext) {
  const prefs = await preferences(ctx);
  // The code as QBO writes it, upper-cased: a code the model does not know is still the company's one currency.
  const home = text(prefs?.CurrencyPrefs?.HomeCurrency?.value)?.toUpperCase() ?? null;
  QBO_BASE.remember(ctx, currency(home, null));
  return { preferences: prefs, home, multiCurrency: prefs?.CurrencyPrefs?.MultiCurrencyEnabled === true };
}

/** Every active CompanyCurrency (a company has a few: one read, however many pages). */
async function companyCurrencies(ctx: ConnectorContext): Promise<QboCompanyCurrency[]> {
  const all: QboCompanyCurrency[] = [];
  for (let at: number | null = 1; at !== null;) {
    const page = await queryPage(ctx, 'CompanyCurrency', [], at);
    all.push(...page.records.map((record) => parseEntity('CompanyCurrency', record)));
    at = nextOffset(at, page.records.length, PAGE_SIZE);
  }
  return all;
}

/**
 * The home currency (its record is the slice of Preferences that names it) and the company's other active currencies,
 * each under its ISO code as platform id: the code is what QBO references currencies by (CurrencyRef), and a
 * CompanyCurrency of the home code, should QBO list one, is the same currency.
 */
export async function readCurrencies(ctx: ConnectorContext): Promise<ReadPage> {
  const { preferences, home, multiCurrency } = await currencyPrefs(ctx);
  const records = new Map<string, PlatformRecord>();
  if (home !== null) {
    const metaData = preferences?.MetaData === undefined ? {} : { MetaData: preferences.MetaData };
    records.set(home, { platformId: home, raw: { CurrencyPrefs: preferences?.CurrencyPrefs, ...metaData } });
  }
  for (const listed of multiCurrency ? await companyCurrencies(ctx) : []) {
    const code = listed.Code?.toUpperCase();
    // An inactive currency is off the company's list: gone, as far as clients are concerned.
    if (code === undefined || code === '' || listed.Active === false) continue;
    records.set(code, { platformId: code, raw: { ...listed } });
  }
  return { records: [...records.values()], nextPageToken: null, nextSince: null };
}

/** A rate's platform id: QBO keys rates by their currencies and date (they have no Id). */
export function exchangeRateId(rate: QboExchangeRate): string {
  return `${rate.SourceCurrencyCode ?? ''}-${rate.TargetCurrencyCode ?? ''}-${rate.AsOfDate ?? ''}`;
}

/**
 * One page of `SELECT * FROM ExchangeRate` (no ORDERBY: the entity has no Id to order by). A rate without a
 * TargetCurrencyCode is into the home currency (QBO's default), which the read fills in; rates without a currency,
 * date or rate are no rates.
 */
export async function readExchangeRates(ctx: ConnectorContext, request: ReadRequest): Promise<ReadPage> {
  const { home, multiCurrency } = await currencyPrefs(ctx);
  if (!multiCurrency) return { records: [], nextPageToken: null, nextSince: null };
  const at = request.pageToken === null ? 1 : Number(request.pageToken);
  if (!Number.isInteger(at) || at < 1) throw new Error(`not a QuickBooks exchange rate page token: ${String(request.pageToken)}`);
  const page = await queryPage(ctx, 'ExchangeRate', [], at, PAGE_SIZE, null);
  const records: PlatformRecord[] = [];
  for (const listed of page.records.map((record) => parseEntity('ExchangeRate', record))) {
    const rate: QboExchangeRate = listed.TargetCurrencyCode === undefined && home !== null ? { ...listed, TargetCurrencyCode: home } : listed;
    if (rate.SourceCurrencyCode === undefined || rate.TargetCurrencyCode === undefined || rate.AsOfDate === undefined) continue;
    if (typeof rate.Rate === 'number') records.push({ platformId: exchangeRateId(rate), raw: { ...rate } });
  }
  const next = nextOffset(at, page.records.length, PAGE_SIZE);
  return { records, nextPageToken: next === null ? null : String(next), nextSince: null };
}
