/**
 * A JSON number as the decimal the user wrote. JavaScript's shortest
 * round-trip text of a double (`String(n)`) gives back the decimal that was
 * parsed whenever it had at most 15 significant digits, so its digits and
 * exponent say how many decimal places were sent, and arithmetic on them in
 * BigInt is exact where `Math.round(n * 100)` rounds.
 */

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** value = (negative ? -1 : 1) × digits × 10^exponent, digits without leading or trailing zeros ('0' for zero). */
export interface DecimalParts {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/** The decimal parts of a finite number; throws on Infinity and NaN, which have none. */
export function decimalParts(value: number): DecimalParts {
  const match = NUMBER_TEXT.exec(String(value));
  if (!Number.isFinite(value) || match === null) throw new RangeError(`not a finite number: ${String(value)}`);
  const fraction = match[3] ?? '';
  const all = `${match[2] ?? ''}${fraction}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  if (digits === '') return { negative: false, digits: '0', exponent: 0 };
  return { negative: match[1] === '-', digits, exponent: Number(match[4] ?? '0') - fraction.length + (all.length - digits.length) };
}

/** Decimal places written: 0.004 → 3, 12.50 → 1 (JSON keeps no trailing zeros), 1e-7 → 7, 1e21 → 0. */
export function decimalPlaces(parts: DecimalParts): number {
  return Math.max(0, -parts.exponent);
}

/** The value in units of 10^-places, exactly; `places` must be at least decimalPlaces(parts). */
export function scaledUnits(parts: DecimalParts, places: number): bigint {
  const shift = parts.exponent + places;
  if (shift < 0) throw new RangeError(`${parts.digits}e${String(parts.exponent)} has more than ${String(places)} decimal places`);
  const units = BigInt(parts.digits) * 10n ** BigInt(shift);
  return parts.negative ? -units : units;
}

/** Units of 10^-places as decimal text: (12345n, 2) → "123.45". */
export function formatUnits(units: bigint, places: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = text.slice(0, text.length - places);
  const fraction = places === 0 ? '' : `.${text.slice(text.length - places)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const LITERAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The decimal a JSON number literal writes, as DecimalParts (zero unsigned: `-0` is 0 here); null for text that is
 * no JSON number. Its digits are kept whole: `1.00000000000000000000001` keeps its 24 digits, `0.1e-400` its exponent.
 */
export function literalParts(text: string): DecimalParts | null {
  const match = LITERAL_TEXT.exec(text);
  if (match === null) return null;
  const fraction = match[3] ?? '';
  const all = `${match[2] ?? ''}${fraction}`.replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  if (digits === '') return { negative: false, digits: '0', exponent: 0 };
  return { negative: match[1] === '-', digits, exponent: Number(match[4] ?? '0') - fraction.length + (all.length - digits.length) };
}

/**
 * True when the number JSON.parse made of `text` is the decimal the text writes (`1.50` and 1.5, `1e2` and 100),
 * false when parsing changed it (`1.00000000000000000000001` became 1, `0.1e-400` became 0). The number's decimal is
 * its shortest round-trip text, which is what JSON.stringify stores; so `0.30000000000000004` is exact. Zero's sign
 * is not a decimal's: `-0` is exact here and is the caller's to judge.
 */
export function convertsExactly(text: string, value: number): boolean {
  const written = literalParts(text);
  if (written === null || !Number.isFinite(value)) return false;
  const read = decimalParts(value);
  return written.digits === read.digits && written.exponent === read.exponent && written.negative === read.negative;
}
