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
import { later, text } from '../readers.ts';
import { shopifyGraphql, type Sent } from './client.ts';
import type { ShopifyAnswers } from './generated/types.ts';
import { PAGE_SIZES } from './queries.ts';

/** What a paged read carries from page to page: the GraphQL cursor and the latest time seen so far. */
interface PageState {
  after: string | null;
  latest: string | null;
}

// Plain JSON, as before the kit's codec, so a read in flight across the upgrade resumes.
const tokens = pageTokens<PageState>('SHOPIFY', (parsed) => ({ after: text(parsed.after), latest: text(parsed.latest) }), { plain: true });

/** A connection as the documents select it: a page of nodes and where the next one starts. */
export interface Connection<N> {
  nodes?: N[];
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
}

/** A node a paged read keeps as a record: its id, and the time it changed where it has one. */
export type ShopifyNode = Record<string, unknown> & { id?: string; updatedAt?: string };

/** The next page's GraphQL cursor from a connection's pageInfo. */
export const endCursor = (connection: Connection<unknown> | null | undefined): string | null =>
  nextCursor(connection?.pageInfo?.hasNextPage === true, text(connection?.pageInfo?.endCursor));

/** Shopify's search syntax for "changed at or after": quotes keep the timestamp's colons one value. */
export const changedSince = (since: string): string => `updated_at:>='${since}'`;

export type EventSubject = 'ORDER' | 'PRODUCT' | 'CUSTOMER';

export interface PagedQuery<K extends Sent, N extends ShopifyNode> {
  /** The document, by its answer's type (generated/types.ts). */
  answer: K;
  operation: string;
  first: number;
  /** The connection in the answer's data. */
  connection(data: ShopifyAnswers[K]): Connection<N> | null | undefined;
  /** The records of one page's nodes: one per node (idRecords) unless given (several: an order's transactions). */
  records?: (nodes: N[], data: ShopifyAnswers[K]) => PlatformRecord[];
  /** Deleted subjects reported by events, for incremental reads; absent when the object has none. */
  deletions?: EventSubject;
  /** Whether the query takes `query:` (updated_at); payouts and disputes are read whole. */
  incremental: boolean;
  /** Fetches what a page's nodes hold only the first page of (an order's line items past the first 20). */
  complete?: (ctx: ConnectorContext, nodes: N[]) => Promise<N[]>;
}

/** How the rest of a node's nested connection is read: `query` takes the node's id and the cursor. */
export interface NestedRead<K extends Sent, N, C> {
  answer: K;
  operation: string;
  /** The node's first page of the connection. */
  first(node: N): Connection<C> | null | undefined;
  /** The next page in an answer; none: the node is gone. */
  more(data: ShopifyAnswers[K]): Connection<C> | null | undefined;
  /** The node with the connection made whole. */
  whole(node: N, connection: Connection<C>): N;
}

/**
 * Each node's nested connection made whole: while its pageInfo says there is more, the next nodes are fetched. The node
 * comes back with every node of it and no next page.
 */
export async function completeNested<K extends Sent, N extends ShopifyNode, C>(
  ctx: ConnectorContext,
  nodes: N[],
  spec: NestedRead<K, N, C>,
): Promise<N[]> {
  const complete: N[] = [];
  for (const node of nodes) {
    const id = text(node.id);
    let after = endCursor(spec.first(node));
    if (id === null || after === null) {
      complete.push(node);
      continue;
    }
    const items = [...(spec.first(node)?.nodes ?? [])];
    while (after !== null) {
      const more = spec.more(await shopifyGraphql(ctx, spec.answer, spec.operation, { id, after }));
      if (more === null || more === undefined)
        throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${spec.operation}: ${id} is gone mid-read`, requestSent: true });
      items.push(...(more.nodes ?? []));
      after = endCursor(more);
    }
    complete.push(spec.whole(node, { nodes: items, pageInfo: { hasNextPage: false, endCursor: null } }));
  }
  return complete;
}

export function idRecords(nodes: readonly ShopifyNode[]): PlatformRecord[] {
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
    const data = await shopifyGraphql(ctx, 'Deletions', `list ${subject.toLowerCase()} deletions`, {
      first: PAGE_SIZES.deletions,
      after,
      query: `action:destroy AND subject_type:${subject} AND created_at:>='${since}'`,
    });
    for (const event of data.events?.nodes ?? []) {
      const id = text(event.subjectId);
      // The query names the subject type; a subject of another type is not ours to delete.
      if (id === null || event.subjectType !== subject || event.action !== 'destroy') continue;
      ids.push(id);
      latest = later(latest, text(event.createdAt));
    }
    after = endCursor(data.events);
    if (after === null) return { ids, latest };
  }
}

export async function readPaged<K extends Sent, N extends ShopifyNode>(
  ctx: ConnectorContext,
  request: ReadRequest,
  spec: PagedQuery<K, N>,
): Promise<ReadPage> {
  const state = tokens.decode(request.pageToken) ?? { after: null, latest: null };
  const since = spec.incremental ? request.since : null;
  const data = await shopifyGraphql(ctx, spec.answer, spec.operation, {
    first: spec.first,
    after: state.after,
    ...(spec.incremental ? { query: since === null ? null : changedSince(since) } : {}),
  });
  const connection = spec.connection(data);
  if (connection === null || connection === undefined)
    throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${spec.operation}: the answer has no connection`, requestSent: true });
  const listed = connection.nodes ?? [];
  const nodes = spec.complete === undefined ? listed : await spec.complete(ctx, listed);
  const changedAt = nodes.map((node) => text(node.updatedAt));
  const latest = latestModified(state.latest, changedAt);
  const after = endCursor(connection);
  const records = spec.records === undefined ? idRecords(nodes) : spec.records(nodes, data);
  if (after !== null) return { records, nextPageToken: tokens.encode({ after, latest }) };
  if (!spec.incremental) return { records, nextPageToken: null, nextSince: null };
  // The next read starts at the latest change seen, or where this one started when nothing changed.
  if (since === null || spec.deletions === undefined) return { records, nextPageToken: null, nextSince: nextSince(latest, since) };
  const deleted = await deletedSince(ctx, spec.deletions, since);
  return { records, nextPageToken: null, deletedPlatformIds: deleted.ids, nextSince: nextSince(later(latest, deleted.latest), since) };
}
