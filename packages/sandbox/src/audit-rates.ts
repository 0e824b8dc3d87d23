/**
 * The audit of exchange rates (audit.ts): each rate turns one of the business's other currencies into its home
 * currency, at most one per currency and date; a currency's listed rate (platform_data ExchangeRate, units of it per
 * unit of the home currency) is the inverse of its latest rate; and every document carries the rate of its currency
 * on its date: 1 in the home currency, otherwise the latest rate of that currency on or before the date, when there
 * is one. The generator and the clock keep every document in the home currency at rate 1.
 */
type Obj = Record<string, unknown>;

/** Objects of the unified types the checks read, by service id. */
export interface RatedBooks {
  home: string | null;
  currencies: Map<string, Obj>;
  /** The native currencies (their listed ExchangeRate is platform data only), by code. */
  listed: Map<string, string>;
  rates: Map<string, Obj>;
  documents: Map<string, Obj>;
}

/** Documents within half a unit of their sixth decimal (the sandbox writes six) carry the rate. */
const DOCUMENT_TOLERANCE = 5e-7;
/** A listed rate has six decimals too: its product with the rate it inverts is 1 within this. */
const LISTED_TOLERANCE = 1e-5;

/** The rate of `code` in effect on `date` (an ISO 8601 timestamp): the latest as of that day; null for the latest of all. */
function inEffect(rates: readonly Obj[], code: string, date: string | null): number | null {
  let found: Obj | null = null;
  for (const rate of rates) {
    if (rate.source_currency_code !== code || (date !== null && String(rate.as_of_date) > date)) continue;
    if (found === null || String(rate.as_of_date) > String(found.as_of_date)) found = rate;
  }
  return found === null ? null : Number(found.rate);
}

export function exchangeRateProblems(books: RatedBooks): string[] {
  const problems: string[] = [];
  const codes = new Set([...books.currencies.values()].map((c) => String(c.currency_code)));
  const seen = new Set<string>();
  const rates = [...books.rates.values()];
  for (const [id, rate] of books.rates) {
    const source = String(rate.source_currency_code);
    if (rate.target_currency_code !== books.home)
      problems.push(`${id}: target ${String(rate.target_currency_code)} is not the home currency ${String(books.home)}`);
    if (source === books.home || !codes.has(source)) problems.push(`${id}: source ${source} is not another currency of the business`);
    if (typeof rate.rate !== 'number' || !(rate.rate > 0) || !Number.isFinite(rate.rate))
      problems.push(`${id}: rate ${String(rate.rate)} is not a positive number`);
    const key = `${source} ${String(rate.as_of_date)}`;
    if (seen.has(key)) problems.push(`${id}: a second rate of ${key}`);
    seen.add(key);
  }
  for (const [code, listed] of books.listed) {
    if (code === books.home) continue;
    const latest = inEffect(rates, code, null);
    if (latest !== null && Math.abs(Number(listed) * latest - 1) > LISTED_TOLERANCE)
      problems.push(`currency:${code}: lists ${listed}, its latest rate is ${latest}`);
  }
  for (const [id, doc] of books.documents) {
    // Text before 2024-08-31's numbers on some objects; both read as a number.
    const written = doc.currency_rate;
    if (typeof written !== 'string' && typeof written !== 'number') continue;
    const carried = Number(written);
    const date = String(doc.issue_date ?? doc.transaction_date);
    const code = String(doc.currency_code);
    const expected = code === books.home ? 1 : inEffect(rates, code, date);
    if (expected !== null && Math.abs(carried - expected) > DOCUMENT_TOLERANCE)
      problems.push(`${id}: currency_rate ${written} of ${code}, the rate on ${date.slice(0, 10)} is ${expected}`);
  }
  return problems;
}
