/**
 * Shopify's ids for SANDBOX's records: `gid://shopify/<Type>/<number>`, the number read from the SANDBOX id's digits
 * (ORD-000123 → 123), with a record's parts numbered after it (the order's second line → 123002). Stable across reads
 * and processes, as Shopify's are.
 */
import { createHash } from 'node:crypto';

export const gid = (type: string, n: number | string): string => `gid://shopify/${type}/${n}`;

/** The number of a SANDBOX id (its last run of digits), 0 when it has none. */
export function numberOf(sandboxId: string): number {
  const digits = /(\d+)(?!.*\d)/.exec(sandboxId)?.[1];
  return digits === undefined ? 0 : Number(digits);
}

/** Records written through the API (PROD-…, VAR-…) number from here, past the generated ones they would share numbers with. */
const WRITTEN = 900_000_000_000;

/** A product's GID: a generated one's is its item's number, a written one's (PROD-…) its own past WRITTEN. */
export const productGid = (productId: string): string =>
  gid('Product', productId.startsWith('PROD-') ? WRITTEN + numberOf(productId) : numberOf(productId));

/** A written variant's number (VAR-…): past WRITTEN, as a written product's. */
export const writtenVariantNumber = (variantId: string): number => WRITTEN + numberOf(variantId);

/** The number of a part of a record: the record's number times 1,000 plus the part's (1-based). */
export const partNumber = (recordId: string, part: number): number => numberOf(recordId) * 1_000 + part;

/** The shop's own numeric id, from the simulated account. */
export function shopNumber(accountKey: string): number {
  return 10_000_000 + (createHash('sha256').update(`shopify-shop:${accountKey}`).digest().readUInt32BE(0) % 80_000_000);
}

/** The myshopify.com domain of a SANDBOX user's shop: user_good → user-good.myshopify.com. */
export const shopDomainOf = (username: string): string => `${username.toLowerCase().replace(/_/g, '-')}.myshopify.com`;
