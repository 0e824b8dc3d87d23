/**
 * How many decimal places an amount in a currency may have: its ISO 4217
 * minor unit (JPY 0, USD 2, KWD 3, CLF 4). Taken from Intl, whose CLDR data
 * follows ISO 4217 except for the currencies below, where it gives fewer
 * places (0 for HUF and IDR, which ISO 4217 and the accounting platforms keep
 * in hundredths); refusing amounts those currencies do have would be wrong,
 * so ISO's value wins there.
 */

const ISO_WHERE_INTL_DIFFERS: Readonly<Record<string, number>> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  MRO: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  STD: 2,
  SYP: 2,
  YER: 2,
};

/** In the model's currency list but not ISO 4217 (Intl would say 2): their customary smallest units. */
const CRYPTO: Readonly<Record<string, number>> = { BTC: 8, ETH: 18 };

/** The most any ISO 4217 currency has (CLF, UYW): the limit when the currency of an amount is not known. */
export const MOST_MINOR_UNITS = 4;

const ISO_CODE = /^[A-Z]{3}$/;

/** Building an Intl.NumberFormat costs tens of microseconds: asked once per currency and process. */
const known = new Map<string, number | null>();

/** Decimal places of the currency; null for text that is no currency code. */
export function minorUnits(currency: string): number | null {
  let places = known.get(currency);
  if (places === undefined) {
    places = ISO_CODE.test(currency)
      ? (ISO_WHERE_INTL_DIFFERS[currency] ??
        CRYPTO[currency] ??
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
        null)
      : null;
    // Only codes of the schema's currency list reach here, so the map stays small; anything else is not kept.
    if (places !== null) known.set(currency, places);
  }
  return places;
}
