/**
 * Paged reads (incremental, and full ones of objects without a bulk export): cursor paging with `first`/`after` and
 * `pageInfo`, sorted by UPDATED_AT, filtered with Shopify's search syntax `updated_at:>='<since>'`. The cursor for
 * the next read (`nextSince`) is the platform's clock: the latest updatedAt seen (or deletion seen), carried from
 * page to page in the page token; `>=` re-reads that one record, which change detection finds unchanged, rather
 * than miss another changed in the same second.
 *
 * Deletions: Shopify's GraphQL lists never show a deleted order, product or customer. It records each deletion as
 * an event (QueryRoot.events, action "destroy", with the subject's id and type), so the last page of an incremental
 * read asks for those since `since` and reports them as deletedPlatformIds. A delete webhook (orders/delete, …) thus
 * leads, through the incremental sync it starts, to the record's deletion and its *_DELETED event.
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { latestModified, nextCursor, nextSince, pageTokens } from '../paging.ts';
import { at, isRecord, later, record, text } from '../readers.ts';
import { shopifyGraphql } from './client.ts';
import { nodesOf } from './mapping.ts';
import { DELETIONS_QUERY, PAGE_COSTS, PAGE_SIZES } from './queries.ts';

type Raw = Record<string, unknown>;

/** What a paged read carries from page to page: the GraphQL cursor and the latest time seen so far. */
interface PageState {
  after: string | null;
  latest: string | null;
}

// Plain JSON, as before the kit's codec, so a read in flight across the upgrade resumes.
const tokens = pageTokens<PageState>('SHOPIFY', (parsed) => ({ after: text(parsed.after), latest: text(parsed.latest) }), { plain: true });

/** The next page's GraphQL cursor from a connection's pageInfo. */
export const endCursor = (connection: unknown): string | null => {
  const pageInfo = record(at(connection, 'pageInfo'));
  return nextCursor(pageInfo?.hasNextPage === true, text(pageInfo?.endCursor));
};

/** Shopify's search syntax for "changed at or after": quotes keep the timestamp's colons one value. */
export const changedSince = (since: string): string => `updated_at:>='${since}'`;

export type EventSubject = 'ORDER' | 'PRODUCT' | 'CUSTOMER';

export interface PagedQuery {
  operation: string;
  query: string;
  cost: number;
  first: number;
  /** The connection in the answer's data. */
  connection(data: Raw): unknown;
  /** The records of one page's nodes (one per node, or several: an order's transactions). */
  records(nodes: Raw[], data: Raw): PlatformRecord[];
  /** Deleted subjects reported by events, for incremental reads; absent when the object has none. */
  deletions?: EventSubject;
  /** Whether the query takes `query:` (updated_at); payouts and disputes are read whole. */
  incremental: boolean;
  /** Fetches what a page's nodes hold only the first page of (an order's line items past the first 20). */
  complete?: (ctx: ConnectorContext, nodes: Raw[]) => Promise<Raw[]>;
}

/**
 * Each node's `field` connection made whole: while its pageInfo says there is more, `query` (taking the node's id and
 * the cursor) fetches the next nodes. The node comes back with every node of it and no next page.
 */
export async function completeNested(
  ctx: ConnectorContext,
  nodes: Raw[],
  spec: { field: string; root: string; query: string; cost: number; operation: string },
): Promise<Raw[]> {
  const complete: Raw[] = [];
  for (const node of nodes) {
    const id = text(node.id);
    let after = endCursor(node[spec.field]);
    if (id === null || after === null) {
      complete.push(node);
      continue;
    }
    const items = [...nodesOf(at(node, spec.field, 'nodes'))];
    while (after !== null) {
      const data = await shopifyGraphql(ctx, spec.operation, spec.query, { id, after }, spec.cost);
      const more = record(at(data, spec.root, spec.field));
      if (more === null)
        throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${spec.operation}: ${id} is gone mid-read`, requestSent: true });
      items.push(...nodesOf(more.nodes));
      after = endCursor(more);
    }
    complete.push({ ...node, [spec.field]: { nodes: items, pageInfo: { hasNextPage: false, endCursor: null } } });
  }
  return complete;
}

export function idRecords(nodes: Raw[]): PlatformRecord[] {
  return nodes.flatMap((raw) => {
    const id = text(raw.id);
    return id === null ? [] : [{ platformId: id, raw }];
  });
}

/** Deletions of `subject` since `since` (Shopify's events with action "destroy"), and the latest one's time. */
export async function deletedSince(ctx: ConnectorContext, subject: EventSubject, since: string): Promise<{ ids: string[]; latest: string | null }> {
  const ids: string[] = [];
  let latest: string | null = null;
  let after: string | null = null;
  for (;;) {
    const data = await shopifyGraphql(
      ctx,
      `list ${subject.toLowerCase()} deletions`,
      DELETIONS_QUERY,
      { first: PAGE_SIZES.deletions, after, query: `action:destroy AND subject_type:${subject} AND created_at:>='${since}'` },
      PAGE_COSTS.deletions,
    );
    for (const event of nodesOf(at(data, 'events', 'nodes'))) {
      const id = text(event.subjectId);
      // The query names the subject type; a subject of another type is not ours to delete.
      if (id === null || text(event.subjectType) !== subject || text(event.action) !== 'destroy') continue;
      ids.push(id);
      latest = later(latest, text(event.createdAt));
    }
    after = endCursor(data.events);
    if (after === null) return { ids, latest };
  }
}

export async function readPaged(ctx: ConnectorContext, request: ReadRequest, spec: PagedQuery): Promise<ReadPage> {
  const state = tokens.decode(request.pageToken) ?? { after: null, latest: null };
  const since = spec.incremental ? request.since : null;
  const data = await shopifyGraphql(
    ctx,
    spec.operation,
    spec.query,
    { first: spec.first, after: state.after, ...(spec.incremental ? { query: since === null ? null : changedSince(since) } : {}) },
    spec.cost,
  );
  const connection = spec.connection(data);
  if (!isRecord(connection))
    throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${spec.operation}: the answer has no connection`, requestSent: true });
  const listed = nodesOf(connection.nodes);
  const nodes = spec.complete === undefined ? listed : await spec.complete(ctx, listed);
  let latest = latestModified(
    state.latest,
    nodes.map((node) => text(node.updatedAt)),
  );
  const after = endCursor(connection);
  const records = spec.records(nodes, data);
  if (after !== null) return { records, nextPageToken: tokens.encode({ after, latest }) };
  if (!spec.incremental) return { records, nextPageToken: null, nextSince: null };
  let deletedPlatformIds: string[] | undefined;
  if (since !== null && spec.deletions !== undefined) {
    const deleted = await deletedSince(ctx, spec.deletions, since);
    deletedPlatformIds = deleted.ids;
    latest = later(latest, deleted.latest);
  }
  return {
    records,
    nextPageToken: null,
    ...(deletedPlatformIds === undefined ? {} : { deletedPlatformIds }),
    // Nothing changed: the cursor stays where it was.
    nextSince: nextSince(latest, since),
  };
}
