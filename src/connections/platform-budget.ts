/**
 * What a connection has used of its platform's daily budget (Connector.limits.dailyRequests), for
 * GET /connections/status: counted by every process in platform_call_meters (src/platforms/shared-limits.ts).
 */
import type { Queryable } from '../db/pool.ts';
import { getConnector } from '../platforms/registry.ts';
import { platformCallsToday } from '../sql/platform-calls-today.ts';

export interface PlatformBudget {
  daily_limit: number;
  used_today: number;
  remaining_today: number;
  /** When the 24-hour window ends; null while none is open (the next call opens one). */
  resets_at: string | null;
}

/** Null when the connection's platform states no daily budget. */
export async function platformBudgetOf(db: Queryable, connection: { id: string; platform: string | null }): Promise<PlatformBudget | null> {
  const limit = connection.platform === null ? null : (getConnector(connection.platform)?.limits.dailyRequests ?? null);
  if (limit === null) return null;
  const today = await platformCallsToday(db, connection.id);
  const used = today?.calls ?? 0;
  return { daily_limit: limit, used_today: used, remaining_today: Math.max(0, limit - used), resets_at: today?.resetsAt.toISOString() ?? null };
}
