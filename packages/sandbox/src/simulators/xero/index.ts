/** XERO's simulator (see simulator.ts). */
export { xeroSimulator } from './simulator.ts';
