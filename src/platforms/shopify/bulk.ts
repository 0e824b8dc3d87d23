/**
 * Full reads of large shops through Shopify's bulk operations (shopify.dev/docs/api/usage/bulk-operations/queries):
 * `bulkOperationRunQuery` starts the export (10 points; the export itself is not charged to the cost bucket), the
 * operation is polled by id (`bulkOperation(id:)`, 1 point) until COMPLETED, and its result is a JSONL file at `url`
 * where each node is a line and the nodes of a nested connection (an order's line items, a product's variants) are
 * lines of their own carrying `__parentId`. We ask for `groupObjects: true` so children follow their parent.
 *
 * The file is read in byte ranges (the storage Shopify links to serves Range requests), so a page never holds more
 * than a chunk of a file that for a large shop is gigabytes; a page ends before the chunk's last parent, whose
 * children may go on in the next chunk. The result cursor says where the next page starts, and carries the
 * operation's createdAt: the next incremental read starts there (the platform's clock, not ours).
 */
import type { BulkRead, ConnectorContext, ExportPage, ExportRequest, ExportStatus, PlatformRecord } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { isRecord } from '../json.ts';
import { pageTokens } from '../paging.ts';
import { text } from '../readers.ts';
import { shopifyGraphql } from './client.ts';
import { parseAnswer, type Answer } from './contract.ts';
import { DOCUMENTS, type ShopifyAnswers } from './generated/types.ts';
import { changedSince } from './read.ts';

type Raw = Record<string, unknown>;

/** Bytes asked for per page of results: a few thousand orders. */
export const RESULT_CHUNK_BYTES = 4 * 1024 * 1024;
const MAX_CHUNK_BYTES = 256 * 1024 * 1024;
const POLL_MS = 2_000;

interface ResultCursor {
  url: string | null;
  offset: number;
  since: string | null;
}

// Plain JSON, as before the kit's codec, so an export read in flight across the upgrade resumes.
const cursors = pageTokens<ResultCursor>(
  'SHOPIFY export',
  (parsed) => (typeof parsed.offset === 'number' ? { url: text(parsed.url), offset: parsed.offset, since: text(parsed.since) } : null),
  { plain: true },
);

/** The bulk query with its search filter: every record for a full read, those changed since for an incremental one. */
export function bulkQueryText(template: string, since: string | null): string {
  return since === null ? template.replace('(query: $QUERY)', '') : template.replace('$QUERY', JSON.stringify(changedSince(since)));
}

/** Where, under a parent record, the child lines of each type go (GID type → the parent's connection field). */
export type ChildFields = Readonly<Record<string, string>>;

const gidType = (id: string): string | null => /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] ?? null;

/**
 * Records from complete JSONL lines: each line without __parentId a record, each child line added to its parent's
 * connection (as `{nodes: [...]}`, the paged queries' shape, so one mapping serves both), at either nested level.
 */
export function recordsFromLines(lines: readonly string[], children: ChildFields): PlatformRecord[] {
  const records: PlatformRecord[] = [];
  const byId = new Map<string, Raw>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const parsed: unknown = JSON.parse(line);
    if (!isRecord(parsed)) throw new PlatformError({ kind: 'server', message: 'A bulk result line is not a JSON object', requestSent: true });
    const parentId = text(parsed.__parentId);
    const id = text(parsed.id);
    if (parentId === null) {
      if (id === null) throw new PlatformError({ kind: 'server', message: 'A bulk result line has no id', requestSent: true });
      records.push({ platformId: id, raw: parsed });
      byId.set(id, parsed);
      continue;
    }
    const parent = byId.get(parentId);
    const field = id === null ? null : children[gidType(id) ?? ''];
    if (parent === undefined || field === undefined || field === null) continue;
    const child = Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== '__parentId'));
    const holder = isRecord(parent[field]) ? parent[field] : { nodes: [] };
    const nodes = Array.isArray(holder.nodes) ? holder.nodes : [];
    nodes.push(child);
    parent[field] = { ...holder, nodes };
    // A child may have children of its own (a variant's media): they name it as their parent.
    if (id !== null) byId.set(id, child);
  }
  return records;
}

/** Children come after their parent: a chunk that does not end the file is cut before its last parent line. */
export function splitChunk(bytes: Uint8Array, atEnd: boolean): { lines: string[]; consumed: number } | null {
  const lastNewline = bytes.lastIndexOf(0x0a);
  const whole = atEnd ? bytes.length : lastNewline + 1;
  if (whole <= 0) return null;
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, whole).toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (atEnd) return { lines, consumed: whole };
  // The last parent line's children may go on past this chunk: keep it, and them, for the next page.
  let consumed = whole;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    consumed -= Buffer.byteLength(line) + 1;
    if (!line.includes('"__parentId"')) {
      return i === 0 ? null : { lines: lines.slice(0, i), consumed };
    }
  }
  return null;
}

/**
 * `answer`: the type of the records put back together (generated/types.ts: the bulk document's); `toRecords`: the
 * records of a page's parsed root records (one each, or several: an order's transactions are read through the orders).
 */
export function shopifyBulkRead<K extends Answer>(
  answer: K,
  children: ChildFields,
  operation: string,
  toRecords: (roots: ShopifyAnswers[K][]) => PlatformRecord[],
): BulkRead {
  return {
    async startExport(ctx: ConnectorContext, request: ExportRequest): Promise<string> {
      const query = bulkQueryText(DOCUMENTS[answer], request.since);
      const data = await shopifyGraphql(ctx, 'BulkRun', `start ${operation} export`, { query });
      const errors = data.bulkOperationRunQuery?.userErrors ?? [];
      const started = text(data.bulkOperationRunQuery?.bulkOperation?.id);
      if (errors.length > 0 || started === null) {
        const message = errors.map((e) => text(e.message) ?? 'unknown').join('; ') || 'no bulk operation in the answer';
        // Another export of this app on this shop still runs. When it is this very export (a retry after an answer that
        // was lost: the first attempt started it), it is adopted; another is waited for: not a bad request.
        const busy = errors.some((e) => e.code === 'OPERATION_IN_PROGRESS');
        if (busy) {
          const running = await shopifyGraphql(ctx, 'BulkRunning', `find running ${operation} export`, {});
          // Created or running (a just-created one is not running yet), with our query.
          const ours = (running.bulkOperations?.nodes ?? []).find(
            (found) => (found.status === 'CREATED' || found.status === 'RUNNING') && text(found.query)?.trim() === query.trim(),
          );
          const id = text(ours?.id);
          if (id !== null) return id;
        }
        throw new PlatformError({
          kind: busy ? 'rate_limited' : 'bad_request',
          httpStatus: 200,
          message: `start ${operation} export: ${message}`,
          requestSent: true,
        });
      }
      return started;
    },

    async pollExport(ctx: ConnectorContext, exportId: string): Promise<ExportStatus> {
      const data = await shopifyGraphql(ctx, 'BulkPoll', `poll ${operation} export`, { id: exportId });
      const found = data.bulkOperation ?? null;
      if (found === null) return { status: 'failed', message: `Shopify has no bulk operation ${exportId}` };
      const status = text(found.status);
      if (status === 'COMPLETED')
        return { status: 'ready', resultCursor: cursors.encode({ url: text(found.url), offset: 0, since: text(found.createdAt) }) };
      if (status === 'CREATED' || status === 'RUNNING') return { status: 'running', retryAfterMs: POLL_MS };
      return { status: 'failed', message: `bulk operation ${status ?? 'in an unknown status'}: ${text(found.errorCode) ?? 'no error code'}` };
    },

    async readExportPage(ctx: ConnectorContext, _exportId: string, cursorText: string | null): Promise<ExportPage> {
      const cursor = cursors.decode(cursorText);
      if (cursor === null) throw new Error('a SHOPIFY export has no result cursor');
      // No url: the operation found nothing.
      if (cursor.url === null) return { records: [], nextCursor: null, nextSince: cursor.since };
      for (let size = RESULT_CHUNK_BYTES; ; size *= 2) {
        const response = await ctx.http.request({
          method: 'GET',
          url: cursor.url,
          headers: { range: `bytes=${cursor.offset}-${cursor.offset + size - 1}` },
          idempotent: true,
          operation: `read ${operation} export results`,
          // The file is on Shopify's storage, not the Admin API: it costs no points.
          cost: 0,
          responseType: 'bytes',
          acceptStatuses: [416],
          signal: ctx.signal,
        });
        if (response.status === 416) return { records: [], nextCursor: null, nextSince: cursor.since };
        const body = response.body;
        if (!(body instanceof Uint8Array)) throw new PlatformError({ kind: 'server', message: 'The bulk result is not bytes', requestSent: true });
        // 200: the whole file (no Range support); 206: bytes start-end/total.
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers['content-range'] ?? '');
        const whole = response.status === 200 || range === null;
        const chunk = whole ? body.subarray(cursor.offset) : body;
        const atEnd = whole || Number(range[2]) + 1 >= Number(range[3]);
        const split = splitChunk(chunk, atEnd);
        if (split === null) {
          if (size >= MAX_CHUNK_BYTES)
            throw new PlatformError({ kind: 'server', message: 'A bulk result record is larger than 256 MB', requestSent: true });
          continue;
        }
        const roots = recordsFromLines(split.lines, children).map((record) => parseAnswer(answer, record.raw, response.status));
        const records = toRecords(roots);
        const offset = cursor.offset + split.consumed;
        const done = atEnd && split.consumed >= chunk.length;
        return done ? { records, nextCursor: null, nextSince: cursor.since } : { records, nextCursor: cursors.encode({ ...cursor, offset }) };
      }
    },
  };
}
