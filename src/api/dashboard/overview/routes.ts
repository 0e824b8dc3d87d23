/** The dashboard overview's JSON endpoints (session-authenticated, scoped to the user's organisation and environment). */
import type { Endpoint } from '../../../http/contract.ts';
import overview from './overview.ts';
import runningSyncs from './running-syncs.ts';
import deliveryStats from './delivery-stats.ts';

export const overviewEndpoints: Endpoint[] = [overview, runningSyncs, deliveryStats];
