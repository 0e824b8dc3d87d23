/** STRIPE's simulator (see simulator.ts). */
export { stripeSimulator } from './simulator.ts';
