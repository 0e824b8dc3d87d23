/**
 * The GraphQL documents this connector sends, all against Admin API 2026-10 (checked against Shopify's published
 * schema by the stand-in, which validates every query it receives). Page sizes keep each query's requested cost
 * (Shopify: an object 1 point, a connection 2 + `first` × its node's cost) under Shopify's 1,000-point ceiling for a
 * single query; PAGE_COSTS are those requested costs, used to take points from the bucket before each call.
 */

export const PAGE_SIZES = {
  order: 3,
  lineItems: 20,
  nested: 3,
  nestedItems: 10,
  // 5, not 8, since each variant's image is a media connection (ProductVariant.image is deprecated): 8 would cost 1,490.
  product: 5,
  variants: 20,
  customer: 50,
  transactionOrders: 10,
  payments: 25,
  segments: 100,
  deletions: 100,
  moreItems: 100,
  // A variant's image is a media connection: 100 variants a page would cost 903 points, nearly the 1,000 a query may cost.
  moreVariants: 50,
  // Shopify's most variants a product may have (2,048 since 2024-10) is more than a query may list; the first 250 are checked.
  keyedVariants: 250,
} as const;

const money = 'shopMoney { amount currencyCode }';
const address = 'address1 address2 city firstName lastName phone zip countryCodeV2 province';

/** An order's own fields; the same in paged reads and bulk exports. */
const ORDER_SCALARS = `id legacyResourceId name displayFinancialStatus displayFulfillmentStatus cancelledAt closed createdAt updatedAt currencyCode email
  totalPriceSet { ${money} } subtotalPriceSet { ${money} } totalTaxSet { ${money} } totalShippingPriceSet { ${money} } totalDiscountsSet { ${money} }
  billingAddress { ${address} } shippingAddress { ${address} }
  customer { id firstName lastName createdAt updatedAt numberOfOrders verifiedEmail defaultEmailAddress { emailAddress } defaultPhoneNumber { phoneNumber } }`;

const LINE_ITEM = `id title sku quantity originalUnitPriceSet { ${money} } variant { id } product { id }`;

const ORDER_NODE = `${ORDER_SCALARS}
  lineItems(first: ${PAGE_SIZES.lineItems}) { nodes { ${LINE_ITEM} } pageInfo { hasNextPage endCursor } }
  fulfillments(first: ${PAGE_SIZES.nested}) { id trackingInfo(first: 1) { company number url } service { serviceName }
    fulfillmentLineItems(first: ${PAGE_SIZES.nestedItems}) { nodes { quantity lineItem { id } } } }
  refunds(first: ${PAGE_SIZES.nested}) { id createdAt refundLineItems(first: ${PAGE_SIZES.nestedItems}) { nodes { quantity lineItem { id } } } }`;

export const ORDERS_QUERY = `query Orders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) { nodes { ${ORDER_NODE} } pageInfo { hasNextPage endCursor } }
}`;

/**
 * Bulk operations forbid connections inside list fields (shopify.dev/docs/api/usage/bulk-operations/queries): an
 * export's orders carry their line items (child lines with __parentId) but their fulfillments and refunds without
 * their line items; the next incremental read of a changed order fills those in.
 */
export const ORDERS_BULK_QUERY = `{ orders(query: $QUERY) { edges { node { ${ORDER_SCALARS}
  fulfillments { id trackingInfo { company number url } service { serviceName } }
  refunds { id createdAt }
  lineItems { edges { node { ${LINE_ITEM} } } } } } } }`;

const PRODUCT_SCALARS = 'id title description productType status onlineStoreUrl tags createdAt updatedAt featuredMedia { preview { image { url } } }';
const VARIANT_SCALARS = `id title sku barcode price inventoryQuantity createdAt updatedAt selectedOptions { name value }
  inventoryItem { requiresShipping tracked unitCost { amount currencyCode } }`;
/** A media node's picture: an image's own, a video's or a 3D model's preview. */
const MEDIA_NODE = 'id preview { image { url } }';
/**
 * A variant's image is its first media (ProductVariant.image is deprecated: "Use `media` instead"). A bulk export takes
 * the connection whole (products > variants > media is the two nested levels Shopify allows) and keeps the first.
 */
const VARIANT = `${VARIANT_SCALARS} media(first: 1) { nodes { ${MEDIA_NODE} } }`;
/** The media types a variant's media lines of a bulk export are (their GID type), all under `media`. */
export const VARIANT_MEDIA_CHILDREN = { MediaImage: 'media', Video: 'media', ExternalVideo: 'media', Model3d: 'media' } as const;
const BULK_VARIANT = `${VARIANT_SCALARS} media { edges { node { ${MEDIA_NODE} } } }`;

/** The rest of a product's variants, past the first page the products query gave. */
export const PRODUCT_VARIANTS_QUERY = `query ProductVariants($id: ID!, $after: String) {
  product(id: $id) { variants(first: ${PAGE_SIZES.moreVariants}, after: $after) { nodes { ${VARIANT} } pageInfo { hasNextPage endCursor } } }
}`;

/** A product as the reads take it: the first page of its variants, the rest read by PRODUCT_VARIANTS_QUERY. */
const PRODUCT_NODE = `${PRODUCT_SCALARS} variants(first: ${PAGE_SIZES.variants}) { nodes { ${VARIANT} } pageInfo { hasNextPage endCursor } }`;

export const PRODUCTS_QUERY = `query Products($first: Int!, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { ${PRODUCT_NODE} } pageInfo { hasNextPage endCursor } }
}`;

/** The rest of an order's line items, past the first page the orders query gave. */
export const ORDER_LINE_ITEMS_QUERY = `query OrderLineItems($id: ID!, $after: String) {
  order(id: $id) { lineItems(first: ${PAGE_SIZES.moreItems}, after: $after) { nodes { ${LINE_ITEM} } pageInfo { hasNextPage endCursor } } }
}`;

export const PRODUCTS_BULK_QUERY = `{ products(query: $QUERY) { edges { node { ${PRODUCT_SCALARS} variants { edges { node { ${BULK_VARIANT} } } } } } } }`;

const CUSTOMER = 'id firstName lastName createdAt updatedAt defaultEmailAddress { emailAddress } defaultPhoneNumber { phoneNumber }';

export const CUSTOMERS_QUERY = `query Customers($first: Int!, $after: String, $query: String) {
  customers(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) { nodes { ${CUSTOMER} } pageInfo { hasNextPage endCursor } }
}`;

export const CUSTOMERS_BULK_QUERY = `{ customers(query: $QUERY) { edges { node { ${CUSTOMER} } } } }`;

const TRANSACTION = `id kind status gateway createdAt processedAt amountSet { ${money} } fees { amount { amount currencyCode } }`;

/** Order transactions (sales, refunds, captures) with their fees, read through the orders changed since. */
export const TRANSACTIONS_QUERY = `query OrderTransactions($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { id updatedAt customer { id }
      transactions(first: ${PAGE_SIZES.nested}) { ${TRANSACTION} } }
    pageInfo { hasNextPage endCursor } }
}`;

/** A full read of transactions: every order's transactions (a list field, allowed in bulk operations). */
export const TRANSACTIONS_BULK_QUERY = `{ orders(query: $QUERY) { edges { node { id name updatedAt customer { id } transactions { ${TRANSACTION} } } } } }`;

export const SHOP_QUERY = 'query Shop { shop { id name myshopifyDomain currencyCode email contactEmail url updatedAt } }';

export const PAYOUTS_QUERY = `query Payouts($first: Int!, $after: String) {
  shopifyPaymentsAccount { id payouts(first: $first, after: $after) {
    nodes { id legacyResourceId issuedAt status transactionType net { amount currencyCode } }
    pageInfo { hasNextPage endCursor } } }
}`;

/** The balance transactions a payout paid out ("payments transfer" is Shopify's older name of a payout). */
export const PAYOUT_TRANSACTIONS_QUERY = `query PayoutTransactions($first: Int!, $after: String, $query: String) {
  shopifyPaymentsAccount { balanceTransactions(first: $first, after: $after, query: $query) {
    nodes { id type test transactionDate amount { amount currencyCode } fee { amount currencyCode } associatedOrder { id name } }
    pageInfo { hasNextPage endCursor } } }
}`;

export const DISPUTES_QUERY = `query Disputes($first: Int!, $after: String) {
  shopifyPaymentsAccount { id disputes(first: $first, after: $after) {
    nodes { id legacyResourceId status type initiatedAt evidenceDueBy finalizedOn amount { amount currencyCode } reasonDetails { reason } order { id } }
    pageInfo { hasNextPage endCursor } } }
}`;

/**
 * The shop's customer segments (the unified customer groups), read whole: Shopify's segments query documents no search
 * field for a change time, and a shop has few. Its `query` (the segment's rule) goes to platform_data.
 */
export const SEGMENTS_QUERY = `query Segments($first: Int!, $after: String) {
  segments(first: $first, after: $after, sortKey: ID) { nodes { id name query creationDate lastEditDate } pageInfo { hasNextPage endCursor } }
}`;

/** Deletions Shopify records as events (action "destroy"), by subject type, since a time. */
export const DELETIONS_QUERY = `query Deletions($first: Int!, $after: String, $query: String) {
  events(first: $first, after: $after, query: $query, sortKey: CREATED_AT) {
    nodes { ... on BasicEvent { id action subjectId subjectType createdAt } } pageInfo { hasNextPage endCursor } }
}`;

export const BULK_RUN_MUTATION = `mutation BulkRun($query: String!) {
  bulkOperationRunQuery(query: $query, groupObjects: true) { bulkOperation { id status } userErrors { field message code } }
}`;

/**
 * Product writes (Admin API 2026-10). None of these mutations takes Shopify's @idempotent directive (only inventory,
 * location and refund mutations do), so a created product carries the write's key as a tag (WRITE_KEY_TAG) and a
 * created variant as a metafield (WRITE_KEY_METAFIELD): an interrupted create is looked up by it before sending again.
 */
const USER_ERRORS = 'userErrors { field message }';
const CODED_USER_ERRORS = 'userErrors { field message code }';

/** A product with its variants and options in one call: Shopify's way to create a product with more than one variant. */
export const PRODUCT_SET_MUTATION = `mutation ProductSet($input: ProductSetInput!) {
  productSet(input: $input, synchronous: true) { product { ${PRODUCT_NODE} } ${CODED_USER_ERRORS} }
}`;

export const PRODUCT_UPDATE_MUTATION = `mutation ProductUpdate($product: ProductUpdateInput!) {
  productUpdate(product: $product) { product { ${PRODUCT_NODE} } ${USER_ERRORS} }
}`;

export const PRODUCT_DELETE_MUTATION = `mutation ProductDelete($input: ProductDeleteInput!) {
  productDelete(input: $input) { deletedProductId ${USER_ERRORS} }
}`;

/** One product as the reads take it (a variant write that an earlier attempt already made answers it). */
export const PRODUCT_QUERY = `query Product($id: ID!) { product(id: $id) { ${PRODUCT_NODE} } }`;

/** The product a create tagged with its write key (search field `tag`), if an earlier attempt made it. */
export const PRODUCT_BY_TAG_QUERY = `query ProductByTag($query: String!) {
  products(first: 1, query: $query) { nodes { ${PRODUCT_NODE} } }
}`;

/** What a variant write needs of its product first: its options, and which variant carries which write key. */
export const PRODUCT_OPTIONS_QUERY = `query ProductOptions($id: ID!, $namespace: String!, $key: String!) {
  product(id: $id) { id options { name } variants(first: ${PAGE_SIZES.keyedVariants}) { nodes { id metafield(namespace: $namespace, key: $key) { value } } } }
}`;

export const VARIANTS_CREATE_MUTATION = `mutation VariantsCreate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkCreate(productId: $productId, variants: $variants) { product { ${PRODUCT_NODE} } productVariants { id } ${CODED_USER_ERRORS} }
}`;

export const VARIANTS_UPDATE_MUTATION = `mutation VariantsUpdate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
  productVariantsBulkUpdate(productId: $productId, variants: $variants) { product { ${PRODUCT_NODE} } ${CODED_USER_ERRORS} }
}`;

export const VARIANTS_DELETE_MUTATION = `mutation VariantsDelete($productId: ID!, $variantsIds: [ID!]!) {
  productVariantsBulkDelete(productId: $productId, variantsIds: $variantsIds) { product { ${PRODUCT_NODE} } ${CODED_USER_ERRORS} }
}`;

/** The app's latest bulk query operations on the shop, newest first (to find one our own lost answer started). */
export const BULK_RUNNING_QUERY = `query BulkRunning {
  bulkOperations(first: 5, query: "operation_type:query", sortKey: CREATED_AT, reverse: true) { nodes { id status query } }
}`;

export const BULK_POLL_QUERY = `query BulkPoll($id: ID!) {
  bulkOperation(id: $id) { id status errorCode objectCount url partialDataUrl createdAt completedAt }
}`;

/**
 * Requested costs of the documents at PAGE_SIZES, by their answer's name (Shopify's rules; the stand-in's estimate
 * agrees, see its test): each call takes its document's from the bucket.
 */
export const PAGE_COSTS = {
  Shop: 1,
  Orders: 788,
  Products: 932,
  Customers: 152,
  OrderTransactions: 172,
  Payouts: 53,
  Disputes: 103,
  Segments: 102,
  Deletions: 102,
  OrderLineItems: 503,
  ProductVariants: 453,
  PayoutTransactions: 403,
  BulkRun: 10,
  BulkRunning: 7,
  BulkPoll: 1,
  ProductSet: 10,
  ProductUpdate: 10,
  ProductDelete: 10,
  ProductByTag: 188,
  Product: 186,
  ProductOptions: 504,
  VariantsCreate: 10,
  VariantsUpdate: 10,
  VariantsDelete: 10,
} as const;
