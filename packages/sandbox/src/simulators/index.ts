/**
 * Every platform simulator SANDBOX ships (docs/simulators.md). A connector to come ships its simulator here: one
 * folder translating SANDBOX's books to the platform's API, and one line in SIMULATORS.
 */
import type { PlatformSimulator } from './kit.ts';
import { quickbooksSimulator } from './quickbooks/index.ts';
import { shopifySimulator } from './shopify/index.ts';
import { stripeSimulator } from './stripe/index.ts';
import { xeroSimulator } from './xero/index.ts';

export const SIMULATORS: readonly PlatformSimulator[] = [quickbooksSimulator, shopifySimulator, stripeSimulator, xeroSimulator];
