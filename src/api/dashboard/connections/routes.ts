/** The dashboard's JSON endpoints of the Connections pages (session auth, scoped by organisation and environment). */
import type { Endpoint } from '../../../http/contract.ts';
import listConnections from './list.ts';
import linkedConnection from './linked.ts';
import getConnection from './get.ts';
import connectionSyncs from './syncs.ts';
import connectionEvents from './events.ts';
import connectionWriteJobs from './write-jobs.ts';

// linked before :id: a static segment, listed first for the reader (Fastify prefers it either way).
export const connectionDashboardEndpoints: Endpoint[] = [
  listConnections,
  linkedConnection,
  getConnection,
  connectionSyncs,
  connectionEvents,
  connectionWriteJobs,
];
