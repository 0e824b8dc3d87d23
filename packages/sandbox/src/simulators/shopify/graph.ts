/**
 * The simulator's GraphQL: Shopify's published schema, the part the connector selects (schema.graphql, written by
 * scripts/shopify-simulator-schema.ts), executed by graphql-js over SANDBOX's web shop rendered in Shopify's shapes.
 * A query outside that part fails validation, as an unknown field does at Shopify.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { NativeOf, NativeOrder } from '../../native.ts';
import type { SimulatorBooks } from '../kit.ts';
import { relayPage } from './relay.ts';
import { gid, numberOf, productGid, shopNumber } from './ids.ts';
import { balanceTransactionView, customerView, orderView, payoutView, productView, segmentView, shopView } from './render.ts';
import { matchesSearch, parseSearch, type SearchTerm } from './search.ts';

let schema: GraphQLSchema | null = null;

export function simulatorSchema(): GraphQLSchema {
  schema ??= buildSchema(readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8'));
  return schema;
}

/** A query parsed and validated against the simulator's schema, or the problems GraphQL finds in it (Shopify's `errors`). */
export function checkedQuery(query: string): DocumentNode | string[] {
  try {
    const document = parse(query);
    const problems = validate(simulatorSchema(), document).map((e) => e.message);
    return problems.length > 0 ? problems : document;
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

type View = Record<string, unknown>;
interface Paged {
  /** Rendered only for the records on the page asked for. */
  view: () => View;
  search: Readonly<Record<string, string | undefined>>;
  /** What `tag:x` matches: one of these is x. */
  tags?: readonly string[];
  sortAt: string;
}

/** Whether the item has every tag the search's `tag:` terms name (the other terms are matchesSearch's). */
function hasTags(item: Paged, terms: readonly SearchTerm[]): boolean {
  const tags = (item.tags ?? []).map((tag) => tag.toLowerCase());
  return terms.every((term) => term.field !== 'tag' || tags.includes(term.value.toLowerCase()));
}

/** A connection as Shopify pages it (sorted by the time given, oldest first); a bulk operation takes every node. */
function connection(items: readonly Paged[], args: Record<string, unknown>, bulk: boolean): View {
  const first = typeof args.first === 'number' ? args.first : null;
  if (first === null && !bulk) throw new GraphQLError('you must provide one of first or last');
  if (first !== null && (first < 1 || first > 250)) throw new GraphQLError('first must be between 1 and 250');
  const terms = parseSearch(args.query);
  const matching = items.filter((item) => hasTags(item, terms) && matchesSearch(item.search, terms)).sort((a, b) => a.sortAt.localeCompare(b.sortAt));
  const page = relayPage(matching, first, args.after);
  const edges = page.edges.map(({ cursor, node }) => ({ cursor, node: node.view() }));
  return { nodes: edges.map((edge) => edge.node), edges, pageInfo: page.pageInfo };
}

/** A record paged by its last change, as orders, products and customers are (searchable by updated_at and created_at). */
const byChange = (record: { Id: string; CreatedAt: string; UpdatedAt: string }, view: () => View): Paged => ({
  view,
  search: { updated_at: record.UpdatedAt, created_at: record.CreatedAt },
  sortAt: `${record.UpdatedAt}|${record.Id}`,
});

/** Deletions Shopify records as events, by the event's subject type: the SANDBOX collection and Shopify's GID type. */
const DELETION_SUBJECTS = { ORDER: ['order', 'Order'], PRODUCT: ['product', 'Product'], CUSTOMER: ['commerce_customer', 'Customer'] } as const;

/** The query root over one account's books. `bulk`: an export's run (connections without `first`). */
export function queryRoot(books: SimulatorBooks, shop: { domain: string }, bulk: boolean): View {
  /** Orders in Shopify's shape, each with its customer and transactions. */
  const orderViews = async (): Promise<(order: NativeOrder) => View> => {
    const [transactions, shoppers] = await Promise.all([books.all('transaction'), books.all('commerce_customer')]);
    const byOrder = Map.groupBy(transactions, (t) => t.OrderId);
    const byId = new Map(shoppers.map((s) => [s.Id, s]));
    return (order) => orderView(order, byId.get(order.Buyer.Id) ?? null, byOrder.get(order.Id) ?? []);
  };
  /** A connection over one SANDBOX collection, each record paged as `paged` says. */
  const listOf =
    <T extends keyof NativeOf>(type: T, paged: (record: NativeOf[T]) => Paged) =>
    async (args: Record<string, unknown>): Promise<View> =>
      connection((await books.all(type)).map(paged), args, bulk);
  return {
    shop: async () => {
      const [store] = await books.all('store');
      return shopView(store ?? null, shopNumber(books.accountKey), shop.domain, books.company.name, books.company.currency);
    },
    orders: async (args: Record<string, unknown>) => {
      const view = await orderViews();
      return connection(
        (await books.all('order')).map((o) => byChange(o, () => view(o))),
        args,
        bulk,
      );
    },
    // The simulator keeps no bulk operation (each is answered at once): none is ever running.
    bulkOperations: (args: Record<string, unknown>) => connection([], args, bulk),
    // One order or product by its GID (the connector reads an order's lines, a product's variants, past a first page).
    order: async (args: Record<string, unknown>) => {
      const found = (await books.all('order')).find((o) => gid('Order', numberOf(o.Id)) === args.id);
      return found === undefined ? null : (await orderViews())(found);
    },
    product: async (args: Record<string, unknown>) => {
      const found = (await books.all('product')).find((p) => productGid(p.Id) === args.id);
      return found === undefined ? null : productView(found);
    },
    products: listOf('product', (p) => ({ ...byChange(p, () => productView(p)), tags: p.Tags })),
    customers: listOf('commerce_customer', (s) => byChange(s, () => customerView(s, null) ?? {})),
    // SANDBOX's customer groups are the shop's segments, paged in id order (the connector's sortKey: ID).
    segments: listOf('customer_group', (g) => ({ view: () => segmentView(g), search: {}, sortAt: String(numberOf(g.Id)).padStart(12, '0') })),
    events: async (args: Record<string, unknown>) => {
      const events: Paged[] = [];
      for (const [subject, [type, kind]] of Object.entries(DELETION_SUBJECTS)) {
        for (const deleted of await books.deleted(type)) {
          const view = (): View => ({
            __typename: 'BasicEvent',
            id: gid('BasicEvent', `${numberOf(deleted.id)}${Date.parse(deleted.deletedAt)}`),
            action: 'destroy',
            subjectId: kind === 'Product' ? productGid(deleted.id) : gid(kind, numberOf(deleted.id)),
            subjectType: subject,
            createdAt: deleted.deletedAt,
          });
          events.push({
            view,
            search: { action: 'destroy', subject_type: subject, created_at: deleted.deletedAt },
            sortAt: `${deleted.deletedAt}|${deleted.id}`,
          });
        }
      }
      return connection(events, args, bulk);
    },
    shopifyPaymentsAccount: () => ({
      id: gid('ShopifyPaymentsAccount', shopNumber(books.accountKey)),
      payouts: listOf('payout', (p) => ({ view: () => payoutView(p), search: {}, sortAt: `${p.CreatedAt}|${p.Id}` })),
      // The gateway's balance history; payments_transfer_id is the payout's number (its legacyResourceId).
      balanceTransactions: async (args: Record<string, unknown>) => {
        const names = new Map((await books.all('order')).map((o) => [o.Id, o.OrderNumber]));
        return connection(
          (await books.all('transaction')).map((t) => ({
            view: () => balanceTransactionView(t, t.OrderId === null ? null : (names.get(t.OrderId) ?? null)),
            search: { payments_transfer_id: t.PayoutId === null ? '' : String(numberOf(t.PayoutId)), processed_at: t.CreatedAt },
            sortAt: `${t.CreatedAt}|${t.Id}`,
          })),
          args,
          bulk,
        );
      },
      // SANDBOX's gateway has had no dispute.
      disputes: (args: Record<string, unknown>) => connection([], args, bulk),
    }),
  };
}
