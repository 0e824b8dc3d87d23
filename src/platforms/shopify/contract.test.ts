import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, SCHEMAS_TARGET, TYPES_TARGET } from '../../../scripts/gen-shopify-types.ts';
import { platformRefusal as refusal } from '../../../test/support/platform-refusal.ts';
import { parseAnswer } from './contract.ts';

describe("Shopify answers parsed against the published Admin schema, along the connector's documents", () => {
  it('generated/ is what the script makes of the schema and queries.ts (run `node scripts/gen-shopify-types.ts`)', async () => {
    const { types, schemas } = await generate();
    expect(readFileSync(TYPES_TARGET, 'utf8')).toBe(types);
    expect(readFileSync(SCHEMAS_TARGET, 'utf8')).toBe(schemas);
  });

  it('passes an answer that fits, fields the document does not select included', () => {
    const data = { shop: { id: 'gid://shopify/Shop/1', name: 'Shop', currencyCode: 'XTS', somethingNew: [1] } };
    expect(parseAnswer('Shop', data, 200)).toBe(data);
    expect(parseAnswer('Orders', { orders: { nodes: [{ id: 'o', cancelledAt: null, lineItems: { nodes: [{ quantity: 2 }] } }] } }, 200)).toBeTruthy();
  });

  it('refuses one that does not, as a PlatformError naming the path, before any mapping', () => {
    const error = refusal(() =>
      parseAnswer('Orders', { orders: { nodes: [{ id: 'o' }, { id: 'p', lineItems: { nodes: [{ quantity: '2' }] } }] } }, 200),
    );
    expect(error).toMatchObject({ kind: 'server', platformCode: 'SHOPIFY_CONTRACT', httpStatus: 200 });
    expect(error.platformMessage).toBe(
      "Shopify's answer does not fit its published contract: Orders.orders.nodes[1].lineItems.nodes[0].quantity must be integer",
    );
    // Decimal is text in Shopify's schema: an amount as a number is not Shopify's answer.
    expect(
      refusal(() => parseAnswer('Payouts', { shopifyPaymentsAccount: { payouts: { nodes: [{ net: { amount: 5 } }] } } }, 200)).platformMessage,
    ).toMatch(/Payouts\.shopifyPaymentsAccount\.payouts\.nodes\[0\]\.net\.amount must be string$/);
    expect(refusal(() => parseAnswer('OrdersBulk', { id: 'o', lineItems: { nodes: [{ id: 7 }] } }, 200)).platformMessage).toMatch(
      /OrdersBulk\.lineItems\.nodes\[0\]\.id must be string$/,
    );
  });
});
