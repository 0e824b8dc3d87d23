// Written by scripts/gen-shopify-types.ts from Shopify's published Admin schema (API 2026-10) and queries.ts: do not edit.

import * as queries from '../queries.ts';

/** What BULK_POLL_QUERY answers. */
export type BulkPoll = {
  bulkOperation?: {
    id?: string;
    status?: string;
    errorCode?: string | null;
    objectCount?: string;
    url?: string | null;
    partialDataUrl?: string | null;
    createdAt?: string;
    completedAt?: string | null;
  } | null;
};

/** What BULK_RUN_MUTATION answers. */
export type BulkRun = {
  bulkOperationRunQuery?: {
    bulkOperation?: { id?: string; status?: string } | null;
    userErrors?: { field?: string[] | null; message?: string; code?: string | null }[];
  } | null;
};

/** What BULK_RUNNING_QUERY answers. */
export type BulkRunning = { bulkOperations?: { nodes?: { id?: string; status?: string; query?: string }[] } };

/** What CUSTOMERS_QUERY answers. */
export type Customers = {
  customers?: {
    nodes?: {
      id?: string;
      firstName?: string | null;
      lastName?: string | null;
      createdAt?: string;
      updatedAt?: string;
      defaultEmailAddress?: { emailAddress?: string } | null;
      defaultPhoneNumber?: { phoneNumber?: string } | null;
    }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  };
};

/** What CUSTOMERS_BULK_QUERY answers (a record put back together from its lines). */
export type CustomersBulk = {
  id?: string;
  firstName?: string | null;
  lastName?: string | null;
  createdAt?: string;
  updatedAt?: string;
  defaultEmailAddress?: { emailAddress?: string } | null;
  defaultPhoneNumber?: { phoneNumber?: string } | null;
};

/** What DELETIONS_QUERY answers. */
export type Deletions = {
  events?: {
    nodes?: { id?: string; action?: string; subjectId?: string; subjectType?: string; createdAt?: string }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  } | null;
};

/** What DISPUTES_QUERY answers. */
export type Disputes = {
  shopifyPaymentsAccount?: {
    id?: string;
    disputes?: {
      nodes?: {
        id?: string;
        legacyResourceId?: string;
        status?: string;
        type?: string;
        initiatedAt?: string;
        evidenceDueBy?: string | null;
        finalizedOn?: string | null;
        amount?: { amount?: string; currencyCode?: string };
        reasonDetails?: { reason?: string };
        order?: { id?: string } | null;
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What ORDER_LINE_ITEMS_QUERY answers. */
export type OrderLineItems = {
  order?: {
    lineItems?: {
      nodes?: {
        id?: string;
        title?: string;
        sku?: string | null;
        quantity?: number;
        originalUnitPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
        variant?: { id?: string } | null;
        product?: { id?: string } | null;
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What ORDERS_QUERY answers. */
export type Orders = {
  orders?: {
    nodes?: {
      id?: string;
      legacyResourceId?: string;
      name?: string;
      displayFinancialStatus?: string | null;
      displayFulfillmentStatus?: string;
      cancelledAt?: string | null;
      closed?: boolean;
      createdAt?: string;
      updatedAt?: string;
      currencyCode?: string;
      email?: string | null;
      totalPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
      subtotalPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
      totalTaxSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
      totalShippingPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
      totalDiscountsSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
      billingAddress?: {
        address1?: string | null;
        address2?: string | null;
        city?: string | null;
        firstName?: string | null;
        lastName?: string | null;
        phone?: string | null;
        zip?: string | null;
        countryCodeV2?: string | null;
        province?: string | null;
      } | null;
      shippingAddress?: {
        address1?: string | null;
        address2?: string | null;
        city?: string | null;
        firstName?: string | null;
        lastName?: string | null;
        phone?: string | null;
        zip?: string | null;
        countryCodeV2?: string | null;
        province?: string | null;
      } | null;
      customer?: {
        id?: string;
        firstName?: string | null;
        lastName?: string | null;
        createdAt?: string;
        updatedAt?: string;
        numberOfOrders?: string;
        verifiedEmail?: boolean;
        defaultEmailAddress?: { emailAddress?: string } | null;
        defaultPhoneNumber?: { phoneNumber?: string } | null;
      } | null;
      lineItems?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          quantity?: number;
          originalUnitPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
          variant?: { id?: string } | null;
          product?: { id?: string } | null;
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
      fulfillments?: {
        id?: string;
        trackingInfo?: { company?: string | null; number?: string | null; url?: string | null }[];
        service?: { serviceName?: string } | null;
        fulfillmentLineItems?: { nodes?: { quantity?: number | null; lineItem?: { id?: string } }[] };
      }[];
      refunds?: { id?: string; createdAt?: string | null; refundLineItems?: { nodes?: { quantity?: number; lineItem?: { id?: string } }[] } }[];
    }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  };
};

/** What ORDERS_BULK_QUERY answers (a record put back together from its lines). */
export type OrdersBulk = {
  id?: string;
  legacyResourceId?: string;
  name?: string;
  displayFinancialStatus?: string | null;
  displayFulfillmentStatus?: string;
  cancelledAt?: string | null;
  closed?: boolean;
  createdAt?: string;
  updatedAt?: string;
  currencyCode?: string;
  email?: string | null;
  totalPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
  subtotalPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
  totalTaxSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
  totalShippingPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
  totalDiscountsSet?: { shopMoney?: { amount?: string; currencyCode?: string } } | null;
  billingAddress?: {
    address1?: string | null;
    address2?: string | null;
    city?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    phone?: string | null;
    zip?: string | null;
    countryCodeV2?: string | null;
    province?: string | null;
  } | null;
  shippingAddress?: {
    address1?: string | null;
    address2?: string | null;
    city?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    phone?: string | null;
    zip?: string | null;
    countryCodeV2?: string | null;
    province?: string | null;
  } | null;
  customer?: {
    id?: string;
    firstName?: string | null;
    lastName?: string | null;
    createdAt?: string;
    updatedAt?: string;
    numberOfOrders?: string;
    verifiedEmail?: boolean;
    defaultEmailAddress?: { emailAddress?: string } | null;
    defaultPhoneNumber?: { phoneNumber?: string } | null;
  } | null;
  fulfillments?: {
    id?: string;
    trackingInfo?: { company?: string | null; number?: string | null; url?: string | null }[];
    service?: { serviceName?: string } | null;
  }[];
  refunds?: { id?: string; createdAt?: string | null }[];
  lineItems?: {
    nodes?: {
      id?: string;
      title?: string;
      sku?: string | null;
      quantity?: number;
      originalUnitPriceSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
      variant?: { id?: string } | null;
      product?: { id?: string } | null;
    }[];
  };
};

/** What TRANSACTIONS_QUERY answers. */
export type OrderTransactions = {
  orders?: {
    nodes?: {
      id?: string;
      updatedAt?: string;
      customer?: { id?: string } | null;
      transactions?: {
        id?: string;
        kind?: string;
        status?: string;
        gateway?: string | null;
        createdAt?: string;
        processedAt?: string | null;
        amountSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
        fees?: { amount?: { amount?: string; currencyCode?: string } }[];
      }[];
    }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  };
};

/** What PAYOUTS_QUERY answers. */
export type Payouts = {
  shopifyPaymentsAccount?: {
    id?: string;
    payouts?: {
      nodes?: {
        id?: string;
        legacyResourceId?: string;
        issuedAt?: string;
        status?: string;
        transactionType?: string;
        net?: { amount?: string; currencyCode?: string };
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What PAYOUT_TRANSACTIONS_QUERY answers. */
export type PayoutTransactions = {
  shopifyPaymentsAccount?: {
    balanceTransactions?: {
      nodes?: {
        id?: string;
        type?: string;
        test?: boolean;
        transactionDate?: string;
        amount?: { amount?: string; currencyCode?: string };
        fee?: { amount?: string; currencyCode?: string };
        associatedOrder?: { id?: string; name?: string } | null;
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What PRODUCT_QUERY answers. */
export type Product = {
  product?: {
    id?: string;
    title?: string;
    description?: string;
    productType?: string;
    status?: string;
    onlineStoreUrl?: string | null;
    tags?: string[];
    createdAt?: string;
    updatedAt?: string;
    featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
    variants?: {
      nodes?: {
        id?: string;
        title?: string;
        sku?: string | null;
        barcode?: string | null;
        price?: string;
        inventoryQuantity?: number | null;
        createdAt?: string;
        updatedAt?: string;
        selectedOptions?: { name?: string; value?: string }[];
        inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
        media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What PRODUCT_BY_TAG_QUERY answers. */
export type ProductByTag = {
  products?: {
    nodes?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    }[];
  };
};

/** What PRODUCT_DELETE_MUTATION answers. */
export type ProductDelete = {
  productDelete?: { deletedProductId?: string | null; userErrors?: { field?: string[] | null; message?: string }[] } | null;
};

/** What PRODUCT_OPTIONS_QUERY answers. */
export type ProductOptions = {
  product?: { id?: string; options?: { name?: string }[]; variants?: { nodes?: { id?: string; metafield?: { value?: string } | null }[] } } | null;
};

/** What PRODUCTS_QUERY answers. */
export type Products = {
  products?: {
    nodes?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  };
};

/** What PRODUCTS_BULK_QUERY answers (a record put back together from its lines). */
export type ProductsBulk = {
  id?: string;
  title?: string;
  description?: string;
  productType?: string;
  status?: string;
  onlineStoreUrl?: string | null;
  tags?: string[];
  createdAt?: string;
  updatedAt?: string;
  featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
  variants?: {
    nodes?: {
      id?: string;
      title?: string;
      sku?: string | null;
      barcode?: string | null;
      price?: string;
      inventoryQuantity?: number | null;
      createdAt?: string;
      updatedAt?: string;
      selectedOptions?: { name?: string; value?: string }[];
      inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
      media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
    }[];
  };
};

/** What PRODUCT_SET_MUTATION answers. */
export type ProductSet = {
  productSet?: {
    product?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    } | null;
    userErrors?: { field?: string[] | null; message?: string; code?: string | null }[];
  } | null;
};

/** What PRODUCT_UPDATE_MUTATION answers. */
export type ProductUpdate = {
  productUpdate?: {
    product?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    } | null;
    userErrors?: { field?: string[] | null; message?: string }[];
  } | null;
};

/** What PRODUCT_VARIANTS_QUERY answers. */
export type ProductVariants = {
  product?: {
    variants?: {
      nodes?: {
        id?: string;
        title?: string;
        sku?: string | null;
        barcode?: string | null;
        price?: string;
        inventoryQuantity?: number | null;
        createdAt?: string;
        updatedAt?: string;
        selectedOptions?: { name?: string; value?: string }[];
        inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
        media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
      }[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
    };
  } | null;
};

/** What SEGMENTS_QUERY answers. */
export type Segments = {
  segments?: {
    nodes?: { id?: string; name?: string; query?: string; creationDate?: string; lastEditDate?: string }[];
    pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  };
};

/** What SHOP_QUERY answers. */
export type Shop = {
  shop?: {
    id?: string;
    name?: string;
    myshopifyDomain?: string;
    currencyCode?: string;
    email?: string;
    contactEmail?: string;
    url?: string;
    updatedAt?: string;
  };
};

/** What TRANSACTIONS_BULK_QUERY answers (a record put back together from its lines). */
export type TransactionsBulk = {
  id?: string;
  name?: string;
  updatedAt?: string;
  customer?: { id?: string } | null;
  transactions?: {
    id?: string;
    kind?: string;
    status?: string;
    gateway?: string | null;
    createdAt?: string;
    processedAt?: string | null;
    amountSet?: { shopMoney?: { amount?: string; currencyCode?: string } };
    fees?: { amount?: { amount?: string; currencyCode?: string } }[];
  }[];
};

/** What VARIANTS_CREATE_MUTATION answers. */
export type VariantsCreate = {
  productVariantsBulkCreate?: {
    product?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    } | null;
    productVariants?: { id?: string }[] | null;
    userErrors?: { field?: string[] | null; message?: string; code?: string | null }[];
  } | null;
};

/** What VARIANTS_DELETE_MUTATION answers. */
export type VariantsDelete = {
  productVariantsBulkDelete?: {
    product?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    } | null;
    userErrors?: { field?: string[] | null; message?: string; code?: string | null }[];
  } | null;
};

/** What VARIANTS_UPDATE_MUTATION answers. */
export type VariantsUpdate = {
  productVariantsBulkUpdate?: {
    product?: {
      id?: string;
      title?: string;
      description?: string;
      productType?: string;
      status?: string;
      onlineStoreUrl?: string | null;
      tags?: string[];
      createdAt?: string;
      updatedAt?: string;
      featuredMedia?: { preview?: { image?: { url?: string } | null } | null } | null;
      variants?: {
        nodes?: {
          id?: string;
          title?: string;
          sku?: string | null;
          barcode?: string | null;
          price?: string;
          inventoryQuantity?: number | null;
          createdAt?: string;
          updatedAt?: string;
          selectedOptions?: { name?: string; value?: string }[];
          inventoryItem?: { requiresShipping?: boolean; tracked?: boolean; unitCost?: { amount?: string; currencyCode?: string } | null };
          media?: { nodes?: { id?: string; preview?: { image?: { url?: string } | null } | null }[] };
        }[];
        pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
      };
    } | null;
    userErrors?: { field?: string[] | null; message?: string; code?: string | null }[];
  } | null;
};

/** Each document's answer type, by name (the entries of schemas.json). */
export interface ShopifyAnswers {
  BulkPoll: BulkPoll;
  BulkRun: BulkRun;
  BulkRunning: BulkRunning;
  Customers: Customers;
  CustomersBulk: CustomersBulk;
  Deletions: Deletions;
  Disputes: Disputes;
  OrderLineItems: OrderLineItems;
  Orders: Orders;
  OrdersBulk: OrdersBulk;
  OrderTransactions: OrderTransactions;
  Payouts: Payouts;
  PayoutTransactions: PayoutTransactions;
  Product: Product;
  ProductByTag: ProductByTag;
  ProductDelete: ProductDelete;
  ProductOptions: ProductOptions;
  Products: Products;
  ProductsBulk: ProductsBulk;
  ProductSet: ProductSet;
  ProductUpdate: ProductUpdate;
  ProductVariants: ProductVariants;
  Segments: Segments;
  Shop: Shop;
  TransactionsBulk: TransactionsBulk;
  VariantsCreate: VariantsCreate;
  VariantsDelete: VariantsDelete;
  VariantsUpdate: VariantsUpdate;
}

/** Each document, by the name of its answer's type. */
export const DOCUMENTS = {
  BulkPoll: queries.BULK_POLL_QUERY,
  BulkRun: queries.BULK_RUN_MUTATION,
  BulkRunning: queries.BULK_RUNNING_QUERY,
  Customers: queries.CUSTOMERS_QUERY,
  CustomersBulk: queries.CUSTOMERS_BULK_QUERY,
  Deletions: queries.DELETIONS_QUERY,
  Disputes: queries.DISPUTES_QUERY,
  OrderLineItems: queries.ORDER_LINE_ITEMS_QUERY,
  Orders: queries.ORDERS_QUERY,
  OrdersBulk: queries.ORDERS_BULK_QUERY,
  OrderTransactions: queries.TRANSACTIONS_QUERY,
  Payouts: queries.PAYOUTS_QUERY,
  PayoutTransactions: queries.PAYOUT_TRANSACTIONS_QUERY,
  Product: queries.PRODUCT_QUERY,
  ProductByTag: queries.PRODUCT_BY_TAG_QUERY,
  ProductDelete: queries.PRODUCT_DELETE_MUTATION,
  ProductOptions: queries.PRODUCT_OPTIONS_QUERY,
  Products: queries.PRODUCTS_QUERY,
  ProductsBulk: queries.PRODUCTS_BULK_QUERY,
  ProductSet: queries.PRODUCT_SET_MUTATION,
  ProductUpdate: queries.PRODUCT_UPDATE_MUTATION,
  ProductVariants: queries.PRODUCT_VARIANTS_QUERY,
  Segments: queries.SEGMENTS_QUERY,
  Shop: queries.SHOP_QUERY,
  TransactionsBulk: queries.TRANSACTIONS_BULK_QUERY,
  VariantsCreate: queries.VARIANTS_CREATE_MUTATION,
  VariantsDelete: queries.VARIANTS_DELETE_MUTATION,
  VariantsUpdate: queries.VARIANTS_UPDATE_MUTATION,
} as const;
