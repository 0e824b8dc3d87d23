import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { setProducts } from '../../../tenants/products.ts';
import { clientAuthCache } from '../../../http/auth-cache.ts';
import { PRODUCTS } from '../../../tenants/types.ts';
import { StringEnum } from '../../../model/shared.ts';
import { OrganizationIdParams } from './schemas.ts';

const ProductSchema = StringEnum(PRODUCTS, PRODUCTS.join(', '));

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/products',
  auth: 'admin',
  tags: ['Admin'],
  summary: 'Set the products an organisation may use (replaces the list).',
  description:
    'Data and writes of a product not listed answer PRODUCT_NOT_ALLOWED (404). Every product is enabled by default. ' +
    'Other API processes apply a change within AUTH_CACHE_SECONDS.',
  params: OrganizationIdParams,
  body: Type.Object({ products: Type.Array(ProductSchema, { uniqueItems: true, maxItems: PRODUCTS.length }) }, { additionalProperties: false }),
  success: { status: 200, schema: Type.Object({ products: Type.Array(ProductSchema) }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const products = await setProducts(request.server.services.pool, request.params.id, request.body.products, 'products');
  // This process forgets the organisation's remembered credentials (and products) at once; others within AUTH_CACHE_SECONDS.
  clientAuthCache.forgetOrganization(request.params.id);
  return { products };
});
