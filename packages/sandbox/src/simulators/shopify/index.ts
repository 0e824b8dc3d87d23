/** SHOPIFY's simulator (see simulator.ts). */
export { shopifySimulator } from './simulator.ts';
