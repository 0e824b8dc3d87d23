/**
 * The parts of Shopfront's answers (contract/openapi.json, as Shopfront publishes it) the connector reads. Every field
 * is optional: answers leave out what is empty. scripts/gen-shopfront-contract.ts checks these against the contract
 * and cuts the answer validators (contract/schemas.json, ../contract.ts) along them: run it after changing a type.
 */

export interface ShopfrontCost {
  actual?: number;
}

export interface ShopfrontCustomer {
  id?: number;
  name?: string;
  email?: string | null;
  updated_at?: string;
}

export interface ShopfrontShopAnswer {
  shop?: { name?: string };
  cost?: ShopfrontCost;
}

export interface ShopfrontCustomerPage {
  customers?: ShopfrontCustomer[];
  next_page?: string | null;
  as_of?: string;
  cost?: ShopfrontCost;
}

export interface ShopfrontExportStarted {
  export?: { id?: string };
  cost?: ShopfrontCost;
}

export interface ShopfrontExportStatus {
  status?: string;
  results_cursor?: string;
  error?: string;
  retry_after_ms?: number;
  cost?: ShopfrontCost;
}

export interface ShopfrontExportPage {
  customers?: ShopfrontCustomer[];
  next_cursor?: string | null;
  as_of?: string;
  cost?: ShopfrontCost;
}

export interface ShopfrontWebhook {
  shop_domain?: string;
  topic?: string;
  id?: number;
}

/** Each answer the connector reads, by its contract component. */
export interface ShopfrontAnswers {
  ShopAnswer: ShopfrontShopAnswer;
  CustomerPage: ShopfrontCustomerPage;
  ExportStarted: ShopfrontExportStarted;
  ExportStatus: ShopfrontExportStatus;
  ExportPage: ShopfrontExportPage;
  CustomerWebhook: ShopfrontWebhook;
}
