import type { Queryable } from '../db/pool.ts';

export interface IdempotencyScope {
  organizationId: string;
  environment: string;
  key: string;
}

export interface IdempotencyRow {
  request_method: string;
  request_path: string;
  request_sha256: Buffer;
  state: 'in_progress' | 'completed';
  lock_expired: boolean;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Buffer | null;
}

/**
 * Claims the key for this request: inserts it, or takes over an expired record
 * or an in-progress one whose owner stopped renewing its lock (crash). Returns
 * true when this request now owns the key.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  scope: IdempotencyScope,
  request: { method: string; path: string; sha256: Buffer },
  owner: string,
  lockSeconds: number,
  ttlSeconds: number,
): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO idempotency_keys AS k (organization_id, environment, key, request_method, request_path, request_sha256,
                                        state, locked_until, expires_at, owner)
          VALUES ($1, $2, $3, $4, $5, $6, 'in_progress', clock_timestamp() + make_interval(secs => $7),
                  clock_timestamp() + make_interval(secs => $8), $9)
     ON CONFLICT (organization_id, environment, key) DO UPDATE SET
          request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
          request_sha256 = EXCLUDED.request_sha256, state = 'in_progress', owner = EXCLUDED.owner,
          locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at,
          response_status = NULL, response_headers = NULL, response_body = NULL, created_at = clock_timestamp()
      WHERE k.expires_at <= clock_timestamp()
         OR (k.state = 'in_progress' AND k.locked_until <= clock_timestamp()
             AND k.request_method = EXCLUDED.request_method AND k.request_path = EXCLUDED.request_path
             AND k.request_sha256 = EXCLUDED.request_sha256)
     RETURNING 1`,
    [scope.organizationId, scope.environment, scope.key, request.method, request.path, request.sha256, lockSeconds, ttlSeconds, owner],
  );
  return result.rowCount === 1;
}

/** Keeps a running request's claim alive. */
export async function renewIdempotencyKey(db: Queryable, scope: IdempotencyScope, owner: string, lockSeconds: number): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET locked_until = clock_timestamp() + make_interval(secs => $5)
      WHERE organization_id = $1 AND environment = $2 AND key = $3 AND owner = $4 AND state = 'in_progress'`,
    [scope.organizationId, scope.environment, scope.key, owner, lockSeconds],
  );
}

export async function readIdempotencyKey(db: Queryable, scope: IdempotencyScope): Promise<IdempotencyRow | null> {
  const result = await db.query<IdempotencyRow>(
    `SELECT request_method, request_path, request_sha256, state,
            (locked_until IS NOT NULL AND locked_until <= clock_timestamp()) AS lock_expired,
            response_status, response_headers, response_body
       FROM idempotency_keys
      WHERE organization_id = $1 AND environment = $2 AND key = $3 AND expires_at > clock_timestamp()`,
    [scope.organizationId, scope.environment, scope.key],
  );
  return result.rows[0] ?? null;
}

export async function completeIdempotencyKey(
  db: Queryable,
  scope: IdempotencyScope,
  owner: string,
  response: { status: number; headers: Record<string, string>; sealedBody: Buffer },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'completed', locked_until = NULL,
            response_status = $5, response_headers = $6, response_body = $7
      WHERE organization_id = $1 AND environment = $2 AND key = $3 AND owner = $4 AND state = 'in_progress'`,
    [scope.organizationId, scope.environment, scope.key, owner, response.status, JSON.stringify(response.headers), response.sealedBody],
  );
}

export async function releaseIdempotencyKey(db: Queryable, scope: IdempotencyScope, owner: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE organization_id = $1 AND environment = $2 AND key = $3 AND owner = $4 AND state = 'in_progress'`,
    [scope.organizationId, scope.environment, scope.key, owner],
  );
}

export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  const result = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= clock_timestamp()');
  return result.rowCount ?? 0;
}
