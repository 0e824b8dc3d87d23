/**
 * Attachments of journal entries, bills, invoices and expenses (the spec's "Journal entry attachments" and "Other
 * entity attachments") through the real server and PostgreSQL, against SANDBOX: list and fetch per document type, one document's list, upload, file download.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../../model/index.ts';
import { ATTACHMENT_PARENTS } from '../../../model/attachment.ts';
import { OBJECT_TYPES } from '../../../model/object-types.ts';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import { multipart, type Part } from '../../../../test/support/multipart.ts';
import { eventsOf, syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { jobIdOf, startWriteTestApp, type Json } from '../../../../test/support/writes.ts';

let t: TestApp;
let c: SyncedConnection;
let other: SyncedConnection;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_document_files_size_1500');
  // Another organisation's connection: its ids are nothing here.
  other = await syncedSandboxConnection(t, 'user_document_files_other_size_600', await t.newOrg('Attachments other'));
}, 180_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = clientHeaders(t.org), token = c.token) =>
  t.app.inject({ method: 'GET', url: `/versioned${url}${url.includes('?') ? '&' : '?'}access_token=${token}`, headers });

function upload(path: string, parts: Part[], headers: Record<string, string> = clientHeaders(t.org), token = c.token) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/versioned${path}?access_token=${token}`,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

async function storedAttachments(connectionId: string, type: string): Promise<{ id: string; attached_to_id: string }[]> {
  const result = await t.db.pool.query<{ id: string; attached_to_id: string }>(
    `SELECT id, data->>'attached_to_id' AS attached_to_id FROM records
      WHERE connection_id = $1 AND object_type = 'attachment' AND deleted_at IS NULL AND data->>'attached_to_type' = $2 ORDER BY id`,
    [connectionId, type],
  );
  return result.rows;
}

// Every document type with attachment paths: each `/<documents>/attachments` list answers that type's files only.
const DOCUMENTS = ATTACHMENT_PARENTS.map((type) => [OBJECT_TYPES[type].plural, type] as const);

describe.each(DOCUMENTS)('attachments of %s', (plural, type) => {
  it('list every attachment of that type once across pages (and only those), with attached_to_id, next_cursor and connection', async () => {
    const stored = await storedAttachments(c.connection.id, type);
    expect(stored.length).toBeGreaterThan(1);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const response = await get(`/accounting/${plural}/attachments?limit=7${cursor === '' ? '' : `&cursor=${cursor}`}`);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const body = json(response);
      expect(Object.keys(body).sort()).toEqual(['attachments', 'connection', 'next_cursor']);
      expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
      for (const item of body.attachments as Json[]) {
        expect(Value.Check(MODEL.attachment.schema, item)).toBe(true);
        expect(item.attached_to_type).toBe(type);
      }
      seen.push(...(body.attachments as Json[]).map((a) => String(a.id)));
      cursor = body.next_cursor as string | null;
    }
    expect(seen.sort()).toEqual(stored.map((s) => s.id));
    const first = stored[0];
    const filtered = json(await get(`/accounting/${plural}/attachments?attached_to_id=${first?.attached_to_id ?? ''}`)).attachments as Json[];
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((a) => a.attached_to_id === first?.attached_to_id)).toBe(true);
  });

  it("fetch one as {attachment, connection}; another type's attachment, another organisation's, an unknown id are 410; the path word is 404", async () => {
    const [mine] = await storedAttachments(c.connection.id, type);
    const fetched = await get(`/accounting/${plural}/attachments/${mine?.id ?? ''}`);
    expect(fetched.statusCode).toBe(200);
    expect(Object.keys(json(fetched)).sort()).toEqual(['attachment', 'connection']);
    expect(json(fetched).attachment).toMatchObject({ id: mine?.id, attached_to_id: mine?.attached_to_id, attached_to_type: type });
    const [anotherTypes] = await storedAttachments(c.connection.id, type === 'bill' ? 'journal_entry' : 'bill');
    const [theirs] = await storedAttachments(other.connection.id, type);
    for (const id of [anotherTypes?.id, theirs?.id, randomUUID(), 'nope']) {
      const response = await get(`/accounting/${plural}/attachments/${id ?? ''}`);
      expect(response.statusCode, id).toBe(410);
      expect(errorBody(response).error_message).toContain(`No ${type.replace('_', ' ')} attachment with id ${id ?? ''}`);
    }
    expect(errorBody(await get(`/accounting/${plural}/attachments/attachments`)).error_code).toBe('ROUTE_NOT_FOUND');
  });

  it("list one document's attachments; a document of another organisation or none is 410 naming it", async () => {
    const stored = await storedAttachments(c.connection.id, type);
    const document = stored[0]?.attached_to_id ?? '';
    const response = await get(`/accounting/${plural}/${document}/attachments`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const body = json(response);
    expect(body).toMatchObject({ next_cursor: null, connection: { id: c.connection.id } });
    expect((body.attachments as Json[]).map((a) => a.id).sort()).toEqual(stored.filter((s) => s.attached_to_id === document).map((s) => s.id));
    // A document without attachments has an empty list.
    const bare = await t.db.pool.query<{ id: string }>(
      `SELECT id FROM records r WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM records a WHERE a.connection_id = r.connection_id AND a.object_type = 'attachment' AND a.data->>'attached_to_id' = r.id::text) LIMIT 1`,
      [c.connection.id, type],
    );
    expect(json(await get(`/accounting/${plural}/${bare.rows[0]?.id ?? ''}/attachments`)).attachments).toEqual([]);
    const theirs = (await storedAttachments(other.connection.id, type))[0]?.attached_to_id ?? '';
    for (const id of [theirs, randomUUID(), 'nope']) {
      const missing = await get(`/accounting/${plural}/${id}/attachments`);
      expect(missing.statusCode, id).toBe(410);
      expect(errorBody(missing)).toMatchObject({
        error_code: 'RESOURCE_NOT_FOUND',
        error_message: `No ${type.replace('_', ' ')} with id ${id} in this connection.`,
        error_metadata: { field: 'id' },
      });
    }
    expect(errorBody(await get(`/accounting/${plural}/${document}/attachments?limit=0`)).error_code).toBe('VALIDATION_ERROR');
    expect(errorBody(await get(`/accounting/${plural}/${document}/attachments?cursor=abc`)).error_code).toBe('INVALID_CURSOR');
  });

  it('upload a file: the attachment of that document type, in its list, announced with the job id, downloadable by both paths', async () => {
    const document =
      (
        await t.db.pool.query<{ id: string }>(
          'SELECT id FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL ORDER BY platform_id LIMIT 1',
          [c.connection.id, type],
        )
      ).rows[0]?.id ?? '';
    const content = Buffer.concat([Buffer.from(`scan of ${type}\n`), randomBytes(1024)]);
    const response = await upload(`/accounting/${plural}/${document}/attachments`, [
      { name: 'file_name', value: `${type}-scan.pdf` },
      { name: 'file', value: content, filename: 'x.bin', type: 'application/pdf' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const attachment = json(response).attachment as Json;
    expect(attachment).toMatchObject({ attached_to_id: document, attached_to_type: type, file_name: `${type}-scan.pdf` });
    const listed = json(await get(`/accounting/${plural}/${document}/attachments`)).attachments as Json[];
    expect(listed.map((a) => a.id)).toContain(attachment.id);
    const job = jobIdOf(response);
    const created = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'ATTACHMENT_CREATED' && e.payload.job_id === job);
    expect(created.map((e) => (e.payload.attachment as Json).id)).toEqual([attachment.id]);

    const file = await get(`/accounting/${plural}/${document}/attachments/${String(attachment.id)}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(content)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${type}-scan.pdf"`);
    const signed = new URL(String(attachment.file_url));
    expect((await t.app.inject({ method: 'GET', url: `${signed.pathname}${signed.search}` })).rawPayload.equals(content)).toBe(true);

    const async = await upload(`/accounting/${plural}/${document}/attachments`, [
      { name: 'file', value: 'later', filename: 'later.txt' },
      { name: 'response_mode', value: 'async' },
    ]);
    expect(async.statusCode).toBe(202);
    expect(json(async).async_response).toMatchObject({ id: jobIdOf(async) });
  });

  it('refuse malformed uploads, unknown documents, missing auth and another organisation', async () => {
    const document = (await storedAttachments(c.connection.id, type))[0]?.attached_to_id ?? '';
    const path = `/accounting/${plural}/${document}/attachments`;
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: `/versioned${path}?access_token=${c.token}`,
      headers: clientHeaders(t.org),
      payload: { file: 'x' },
    });
    expect(errorBody(notMultipart).error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(errorBody(await upload(path, [{ name: 'file_name', value: 'a.txt' }])).error_metadata?.field).toBe('file');
    expect(
      errorBody(
        await upload(path, [
          { name: 'file_name', value: 'a/b.txt' },
          { name: 'file', value: 'x', filename: 'x' },
        ]),
      ).error_metadata?.field,
    ).toBe('file_name');
    const theirs = (await storedAttachments(other.connection.id, type))[0]?.attached_to_id ?? '';
    for (const id of [theirs, randomUUID()]) {
      const missing = await upload(`/accounting/${plural}/${id}/attachments`, [{ name: 'file', value: 'x', filename: 'x' }]);
      expect(missing.statusCode).toBe(410);
      expect(errorBody(missing).error_message).toContain(`No ${type.replace('_', ' ')} with id ${id}`);
    }
    expect(errorBody(await upload(`/accounting/${plural}/attachments/attachments`, [{ name: 'file', value: 'x', filename: 'x' }])).error_code).toBe(
      'ROUTE_NOT_FOUND',
    );
    const someone = await t.newOrg(`Attachments stranger ${type}`);
    expect(errorBody(await upload(path, [{ name: 'file', value: 'x', filename: 'x' }], clientHeaders(someone))).error_code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await upload(path, [{ name: 'file', value: 'x', filename: 'x' }], { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
  });

  it("refuse reads and downloads without auth, with another organisation's credentials or token, and for files of another document", async () => {
    const stored = await storedAttachments(c.connection.id, type);
    const mine = stored[0];
    const document = mine?.attached_to_id ?? '';
    const urls = [
      `/accounting/${plural}/attachments`,
      `/accounting/${plural}/attachments/${mine?.id ?? ''}`,
      `/accounting/${plural}/${document}/attachments`,
      `/accounting/${plural}/${document}/attachments/${mine?.id ?? ''}/file`,
    ];
    const someone = await t.newOrg(`Attachments reader ${type}`);
    for (const url of urls) {
      expect((await get(url, { 'x-service-version': '2024-08-31' })).statusCode, url).toBe(401);
      expect(errorBody(await get(url, clientHeaders(someone))).error_code, url).toBe('INVALID_CREDENTIALS');
      // Our credentials with the other organisation's access token.
      expect(errorBody(await get(url, clientHeaders(t.org), other.token)).error_code, url).toBe('INVALID_CREDENTIALS');
      const noToken = await t.app.inject({ method: 'GET', url: `/versioned${url}`, headers: clientHeaders(t.org) });
      expect(errorBody(noToken).error_code, url).toBe('MISSING_ACCESS_TOKEN');
    }
    const elsewhere = stored.find((s) => s.attached_to_id !== document);
    const theirs = (await storedAttachments(other.connection.id, type))[0];
    for (const id of [elsewhere?.id, theirs?.id, randomUUID(), 'nope']) {
      const response = await get(`/accounting/${plural}/${document}/attachments/${id ?? ''}/file`);
      expect(response.statusCode, id).toBe(410);
      expect(errorBody(response).error_metadata).toMatchObject({ field: 'attachmentId' });
    }
    expect((await get(`/accounting/${plural}/${randomUUID()}/attachments/${mine?.id ?? ''}/file`)).statusCode).toBe(410);
    expect(errorBody(await get(`/accounting/${plural}/attachments/attachments/file`)).error_code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('versions', () => {
  it('leave out a null next_cursor before 2023-03-14, as every list does', async () => {
    const document = (await storedAttachments(c.connection.id, 'bill'))[0]?.attached_to_id ?? '';
    for (const url of ['/accounting/bills/attachments?limit=500', `/accounting/bills/${document}/attachments`]) {
      expect('next_cursor' in json(await get(url, { ...clientHeaders(t.org), 'x-service-version': '2023-02-07' })), url).toBe(false);
      expect(json(await get(url)).next_cursor, url).toBeNull();
    }
  });
});

describe('readiness', () => {
  it('answer ENTITY_NOT_READY for a document without files while attachments were never read in full, and [] with force_fetch', async () => {
    const bare =
      (
        await t.db.pool.query<{ id: string }>(
          `SELECT id FROM records r WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM records a WHERE a.connection_id = r.connection_id AND a.object_type = 'attachment' AND a.data->>'attached_to_id' = r.id::text) LIMIT 1`,
          [c.connection.id],
        )
      ).rows[0]?.id ?? '';
    await t.db.pool.query(`UPDATE sync_objects SET last_completed_at = NULL WHERE connection_id = $1 AND object_type = 'attachment'`, [
      c.connection.id,
    ]);
    try {
      const response = await get(`/accounting/bills/${bare}/attachments`);
      expect([response.statusCode, errorBody(response).error_code]).toEqual([409, 'ENTITY_NOT_READY']);
      expect(json(await get(`/accounting/bills/${bare}/attachments?force_fetch=true`)).attachments).toEqual([]);
    } finally {
      await t.db.pool.query(`UPDATE sync_objects SET last_completed_at = now() WHERE connection_id = $1 AND object_type = 'attachment'`, [
        c.connection.id,
      ]);
    }
  });
});
