import { Type } from 'typebox';

export const OrganizationSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  products: Type.Array(Type.String(), { description: 'Products the organisation may use: accounting, commerce, payments, bank_feeds.' }),
  disabled_endpoints: Type.Array(Type.String(), {
    description: 'Endpoints turned off for the organisation, as "METHOD /route" (ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION).',
  }),
  data_batching: Type.Union([Type.Object({ months: Type.Array(Type.Integer()) }), Type.Null()], {
    description: 'Data batching of initial syncs (HISTORICAL_UPDATE per batch); null: off.',
  }),
  created_at: Type.String({ format: 'date-time' }),
});

export const ClientCredentialsSchema = Type.Object({
  client_id: Type.String(),
  client_secret: Type.String({ description: 'Shown once; stored encrypted.' }),
});

export const EnvironmentSchema = Type.Union([Type.Literal('sandbox'), Type.Literal('production')], { description: 'sandbox or production' });

export const OrganizationIdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Organisation id' }) });
