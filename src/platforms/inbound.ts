/**
 * Helpers every connector's write mapping shares (unified → native payloads):
 * presence checks with PATCH semantics (an omitted field keeps its value),
 * service ids turned into platform ids through the connection, and the plain
 * conversions, each failing with a 400 that names the field.
 */
import { decimalParts, decimalPlaces, formatUnits, scaledUnits } from '../money/decimal.ts';
import { ServiceError } from '../errors/catalogue.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import type { ConnectorContext } from './connector.ts';

export type Input = Record<string, unknown>;
export type Native = Record<string, unknown>;

export function has(input: Input, field: string): boolean {
  return Object.hasOwn(input, field);
}

export function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', `${field}: ${message}`, { field, location: 'body' });
}

/** Platform id of a linked object; undefined for null/absent, a 400 for an id this connection does not know. */
export async function link(ctx: ConnectorContext, type: UnifiedObjectType, value: unknown, field: string): Promise<string | undefined> {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be an id (string)');
  const platformId = await ctx.platformIdOf(type, value);
  if (platformId === null) throw invalid(field, `no ${type} with id ${value} on this connection`);
  return platformId;
}

/** A JSON number as the platform's decimal text; values with more than 2 decimals go through as is, for the platform to refuse. */
export function decimal(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  const cents = Math.round(value * 100);
  if (Math.abs(cents - value * 100) > 1e-6) return String(value);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * An amount for a platform that keeps whole cents: a real fraction of a cent (0.004 in a three-decimal currency) is
 * refused, never rounded away. Decided on the decimal the number is (src/money/decimal.ts), not on `value * 100`,
 * whose float error grows with the amount (161941518.64 * 100 is 16194151864.000002).
 */
export function wholeCents(value: number, field: string): number {
  if (!Number.isFinite(value) || decimalPlaces(decimalParts(value)) > 2) {
    throw invalid(field, `has more than 2 decimal places (got ${String(value)}), which this platform does not keep; amounts are never rounded`);
  }
  return value;
}

/** a - b as decimals, exactly (10.1 - 0.1 is 10, where the float subtraction gives 9.999999999999998). */
export function exactDifference(a: number, b: number): number {
  const [left, right] = [decimalParts(a), decimalParts(b)];
  const places = Math.max(decimalPlaces(left), decimalPlaces(right));
  return Number(formatUnits(scaledUnits(left, places) - scaledUnits(right, places), places));
}

/** A timestamp or date as the platform's YYYY-MM-DD. */
export function dateOnly(value: unknown): unknown {
  return typeof value === 'string' && value.length >= 10 ? value.slice(0, 10) : value;
}

export function list(input: Input, field: string): Input[] {
  const value = input[field];
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(field, 'must be an array');
  return value.map((entry, n) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(`${field}[${n}]`, 'must be an object');
    return entry as Input;
  });
}
