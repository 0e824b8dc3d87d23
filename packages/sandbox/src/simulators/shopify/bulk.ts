/**
 * Bulk operations as Shopify runs them (shopify.dev/docs/api/usage/bulk-operations/queries): the query runs over the
 * whole shop and its result is JSONL, one line per node; a node of a nested connection is a line of its own after
 * its parent's, carrying `__parentId`. The simulator keeps no operation: its id carries the query and the time it was
 * asked, so any process answers a poll or a result download, and the result is rendered when it is downloaded.
 */
import { execute, parse, type GraphQLSchema } from 'graphql';
import type { SimulatorBooks } from '../kit.ts';
import { isRecord } from '../wire.ts';
import { gid } from './ids.ts';
import { queryRoot } from './graph.ts';

type View = Record<string, unknown>;

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

const isConnection = (value: unknown): value is { edges: { node: View }[] } =>
  typeof value === 'object' && value !== null && Array.isArray((value as View).edges);

function linesOf(node: View, parentId: string | null, out: string[]): void {
  const own: View = {};
  const children: View[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (isConnection(value)) children.push(...value.edges.map((edge) => edge.node));
    else own[key] = value;
  }
  out.push(JSON.stringify(parentId === null ? own : { ...own, __parentId: parentId }));
  const id = typeof own.id === 'string' ? own.id : null;
  for (const child of children) linesOf(child, id, out);
}

/** The JSONL result of a bulk query over the books. */
export async function bulkResult(schema: GraphQLSchema, books: SimulatorBooks, domain: string, query: string): Promise<string[]> {
  const result = await execute({ schema, document: parse(query), rootValue: queryRoot(books, { domain }, true) });
  if (result.errors !== undefined && result.errors.length > 0) throw new Error(result.errors.map((e) => e.message).join('; '));
  const lines: string[] = [];
  for (const value of Object.values(result.data ?? {})) {
    if (isConnection(value)) for (const edge of value.edges) linesOf(edge.node, null, lines);
  }
  return lines;
}
