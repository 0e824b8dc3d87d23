/**
 * Shopify's Admin GraphQL schema, API 2026-10, as Shopify publishes it (test/contracts/published.ts: the introspection
 * result in @shopify/dev-mcp), and the query cost the stand-in charges, by Shopify's documented rules (the simulator's
 * cost.ts, written once there).
 */
import type { GraphQLSchema } from 'graphql';
import { readPublishedJson, SHOPIFY_ADMIN_SCHEMA } from '../../contracts/published.ts';
import { schemaFromIntrospection } from '../kit/graphql.ts';

// The connector's test checks its declared page costs against these rules.
export { requestedCost } from '../../../packages/sandbox/src/simulators/shopify/cost.ts';

let cached: Promise<GraphQLSchema> | null = null;

/** The published schema, built once per process. */
export function shopifySchema(): Promise<GraphQLSchema> {
  cached ??= readPublishedJson(SHOPIFY_ADMIN_SCHEMA).then(schemaFromIntrospection);
  return cached;
}
