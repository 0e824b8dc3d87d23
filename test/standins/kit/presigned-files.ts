/**
 * Files behind presigned, expiring links, as S3 serves them when a platform's API hands out a download link (QuickBooks
 * Online's TempDownloadUri): a link names its file by a random key and carries `Expires` and `Signature`. The store
 * answers in S3's XML errors: an unknown or altered link 403 SignatureDoesNotMatch, a request bringing an
 * Authorization header of its own 400 InvalidArgument (S3 takes one credential; a client must not send its API token
 * there, a breach), an expired link 403 AccessDenied, a file gone since 404 NoSuchKey.
 */
import { randomBytes } from 'node:crypto';
import type { Answer } from './server.ts';

export interface LinkedFile {
  content: Buffer;
  contentType: string;
  fileName: string;
}

const s3Error = (status: number, code: string, message: string): Answer => ({
  status,
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  headers: { 'content-type': 'application/xml' },
});

const SECOND_CREDENTIAL =
  'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified';

/** `T` names a file for `open` (a company and an attachable id), which finds it again when the link is followed. */
export class PresignedFiles<T> {
  private readonly links = new Map<string, { target: T; expires: number }>();
  private readonly seconds: number;
  private readonly now: () => number;
  private readonly open: (target: T) => LinkedFile | null;

  constructor(options: { seconds: number; now: () => number; open: (target: T) => LinkedFile | null }) {
    this.seconds = options.seconds;
    this.now = options.now;
    this.open = options.open;
  }

  /** A new link under `base` (`{base}/{key}/{file name}?Expires&Signature`) to `file`, valid for `seconds`. */
  link(base: string, target: T, file: LinkedFile): string {
    const key = randomBytes(16).toString('hex');
    const expires = Math.floor(this.now() / 1000) + this.seconds;
    this.links.set(key, { target, expires });
    return `${base}/${key}/${encodeURIComponent(file.fileName)}?Expires=${expires}&Signature=${key}`;
  }

  /** The answer at a link (`key` from its path), and the client's breach of the store's rules if it made one. */
  serve(key: string, query: URLSearchParams, authorization: string | undefined): { answer: Answer; breach: string | null } {
    const link = this.links.get(key);
    if (link === undefined || query.get('Signature') !== key || query.get('Expires') !== String(link.expires)) {
      const message = 'The request signature we calculated does not match the signature you provided.';
      return { answer: s3Error(403, 'SignatureDoesNotMatch', message), breach: 'file link that the API did not answer (or altered)' };
    }
    if (authorization !== undefined)
      return { answer: s3Error(400, 'InvalidArgument', SECOND_CREDENTIAL), breach: 'Authorization header sent to a presigned file link' };
    if (this.now() / 1000 > link.expires) return { answer: s3Error(403, 'AccessDenied', 'Request has expired'), breach: null };
    const file = this.open(link.target);
    if (file === null) return { answer: s3Error(404, 'NoSuchKey', 'The specified key does not exist.'), breach: null };
    return { answer: { status: 200, body: file.content, headers: { 'content-type': file.contentType } }, breach: null };
  }
}
