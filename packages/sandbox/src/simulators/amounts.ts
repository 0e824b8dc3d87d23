/** SANDBOX keeps amounts as decimal text; platforms' JSON answers carry numbers. Arithmetic stays in cents. */
import { parseCents } from '../money.ts';

/** A decimal text amount as a JSON number (0 when absent). */
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
