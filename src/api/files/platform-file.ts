/**
 * Files of synced attachments that the platform keeps behind its own
 * authentication (Xero, QuickBooks Online): fetched through the connector when
 * the signed file_url is followed, with the connection's fresh tokens. Nothing
 * is cached: the platform stays the one copy of the file.
 */
import { findConnectionForService } from '../../sql/connections.ts';
import { callPlatformLive } from '../../platforms/live-call.ts';
import { getConnector } from '../../platforms/index.ts';
import type { Services } from '../../services.ts';

const DOWNLOAD_TIMEOUT_MS = 60_000;

/** What a signed download of a file the platform keeps may answer: the signature's, the record's and the platform's. */
export const PLATFORM_FILE_ERRORS = [
  'VALIDATION_ERROR',
  'INVALID_CREDENTIALS',
  'RESOURCE_NOT_FOUND',
  'PLATFORM_UNAUTHORIZED',
  'PLATFORM_BAD_REQUEST',
  'PLATFORM_RATE_LIMITED',
  'PLATFORM_ERROR',
] as const;

export interface StoredAttachment {
  connectionId: string;
  platformId: string;
  raw: Record<string, unknown> | null;
}

/** The file from the platform, or null when the platform offers no download for it. */
export async function platformFile(services: Services, attachment: StoredAttachment): Promise<{ contentType: string; content: Buffer } | null> {
  const connection = await findConnectionForService(services.pool, attachment.connectionId);
  const connector = connection?.platform === null || connection === null ? undefined : getConnector(connection.platform);
  const download = connector?.actions?.downloadAttachment;
  const { platformId, raw } = attachment;
  if (connection === null || connector === undefined || download === undefined || raw === null) return null;
  return callPlatformLive(services, connection, connector, DOWNLOAD_TIMEOUT_MS, (ctx) => download(ctx, { platformId, raw }));
}
