/**
 * Bulk operations as Shopify runs them (shopify.dev/docs/api/usage/bulk-operations/queries): the query runs over the
 * whole shop and its result is JSONL (jsonl.ts). The simulator keeps no operation: its id carries the query and the
 * time it was asked, so any process answers a poll or a result download, and the result is rendered when it is
 * downloaded.
 */
import { execute, parse, type GraphQLSchema } from 'graphql';
import type { SimulatorBooks } from '../kit.ts';
import { isRecord } from '../wire.ts';
import { gid } from './ids.ts';
import { queryRoot } from './graph.ts';
import { bulkLines } from './jsonl.ts';

export interface BulkOperationRef {
  query: string;
  createdAt: string;
}

const PREFIX = 'gid://shopify/BulkOperation/';

export const bulkOperationId = (ref: BulkOperationRef): string => gid('BulkOperation', Buffer.from(JSON.stringify(ref)).toString('base64url'));

export function bulkOperationRef(id: unknown): BulkOperationRef | null {
  if (typeof id !== 'string' || !id.startsWith(PREFIX)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8'));
    if (!isRecord(parsed)) return null;
    const { query, createdAt } = parsed;
    return typeof query === 'string' && typeof createdAt === 'string' ? { query, createdAt } : null;
  } catch {
    return null;
  }
}

/** The JSONL result of a bulk query over the books. */
export async function bulkResult(schema: GraphQLSchema, books: SimulatorBooks, domain: string, query: string): Promise<string[]> {
  const result = await execute({ schema, document: parse(query), rootValue: queryRoot(books, { domain }, true) });
  if (result.errors !== undefined && result.errors.length > 0) throw new Error(result.errors.map((e) => e.message).join('; '));
  return bulkLines(result.data ?? {}).lines;
}
