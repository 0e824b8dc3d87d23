/**
 * A stored row as the API serves it: the unified object, last_synced_at, and
 * platform_data when asked for. Attachments get a signed download address of
 * this service in place of the platform's file source. Reads and the results
 * of writes both answer with this.
 */
import type { UnifiedObjectType } from '../model/object-types.ts';
import type { RecordRow } from '../sql/list-records.ts';
import { signedFileUrl } from '../files/signed-url.ts';
import { upgradeStored } from './stored-shape.ts';

export interface Presenter {
  publicUrl: string;
  urlSigningKey: Buffer;
}

export function served(type: UnifiedObjectType, row: RecordRow, withRaw: boolean, presenter: Presenter): Record<string, unknown> {
  const object: Record<string, unknown> = { ...upgradeStored(type, row.data), last_synced_at: row.last_synced_at.toISOString() };
  if (type === 'attachment') object.file_url = signedFileUrl(presenter.publicUrl, presenter.urlSigningKey, row.id);
  if (withRaw && row.raw !== null) object.platform_data = row.raw;
  return object;
}

export function presenterOf(services: { config: { publicUrl: string }; urlSigningKey: Buffer }): Presenter {
  return { publicUrl: services.config.publicUrl, urlSigningKey: services.urlSigningKey };
}
