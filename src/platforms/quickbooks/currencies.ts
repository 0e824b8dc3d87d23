/**
 * Currencies and exchange rates. The home currency is a preference (Preferences.CurrencyPrefs.HomeCurrency); other
 * currencies and their rates exist only in a multicurrency company (CurrencyPrefs.MultiCurrencyEnabled): its
 * CompanyCurrency list and its ExchangeRate entities, both read by query, whole each sync (neither is known to be in
 * ChangeDataCapture). Without multicurrency the company has one currency and no rates, and neither is queried.
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { PAGE_SIZE, preferences, queryPage } from './client.ts';
import type { QboCompanyCurrency, QboExchangeRate, QboPreferences } from './native.ts';
import { entity } from './objects.ts';
import { perJob } from '../per-job.ts';

type Raw = Record<string, unknown>;

async function currencyPrefs(
  ctx: ConnectorContext,
): Promise<{ preferences: QboPreferences | undefined; home: string | null; multiCurrency: boolean }> {
  const prefs = await preferences(ctx);
  const home = prefs?.CurrencyPrefs?.HomeCurrency?.value;
  return {
    preferences: prefs,
    home: home === undefined || home === '' ? null : home.toUpperCase(),
    multiCurrency: prefs?.CurrencyPrefs?.MultiCurrencyEnabled === true,
  };
}

/**
 * The home currency learnt during a job (a sync or a write), by its connector context: a transaction without a
 * CurrencyRef is in it. Mappers are synchronous, so a read that meets such a transaction loads it first
 * (loadHomeCurrency, one Preferences call per job) and the mapper looks it up (knownHomeCurrency).
 */
const homeCurrencies = perJob(async (ctx) => (await currencyPrefs(ctx)).home);

export async function loadHomeCurrency(ctx: ConnectorContext): Promise<void> {
  await homeCurrencies.get(ctx);
}

export function knownHomeCurrency(ctx: ConnectorContext): string | null {
  return homeCurrencies.known(ctx) ?? null;
}

/** Every active CompanyCurrency (a company has a few: one read, however many pages). */
async function companyCurrencies(ctx: ConnectorContext): Promise<QboCompanyCurrency[]> {
  const all: QboCompanyCurrency[] = [];
  for (let at = 1; ; at += PAGE_SIZE) {
    const page = await queryPage(ctx, 'CompanyCurrency', [], at);
    all.push(...page.records.map((record) => entity(record)));
    if (page.records.length < PAGE_SIZE) return all;
  }
}

/**
 * The home currency (its record is the slice of Preferences that names it) and the company's other active currencies,
 * each under its ISO code as platform id: the code is what QBO references currencies by (CurrencyRef), and a
 * CompanyCurrency of the home code, should QBO list one, is the same currency.
 */
export async function readCurrencies(ctx: ConnectorContext): Promise<ReadPage> {
  const { preferences, home, multiCurrency } = await currencyPrefs(ctx);
  homeCurrencies.remember(ctx, home);
  const records = new Map<string, PlatformRecord>();
  if (home !== null) {
    const raw: Raw = {
      CurrencyPrefs: preferences?.CurrencyPrefs,
      ...(preferences?.MetaData === undefined ? {} : { MetaData: preferences.MetaData }),
    };
    records.set(home, { platformId: home, raw });
  }
  if (multiCurrency) {
    for (const currency of await companyCurrencies(ctx)) {
      const code = currency.Code?.toUpperCase();
      // An inactive currency is off the company's list: gone, as far as clients are concerned.
      if (code === undefined || code === '' || currency.Active === false) continue;
      records.set(code, { platformId: code, raw: { ...currency } });
    }
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
  const found: QboExchangeRate[] = page.records;
  for (const listed of found) {
    const rate: QboExchangeRate = listed.TargetCurrencyCode === undefined && home !== null ? { ...listed, TargetCurrencyCode: home } : listed;
    if (
      rate.SourceCurrencyCode === undefined ||
      rate.TargetCurrencyCode === undefined ||
      rate.AsOfDate === undefined ||
      typeof rate.Rate !== 'number'
    )
      continue;
    records.push({ platformId: exchangeRateId(rate), raw: { ...rate } });
  }
  const more = page.records.length >= PAGE_SIZE;
  return { records, nextPageToken: more ? String(at + page.records.length) : null, nextSince: null };
}
