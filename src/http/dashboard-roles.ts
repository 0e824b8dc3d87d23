/**
 * What each dashboard role may do, in one table. admin: everything of its organisation; developer: everything but
 * users and credentials; viewer: reads. Enforced at the edge on the request itself, so a request forged outside the
 * dashboard's pages is refused exactly as the pages would refuse it.
 */
import type { DashboardRole } from '../sql/dashboard-users.ts';
import type { Contract } from './contract.ts';

const RANK: Readonly<Record<DashboardRole, number>> = { viewer: 0, developer: 1, admin: 2 };

const READS = new Set(['GET', 'HEAD']);

/** The least role a session needs for the route; null when sessions may not call it at all (the operator's routes). */
export function requiredRole(contract: Contract): DashboardRole | null {
  if (contract.dashboard !== undefined) return contract.dashboard.role;
  if (contract.auth === 'client' || contract.auth === 'session') return READS.has(contract.method) ? 'viewer' : 'developer';
  return null;
}

export function roleAllows(role: DashboardRole, required: DashboardRole): boolean {
  return RANK[role] >= RANK[required];
}
