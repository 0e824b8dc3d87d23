/**
 * Every platform this build serves. Adding a platform is one line in CONNECTORS;
 * registration validates it at startup (src/platforms/registry.ts).
 */
import type { Connector } from './connector.ts';
import { registerConnector } from './registry.ts';
import { quickbooksConnector } from './quickbooks/index.ts';
import { sandboxConnector } from './sandbox/index.ts';
import { xeroConnector } from './xero/index.ts';

export const CONNECTORS: readonly Connector[] = [
  sandboxConnector,
  quickbooksConnector,
  xeroConnector,
];

for (const connector of CONNECTORS) registerConnector(connector);

export { capabilityOf, getConnector, listConnectors, requireCapability } from './registry.ts';
