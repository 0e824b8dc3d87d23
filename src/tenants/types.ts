export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** What an organisation may use, enabled by the operator (PRODUCT_NOT_ALLOWED for the others). */
export const PRODUCTS = ['accounting', 'commerce', 'payments', 'bank_feeds'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface Organization {
  id: string;
  name: string;
  products: Product[];
  /** Endpoints turned off for the organisation, as "METHOD /route" (src/tenants/endpoints.ts). */
  disabled_endpoints: string[];
  /** The organisation's data batching (HISTORICAL_UPDATE per batch); null: off. */
  data_batching: { months: number[] } | null;
  created_at: string;
}

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

/** Who is calling: established by HTTP Basic client credentials. */
export interface Tenant {
  organizationId: string;
  environment: Environment;
}

/** A tenant as the API's authentication found it, with the products its organisation may use. */
export interface AuthenticatedTenant extends Tenant {
  products: readonly Product[];
  /** "METHOD /route" the operator turned off for the organisation (src/tenants/endpoints.ts). */
  disabledEndpoints: readonly string[];
}
