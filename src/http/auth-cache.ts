/**
 * Verified client credentials, remembered for a few seconds so that a client
 * sending many requests costs one credentials query per interval instead of
 * one per request (the read benchmark's hot path). Only successes are kept,
 * keyed by a SHA-256 of client_id and secret (never the secret itself), and
 * never past the secret's own expiry. A rotation or deletion made through this
 * process forgets the organisation at once; one made by another process takes
 * effect here within AUTH_CACHE_SECONDS (default 5; 0 turns the cache off).
 */
import { createHash } from 'node:crypto';
import type { AuthenticatedTenant } from '../tenants/types.ts';

const MAX_ENTRIES = 10_000;

interface Entry {
  tenant: AuthenticatedTenant;
  until: number;
}

export class ClientAuthCache {
  private readonly entries = new Map<string, Entry>();
  private ttlMs: number;

  constructor(ttlSeconds: number) {
    this.ttlMs = ttlSeconds * 1000;
  }

  configure(ttlSeconds: number): void {
    this.ttlMs = ttlSeconds * 1000;
    if (this.ttlMs === 0) this.entries.clear();
  }

  private static key(clientId: string, clientSecret: string): string {
    return createHash('sha256').update(clientId).update('\0').update(clientSecret).digest('base64');
  }

  get(clientId: string, clientSecret: string): AuthenticatedTenant | null {
    if (this.ttlMs === 0) return null;
    const key = ClientAuthCache.key(clientId, clientSecret);
    const entry = this.entries.get(key);
    if (entry === undefined) return null;
    if (entry.until <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.tenant;
  }

  /** `expiresAt`: the matched secret's own expiry (a rotated-out secret), if any. */
  remember(clientId: string, clientSecret: string, tenant: AuthenticatedTenant, expiresAt: Date | null): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first (insertion order): a bounded map, not an unbounded one keyed by whatever clients send.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const until = Math.min(Date.now() + this.ttlMs, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    this.entries.set(ClientAuthCache.key(clientId, clientSecret), { tenant, until });
  }

  forgetOrganization(organizationId: string): void {
    for (const [key, entry] of this.entries) if (entry.tenant.organizationId === organizationId) this.entries.delete(key);
  }
}

/** One per process: the credentials a process has verified are the same for every app it serves. */
export const clientAuthCache = new ClientAuthCache(5);
