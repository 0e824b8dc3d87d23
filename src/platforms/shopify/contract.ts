/**
 * Shopify's answers parsed against its published contract (src/platforms/contract-check.ts): generated/ is written by
 * scripts/gen-shopify-types.ts from Shopify's Admin schema and the documents of queries.ts, each document's answer as a
 * type (generated/types.ts) and a JSON Schema (generated/schemas.json). A refusal is a `server` PlatformError with code
 * SHOPIFY_CONTRACT naming the first path that does not fit (`Orders.orders.nodes[2].lineItems.nodes[0].quantity must be
 * integer`).
 */
import { contractFrom } from '../contract-check.ts';
import type { ShopifyAnswers } from './generated/types.ts';

export type * from './generated/types.ts';

const check = contractFrom<ShopifyAnswers>(new URL('./generated/schemas.json', import.meta.url), 'entries', {
  platform: 'Shopify',
  code: 'SHOPIFY_CONTRACT',
  regenerate: 'node scripts/gen-shopify-types.ts',
});

export type Answer = keyof ShopifyAnswers;

/** A document's answer (a query's `data`, a bulk export's record), checked against what the document selects. */
export function parseAnswer<K extends Answer>(answer: K, value: unknown, status: number): ShopifyAnswers[K] {
  return check.one(answer, value, status);
}

/** The nodes of a connection's type (`{ nodes?: N[] }`, or nullable). */
export type NodeOf<C> = C extends { nodes?: (infer N)[] | null } ? N : never;
