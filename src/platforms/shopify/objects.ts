/**
 * How each unified object is read from Shopify: the paged query (incremental reads, and full reads of the small
 * objects), the bulk export for full reads of orders, products and customers, and the mapping.
 */
import type { ConnectorContext, NestedHandler, PlatformRecord } from '../connector.ts';
import { defineObject, type ObjectEntry, type ObjectTable } from '../objects.ts';
import { perJob } from '../per-job.ts';
import { baseCurrency, knownBase, text } from '../readers.ts';
import { shopifyBulkRead } from './bulk.ts';
import { shopifyGraphql } from './client.ts';
import {
  mapCustomer,
  mapDispute,
  mapOrder,
  mapPayout,
  mapProduct,
  mapStore,
  mapTransaction,
  type BalanceTransaction,
  type ShopifyPayout,
  type TransactionsOrder,
} from './mapping.ts';
import { PAGE_SIZES, VARIANT_MEDIA_CHILDREN } from './queries.ts';
import { completeProducts, createProduct, deleteProduct, findCreatedProduct, shopifyVariants, updateProduct } from './products.ts';
import { completeNested, endCursor, idRecords, readPaged } from './read.ts';
import { mapSegment } from './segments.ts';

const READ_ONLY = { read: true, filter: true, fetchByPlatformId: true, create: false, update: false, delete: false } as const;

/** The shop (SHOP_QUERY), once per job: the store record, and the shop's currency for the mappers. */
const shopOfJob = perJob(async (ctx) => (await shopifyGraphql(ctx, 'Shop', 'shop', {})).shop ?? null);

/** The shop's currency: what a currency code the model does not know reads as (../readers.ts). */
export const SHOPIFY_BASE = baseCurrency(async (ctx) => (await shopOfJob.get(ctx))?.currencyCode);
const base = (ctx: ConnectorContext) => knownBase(SHOPIFY_BASE, ctx);

/** Each order's transactions as records of their own; the order's id, name and customer ride along in `_order`. */
function transactionsOf(nodes: readonly TransactionsOrder[]): PlatformRecord[] {
  return nodes.flatMap((order) => {
    const context = { id: order.id, name: order.name, customer: order.customer };
    return (order.transactions ?? []).flatMap((transaction) => {
      const id = text(transaction.id);
      return id === null ? [] : [{ platformId: id, raw: { ...transaction, _order: context } }];
    });
  });
}

/**
 * Each payout with the balance transactions it paid out, in `_transactions`: Shopify files them under the payout's
 * numeric id as `payments_transfer_id` (a documented search field of balanceTransactions).
 */
async function withPayoutTransactions(ctx: ConnectorContext, payouts: readonly ShopifyPayout[]): Promise<ShopifyPayout[]> {
  const complete: ShopifyPayout[] = [];
  for (const payout of payouts) {
    const transferId = text(payout.legacyResourceId);
    const transactions: BalanceTransaction[] = [];
    let after: string | null = null;
    while (transferId !== null) {
      const data = await shopifyGraphql(ctx, 'PayoutTransactions', 'list payout transactions', {
        first: PAGE_SIZES.moreItems,
        after,
        query: `payments_transfer_id:${transferId}`,
      });
      const connection = data.shopifyPaymentsAccount?.balanceTransactions;
      transactions.push(...(connection?.nodes ?? []));
      after = endCursor(connection);
      if (after === null) break;
    }
    complete.push({ ...payout, _transactions: transactions });
  }
  return complete;
}

/** Payouts carry the payments account's id (the unified gateway_account_id) in `_account`. */
function paymentsRecords(nodes: readonly ShopifyPayout[], data: { shopifyPaymentsAccount?: { id?: string } | null }): PlatformRecord[] {
  const account = text(data.shopifyPaymentsAccount?.id);
  return idRecords(nodes).map((record) => ({ ...record, raw: { ...record.raw, _account: account } }));
}

/** An entry whose records keep others with endpoints of their own (a product's variants: src/writes/nested.ts). */
const withNested = (entry: ObjectEntry, nested: Readonly<Record<string, NestedHandler>>): ObjectEntry => ({
  ...entry,
  handler: { ...entry.handler, nested },
});

const businessDate = (field: string) => (record: PlatformRecord) => text(record.raw[field]);

export const SHOPIFY_OBJECTS: ObjectTable = {
  order: defineObject<'order'>({
    capabilities: {
      ...READ_ONLY,
      incremental: 'cursor',
      deletions: 'reported',
      unmappedFields: ['line_items.unit_cost'],
      platformDataOnly: ['subtotalPriceSet', 'email', 'legacyResourceId'],
    },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'Orders',
        operation: 'list orders',
        first: PAGE_SIZES.order,
        connection: (data) => data.orders,
        deletions: 'ORDER',
        incremental: true,
        complete: (ctx, nodes) =>
          completeNested(ctx, nodes, {
            answer: 'OrderLineItems',
            operation: 'list more order lines',
            first: (order) => order.lineItems,
            more: (data) => data.order?.lineItems,
            whole: (order, lineItems) => ({ ...order, lineItems }),
          }),
      }),
    bulk: shopifyBulkRead('OrdersBulk', { LineItem: 'lineItems' }, 'orders', idRecords),
    map: (record, ctx) => mapOrder(record, ctx, base(ctx)),
    baseCurrency: { of: SHOPIFY_BASE, fields: ['currencyCode'] },
    businessDate: businessDate('createdAt'),
  }),
  product: withNested(
    defineObject<'product'>({
      capabilities: {
        ...READ_ONLY,
        create: true,
        update: true,
        delete: true,
        incremental: 'cursor',
        deletions: 'reported',
        unmappedFields: ['variants.fulfillment_service'],
      },
      read: (ctx, request) =>
        readPaged(ctx, request, {
          answer: 'Products',
          operation: 'list products',
          first: PAGE_SIZES.product,
          connection: (data) => data.products,
          deletions: 'PRODUCT',
          incremental: true,
          complete: completeProducts,
        }),
      bulk: shopifyBulkRead('ProductsBulk', { ProductVariant: 'variants', ...VARIANT_MEDIA_CHILDREN }, 'products', idRecords),
      map: (record, ctx) => mapProduct(record, ctx, base(ctx)),
      baseCurrency: { of: SHOPIFY_BASE, fields: ['currencyCode'] },
      businessDate: businessDate('createdAt'),
      create: createProduct,
      update: updateProduct,
      delete: deleteProduct,
      findCreated: (ctx) => findCreatedProduct(ctx),
    }),
    { variants: shopifyVariants },
  ),
  commerce_customer: defineObject<'commerce_customer'>({
    capabilities: { ...READ_ONLY, incremental: 'cursor', deletions: 'reported', unmappedFields: ['orders'] },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'Customers',
        operation: 'list customers',
        first: PAGE_SIZES.customer,
        connection: (data) => data.customers,
        deletions: 'CUSTOMER',
        incremental: true,
      }),
    bulk: shopifyBulkRead('CustomersBulk', {}, 'customers', idRecords),
    map: (record) => mapCustomer(record),
    businessDate: businessDate('createdAt'),
  }),
  transaction: defineObject<'transaction'>({
    capabilities: {
      ...READ_ONLY,
      incremental: 'cursor',
      // A deleted order's transactions go with it; Shopify records no deletion of a transaction itself.
      deletions: 'none',
      unmappedFields: ['payout_id'],
    },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'OrderTransactions',
        operation: 'list order transactions',
        first: PAGE_SIZES.transactionOrders,
        connection: (data) => data.orders,
        records: transactionsOf,
        incremental: true,
      }),
    bulk: shopifyBulkRead('TransactionsBulk', {}, 'order transactions', transactionsOf),
    map: (record, ctx) => mapTransaction(record, ctx, base(ctx)),
    baseCurrency: { of: SHOPIFY_BASE, fields: ['currencyCode'] },
    businessDate: businessDate('createdAt'),
  }),
  payout: defineObject<'payout'>({
    capabilities: {
      ...READ_ONLY,
      filter: true,
      incremental: 'none',
      deletions: 'none',
      unmappedFields: ['method', 'destination'],
    },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'Payouts',
        operation: 'list payouts',
        first: PAGE_SIZES.payments,
        connection: (data) => data.shopifyPaymentsAccount?.payouts,
        records: paymentsRecords,
        incremental: false,
        complete: withPayoutTransactions,
      }),
    map: (record, ctx) => mapPayout(record, ctx, base(ctx)),
    baseCurrency: { of: SHOPIFY_BASE, fields: ['currencyCode'] },
    businessDate: businessDate('issuedAt'),
  }),
  dispute: defineObject<'dispute'>({
    capabilities: { ...READ_ONLY, incremental: 'none', deletions: 'none', unmappedFields: ['transaction_id'] },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'Disputes',
        operation: 'list disputes',
        first: PAGE_SIZES.payments,
        connection: (data) => data.shopifyPaymentsAccount?.disputes,
        incremental: false,
      }),
    map: (record, ctx) => mapDispute(record, ctx, base(ctx)),
    baseCurrency: { of: SHOPIFY_BASE, fields: ['currencyCode'] },
    businessDate: businessDate('initiatedAt'),
  }),
  customer_group: defineObject<'customer_group'>({
    // Read whole each time (the segments query has no change-time search field): a segment gone is one not listed.
    capabilities: { ...READ_ONLY, incremental: 'none', deletions: 'full_listing' },
    read: (ctx, request) =>
      readPaged(ctx, request, {
        answer: 'Segments',
        operation: 'list segments',
        first: PAGE_SIZES.segments,
        connection: (data) => data.segments,
        incremental: false,
      }),
    map: (record) => mapSegment(record),
    businessDate: businessDate('creationDate'),
  }),
  store: defineObject<'store'>({
    capabilities: { ...READ_ONLY, filter: false, incremental: 'none', deletions: 'none' },
    async read(ctx) {
      const shop = await shopOfJob.get(ctx);
      const id = text(shop?.id);
      return { records: shop === null || id === null ? [] : [{ platformId: id, raw: shop }], nextPageToken: null, nextSince: null };
    },
    map: (record) => mapStore(record),
  }),
};
