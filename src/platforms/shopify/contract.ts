/**
 * Shopify's answers parsed against its published contract (src/platforms/contract-check.ts): generated/ is written by
 * scripts/gen-shopify-types.ts from Shopify's Admin schema and the documents of queries.ts, each document's answer as a
 * type (generated/types.ts) and a JSON Schema (generated/schemas.json). A refusal is a `server` PlatformError with code
 * SHOPIFY_CONTRACT naming the first path that does not fit (`Orders.orders.nodes[2].lineItems.nodes[0].quantity must be
 * integer`).
 */
import { ContractCheck, loadSchemas, type SchemaRef } from '../contract-check.ts';
import type { ShopifyAnswers } from './generated/types.ts';

export type * from './generated/types.ts';

interface ShopifySchemas {
  entries: Record<string, SchemaRef>;
  definitions: Record<string, object>;
}

const SCHEMAS = loadSchemas(new URL('./generated/schemas.json', import.meta.url), (file): file is ShopifySchemas => 'entries' in file);
const check = new ContractCheck<ShopifyAnswers>({
  platform: 'Shopify',
  code: 'SHOPIFY_CONTRACT',
  regenerate: 'node scripts/gen-shopify-types.ts',
  definitions: SCHEMAS.definitions,
  entries: SCHEMAS.entries,
});

export type Answer = keyof ShopifyAnswers;

/** A document's answer (a query's `data`, a bulk export's record), checked against what the document selects. */
export function parseAnswer<K extends Answer>(answer: K, value: unknown, status: number): ShopifyAnswers[K] {
  return check.one(answer, value, status);
}

/** The nodes of a connection's type (`{ nodes?: N[] }`, or nullable). */
export type NodeOf<C> = C extends { nodes?: (infer N)[] | null } ? N : never;
