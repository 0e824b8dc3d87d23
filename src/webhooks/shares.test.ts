import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery } from '../sql/webhook-deliveries.ts';
import { createEndpointShares } from './shares.ts';

const delivery = (organization: string, n: number, environment: 'sandbox' | 'production' = 'sandbox'): ClaimedDelivery => ({
  id: `${organization}-${n}`,
  event_id: `e-${organization}-${n}`,
  organization_id: organization,
  environment,
  attempts: 1,
  deadline_at: new Date(),
  event_created_at: new Date(),
  payload: {},
  access_token_ciphertext: null,
  update_url_ciphertext: null,
  url: 'https://example.com/',
  trace_context: null,
});

describe('endpoint shares of one worker', () => {
  it("starts at most the share of one endpoint, and passes over its waiting deliveries to start another's", () => {
    const shares = createEndpointShares(2);
    const waiting = [delivery('a', 1), delivery('a', 2), delivery('a', 3), delivery('a', 4), delivery('b', 1)];
    shares.claimed(waiting);
    expect(shares.startNext(waiting)?.id).toBe('a-1');
    expect(shares.startNext(waiting)?.id).toBe('a-2');
    expect(shares.ready(waiting)).toBe(1);
    expect(shares.startNext(waiting)?.id).toBe('b-1');
    expect(shares.startNext(waiting)).toBeUndefined();
    expect(waiting.map((d) => d.id)).toEqual(['a-3', 'a-4']);
    shares.finished(delivery('a', 1));
    expect(shares.startNext(waiting)?.id).toBe('a-3');
  });

  it('lets the next claim take of each endpoint only what keeps it within twice its share', () => {
    const shares = createEndpointShares(2);
    expect(shares.perClaim).toBe(4);
    const waiting = [delivery('a', 1), delivery('a', 2), delivery('a', 3), delivery('b', 1)];
    shares.claimed(waiting);
    expect(shares.allowances()).toEqual([
      { organizationId: 'a', environment: 'sandbox', allowance: 1 },
      { organizationId: 'b', environment: 'sandbox', allowance: 3 },
    ]);
    const started = shares.startNext(waiting);
    if (started === undefined) throw new Error('nothing started');
    shares.finished(started);
    shares.released(waiting.splice(0));
    // Nothing held any more: every endpoint may take a full claim again.
    expect(shares.allowances()).toEqual([]);
  });

  it("counts an organisation's sandbox and production receivers against one share", () => {
    const shares = createEndpointShares(2);
    const waiting = [delivery('a', 1, 'sandbox'), delivery('a', 2, 'production'), delivery('a', 3, 'production'), delivery('b', 1)];
    shares.claimed(waiting);
    expect(shares.startNext(waiting)?.id).toBe('a-1');
    expect(shares.startNext(waiting)?.id).toBe('a-2');
    // Both of a's receivers hang: a holds its one share, and b's delivery goes next.
    expect(shares.ready(waiting)).toBe(1);
    expect(shares.startNext(waiting)?.id).toBe('b-1');
    expect(shares.startNext(waiting)).toBeUndefined();
    shares.finished(delivery('a', 1, 'sandbox'));
    expect(shares.startNext(waiting)?.id).toBe('a-3');
  });
});
