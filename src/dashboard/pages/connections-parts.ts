/** The shapes of the answers the Connections pages read (the pieces every page uses are in ../components.ts). */

export interface ConnectionAnswer {
  connection: {
    id: string;
    platform: string | null;
    name: string | null;
    status: string;
    access_token: string;
    link_url: string;
    store_unique_id: string | null;
    store_name: string | null;
    is_ready: boolean;
    disable_error: string | null;
    disable_message: string | null;
    created_at: string;
    updated_at: string;
  };
}

export interface SyncRunView {
  id: string;
  kind: string;
  trigger: string;
  status: string;
  error: string | null;
  attempts: number;
  object_types: string[] | null;
  backfill: { entity: string; start_date: string; end_date: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  pages_read: number;
  records_read: number;
  created: number;
  updated: number;
  deleted: number;
  failed_objects: string[];
  objects: { entity: string; pages_read: number; records_read: number; created: number; updated: number; deleted: number }[];
}

export interface SyncObjectView {
  entity: string;
  status: string;
  ready: boolean;
  stored_records: number;
  current_run_id: string | null;
  batches_done: number;
  pages_read: number;
  records_read: number;
  last_started_at: string | null;
  last_completed_at: string | null;
  error: string | null;
}

export interface SyncsAnswer {
  connection_status: string;
  is_ready: boolean;
  last_sync_completed_at: string | null;
  entities: string[];
  objects: SyncObjectView[];
  runs: SyncRunView[];
  next_cursor: string | null;
}
