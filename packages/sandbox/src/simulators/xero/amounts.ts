/** SANDBOX keeps amounts as decimal text; Xero sends JSON numbers. Arithmetic stays in cents. */
import { parseCents } from '../../money.ts';

/** A decimal text amount as Xero's number. */
export function num(text: string | undefined): number {
  return text === undefined ? 0 : parseCents(text) / 100;
}

/** The sum of decimal text amounts, as a number. */
export function sum(texts: readonly string[]): number {
  return texts.reduce((total, t) => total + parseCents(t), 0) / 100;
}

/** a - b of decimal text amounts, as a number. */
export function minus(a: string, b: string): number {
  return (parseCents(a) - parseCents(b)) / 100;
}
