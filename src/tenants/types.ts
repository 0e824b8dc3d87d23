export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Organization {
  id: string;
  name: string;
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
