/** The stored attachment a file download serves (GET /files/:id and …/attachments/:attachmentId/file). */
import type { Queryable } from '../db/pool.ts';

export interface AttachmentFileRow {
  connection_id: string;
  platform_id: string;
  file_url: string | null;
  file_name: string | null;
  attached_to_id: string | null;
  raw: Record<string, unknown> | null;
}

/** The live attachment with this service id (a UUID), of whichever connection; null when there is none. */
export async function findAttachmentFile(db: Queryable, id: string): Promise<AttachmentFileRow | null> {
  const result = await db.query<AttachmentFileRow>(
    `SELECT connection_id, platform_id, data->>'file_url' AS file_url, data->>'file_name' AS file_name,
            data->>'attached_to_id' AS attached_to_id, raw
       FROM records WHERE id = $1 AND object_type = 'attachment' AND deleted_at IS NULL`,
    [id],
  );
  return result.rows[0] ?? null;
}
