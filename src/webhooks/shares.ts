/**
 * Each organisation's share of one worker's delivery slots. An organisation has at most `perEndpoint` attempts in
 * flight across its endpoints (its sandbox and production receivers together), and each endpoint (organisation and
 * environment) as many again claimed and waiting, so an organisation whose receivers never answer holds at most
 * one share while the rest of the slots stay free for every other organisation; an endpoint alone still keeps its
 * share busy with deliveries claimed ahead. Waiting deliveries start first come, first served among those whose
 * organisation is below its share.
 */
import type { ClaimedDelivery, EndpointAllowance } from '../sql/webhook-deliveries.ts';

type Endpoint = Pick<ClaimedDelivery, 'organization_id' | 'environment'>;

const keyOf = (d: Endpoint): string => `${d.organization_id}:${d.environment}`;

export interface EndpointShares {
  /** What one claim may take of one endpoint this worker holds nothing of. */
  readonly perClaim: number;
  /** Counts deliveries just claimed. */
  claimed(deliveries: readonly ClaimedDelivery[]): void;
  /** Whether a waiting delivery may start now: its endpoint is below its share of attempts in flight. */
  canStart(delivery: Endpoint): boolean;
  /** How many of the waiting deliveries may start now. */
  ready(waiting: readonly Endpoint[]): number;
  /** Removes and answers the first waiting delivery that may start, counted as in flight. */
  startNext(waiting: ClaimedDelivery[]): ClaimedDelivery | undefined;
  /** A started delivery's attempt is over (settled or not). */
  finished(delivery: Endpoint): void;
  /** Claimed deliveries handed back without an attempt. */
  released(deliveries: readonly Endpoint[]): void;
  /** For the next claim: every endpoint this worker holds deliveries of, and what it may still take. */
  allowances(): EndpointAllowance[];
}

export function createEndpointShares(perEndpoint: number): EndpointShares {
  const held = new Map<string, { endpoint: Endpoint; claimed: number; inFlight: number }>();
  // Attempts in flight per organisation, all its endpoints together.
  const organizationInFlight = new Map<string, number>();
  const addInFlight = (organizationId: string, delta: number): void => {
    const next = (organizationInFlight.get(organizationId) ?? 0) + delta;
    if (next <= 0) organizationInFlight.delete(organizationId);
    else organizationInFlight.set(organizationId, next);
  };
  const perClaim = 2 * perEndpoint;
  const entry = (d: Endpoint): { endpoint: Endpoint; claimed: number; inFlight: number } => {
    let found = held.get(keyOf(d));
    if (found === undefined) {
      found = { endpoint: { organization_id: d.organization_id, environment: d.environment }, claimed: 0, inFlight: 0 };
      held.set(keyOf(d), found);
    }
    return found;
  };
  const drop = (d: Endpoint, inFlight: number): void => {
    const found = entry(d);
    found.claimed -= 1;
    found.inFlight -= inFlight;
    addInFlight(d.organization_id, -inFlight);
    if (found.claimed <= 0) held.delete(keyOf(d));
  };
  const canStart = (d: Endpoint): boolean => (organizationInFlight.get(d.organization_id) ?? 0) < perEndpoint;
  return {
    perClaim,
    claimed(deliveries) {
      for (const d of deliveries) entry(d).claimed += 1;
    },
    canStart,
    ready(waiting) {
      return waiting.filter(canStart).length;
    },
    startNext(waiting) {
      const index = waiting.findIndex(canStart);
      if (index < 0) return undefined;
      const [next] = waiting.splice(index, 1);
      if (next !== undefined) {
        entry(next).inFlight += 1;
        addInFlight(next.organization_id, 1);
      }
      return next;
    },
    finished(d) {
      drop(d, 1);
    },
    released(deliveries) {
      for (const d of deliveries) drop(d, 0);
    },
    allowances() {
      return [...held.values()].map((h) => ({
        organizationId: h.endpoint.organization_id,
        environment: h.endpoint.environment,
        allowance: Math.max(0, perClaim - h.claimed),
      }));
    },
  };
}
