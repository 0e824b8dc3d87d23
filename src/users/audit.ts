/** The audit log of dashboard users: every state-changing request a session made, refused ones included. */
import type { Queryable } from '../db/pool.ts';
import { insertAuditEntry, listAuditEntries, type AuditEntry } from '../sql/dashboard-audit-log.ts';

export interface AuditEntryView {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  environment: string | null;
  status: number;
  request_id: string | null;
  created_at: string;
}

export function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  return insertAuditEntry(db, entry);
}

export async function auditPage(
  db: Queryable,
  organizationId: string,
  before: string | null,
  limit: number,
): Promise<{ entries: AuditEntryView[]; next_cursor: string | null }> {
  const rows = await listAuditEntries(db, organizationId, before, limit + 1);
  const entries = rows.slice(0, limit).map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  return { entries, next_cursor: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
}
