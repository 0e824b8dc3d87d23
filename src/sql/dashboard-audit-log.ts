/** The dashboard's audit log: who did what, when, and how it was answered. */
import type { Queryable } from '../db/pool.ts';

export interface AuditEntryRow {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  environment: string | null;
  status: number;
  request_id: string | null;
  created_at: Date;
}

export interface AuditEntry {
  organizationId: string;
  userId: string | null;
  actor: string;
  action: string;
  target: string | null;
  environment: string | null;
  status: number;
  requestId: string | null;
}

export async function insertAuditEntry(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_audit_log (organization_id, user_id, actor, action, target, environment, status, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [entry.organizationId, entry.userId, entry.actor, entry.action, entry.target, entry.environment, entry.status, entry.requestId],
  );
}

/** Newest first; `before` is the id the previous page ended at. */
export async function listAuditEntries(db: Queryable, organizationId: string, before: string | null, limit: number): Promise<AuditEntryRow[]> {
  const result = await db.query<AuditEntryRow>(
    `SELECT id::text, actor, action, target, environment, status, request_id, created_at FROM dashboard_audit_log
      WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $3`,
    [organizationId, before, limit],
  );
  return result.rows;
}
