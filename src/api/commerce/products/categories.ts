/**
 * GET /commerce/products/categories (the reference's ListCommerceProductCategories, at /products/categories): the
 * categories of the connection's stored products. A category is a product type, the platform's own category of a
 * product (Shopify's `productType`, which its merchants set and filter their catalogue by); types have no parents, so
 * every category is a root without children. Computed from the stored products: no sync of its own.
 */
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { assertEntityRead } from '../../../connections/entity-readiness.ts';
import { boundedRead } from '../../../db/bounded-read.ts';
import { isUuid } from '../../../http/uuid.ts';
import { productTypes } from '../../../sql/product-types.ts';
import { serviceId } from '../../../store/ids.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../../shared/envelope.ts';

const CategorySchema: TSchema = Type.Object(
  {
    id: Type.String({ description: 'Service id of the category, stable per connection and name.' }),
    name: Type.String({ description: 'Name of the category (the product type).' }),
    children: Type.Array(Type.Object({}, { description: 'Sub-categories; product types have none.' }), { description: 'Sub-categories.' }),
  },
  { additionalProperties: false },
);

export const contract = defineContract({
  method: 'GET',
  url: '/commerce/products/categories',
  auth: 'client',
  tags: ['products'],
  summary: 'List product categories',
  description: "The product types of the connection's stored products, as categories without children.",
  querystring: Type.Object({
    access_token: Type.Optional(Type.String()),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only the category of this service id.' })),
    force_fetch: ForceFetchSchema,
  }),
  success: {
    status: 200,
    schema: Type.Object({ categories: Type.Array(CategorySchema), connection: ConnectionRefSchema }),
  },
  errors: [...READ_ERRORS, 'QUERY_TIMEOUT', 'SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  const { id, access_token: accessToken } = request.query;
  if (id !== undefined && !isUuid(id)) {
    throw new ServiceError('VALIDATION_ERROR', '`id` must be the service id (a UUID) of a product category.', {
      source: 'service',
      field: 'id',
      location: 'query',
    });
  }
  const forceFetch = request.query.force_fetch === 'true';
  const connection = await readableConnection(request, 'product', accessToken, forceFetch);
  const { pool, config } = request.server.services;
  const types = await boundedRead(pool, config.readLimits.statementTimeoutMs, { field: 'id', location: 'query' }, (db) =>
    productTypes(db, connection.id),
  );
  if (types.length === 0) await assertEntityRead(pool, connection, 'product', forceFetch);
  const categories = types.map((name) => ({ id: serviceId(connection.id, 'product', `category:${name}`), name, children: [] }));
  return { categories: categories.filter((category) => id === undefined || category.id === id.toLowerCase()), connection: connectionRef(connection) };
});
