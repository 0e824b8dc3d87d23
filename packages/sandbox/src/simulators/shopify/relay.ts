/**
 * Relay cursor connections (relay.dev/graphql/connections.htm), as Shopify pages its lists: `first` items
 * after the `after` cursor, given as `nodes` and as `edges` (each with its cursor), with `pageInfo`. A cursor is
 * opaque to clients; here it is the base64url of the item's index, so any process reads it back.
 */
import { GraphQLError } from 'graphql';

export const cursorOf = (index: number): string => Buffer.from(`i:${index}`).toString('base64url');

/** The index just past `cursor` (0 when none is given); a cursor not written by cursorOf is a GraphQL error. */
export function indexAfter(cursor: unknown): number {
  if (typeof cursor !== 'string') return 0;
  const match = /^i:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new GraphQLError('Invalid cursor');
  return Number(match[1]) + 1;
}

/** The page of `list` after the `after` cursor: `first` items (null: all the rest). */
export function relayPage<T>(list: readonly T[], first: number | null, after: unknown) {
  const start = indexAfter(after);
  const end = first === null ? list.length : Math.min(list.length, start + first);
  const nodes = list.slice(start, end);
  return {
    nodes,
    edges: nodes.map((node, i) => ({ cursor: cursorOf(start + i), node })),
    pageInfo: {
      hasNextPage: end < list.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length === 0 ? null : cursorOf(start),
      endCursor: nodes.length === 0 ? null : cursorOf(end - 1),
    },
  };
}
