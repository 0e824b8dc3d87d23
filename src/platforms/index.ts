/**
 * Every platform this build serves. Adding a platform is one line in CONNECTORS;
 * registration validates it at startup (src/platforms/registry.ts). SANDBOX is not
 * listed: it is a plugin (packages/sandbox/src/plugin.ts) that the process registers
 * when SANDBOX_ENABLED (src/runtime.ts).
 */
import type { Connector } from './connector.ts';
import { registerConnector } from './registry.ts';
import { quickbooksConnector } from './quickbooks/index.ts';
import { shopifyConnector } from './shopify/index.ts';
import { stripeConnector } from './stripe/index.ts';
import { xeroConnector } from './xero/index.ts';

export const CONNECTORS: readonly Connector[] = [quickbooksConnector, shopifyConnector, stripeConnector, xeroConnector];

for (const connector of CONNECTORS) registerConnector(connector);

export { capabilityOf, getConnector, listConnectors, requireCapability } from './registry.ts';
