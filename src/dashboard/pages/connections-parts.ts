/** Pieces the Connections pages share: times, badges, the CSRF field, the API's refusal in words, the answers' shapes. */
import { html, type Html } from '../../html/tag.ts';
import type { ApiAnswer } from '../api-client.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A timestamp as UTC text a person reads, in a <time> element machines read. */
export function when(iso: string | null | undefined): Html {
  if (iso === null || iso === undefined || iso === '') return html`<span class="muted">never</span>`;
  return html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>`;
}

/** A status as text in a badge: the colour repeats the word, never replaces it. */
export function badge(status: string, testId?: string): Html {
  return html`<span class="badge ${status.replace(/[^a-z_]/gi, '')}"${testId === undefined ? '' : html` data-testid="${testId}"`}>${status}</span>`;
}

export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
}

/** The API's refusal as the page shows it: its own message and code. */
export function apiProblem<T>(answer: ApiAnswer<T>): string {
  return answer.ok ? '' : `${answer.error.error_message} (${answer.error.error_code})`;
}

export function duration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 100) / 10;
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 6) / 10} min`;
}

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
  entities: string[];
  objects: SyncObjectView[];
  runs: SyncRunView[];
  next_cursor: string | null;
}
