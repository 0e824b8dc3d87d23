/** Attachment uploads to journal entries through the real server, against SANDBOX. */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import { eventsOf, storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { multipart, type Part } from '../../../../test/support/multipart.ts';
import { jobIdOf, startWriteTestApp, type Json } from '../../../../test/support/writes.ts';
import { MAX_UPLOAD_BYTES } from './upload.ts';

let t: TestApp;
let c: SyncedConnection;
let entry: string;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_uploads_size_300');
  entry = (await storedWhere(t, c.connection.id, 'journal_entry', () => true)).id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

function upload(journalId: string, parts: Part[], headers: Record<string, string> = clientHeaders(t.org), token = c.token) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/versioned/accounting/journal_entries/${journalId}/attachments?access_token=${token}`,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe('journal entry attachments', () => {
  it('upload a file, serve it back byte for byte, list it under the entry and announce it with the job id', async () => {
    const content = Buffer.concat([Buffer.from('date,amount\n2026-11-01,12.50\n'), randomBytes(2048)]);
    const response = await upload(entry, [
      { name: 'file_name', value: 'receipt-nov.csv' },
      { name: 'file', value: content, filename: 'upload.bin', type: 'text/csv' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const attachment = json(response).attachment as Json;
    expect(attachment).toMatchObject({ attached_to_id: entry, file_name: 'receipt-nov.csv' });
    const file = new URL(String(attachment.file_url));
    const download = await t.app.inject({ method: 'GET', url: `${file.pathname}${file.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);

    const listed = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/journal_entries/attachments?access_token=${c.token}&attached_to_id=${entry}`,
      headers: clientHeaders(t.org),
    });
    expect((json(listed).attachments as Json[]).map((a) => a.id)).toContain(attachment.id);
    const job = jobIdOf(response);
    const created = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'ATTACHMENT_CREATED' && e.payload.job_id === job);
    expect(created.map((e) => (e.payload.attachment as Json).id)).toEqual([attachment.id]);
    const view = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${job}`, headers: clientHeaders(t.org) }));
    expect(view.request).toMatchObject({ method: 'POST', body: { file_name: 'receipt-nov.csv', content_type: 'text/csv', size: content.length } });
  });

  it('answer 413 above the size limit, and takes a file of exactly the limit', async () => {
    const over = await upload(entry, [{ name: 'file', value: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1), filename: 'big.bin' }]);
    expect(over.statusCode).toBe(413);
    expect(errorBody(over).error_code).toBe('PAYLOAD_TOO_LARGE');
    const exact = await upload(entry, [{ name: 'file', value: Buffer.alloc(MAX_UPLOAD_BYTES, 2), filename: 'exact.bin' }]);
    expect(exact.statusCode, exact.body.slice(0, 300)).toBe(200);
    expect((json(exact).attachment as Json).file_name).toBe('exact.bin');
  });

  it('refuse malformed uploads, unknown entries and foreign callers', async () => {
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/journal_entries/${entry}/attachments?access_token=${c.token}`,
      headers: clientHeaders(t.org),
      payload: { file: 'x' },
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(errorBody(notMultipart).error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const noFile = await upload(entry, [{ name: 'file_name', value: 'a.txt' }]);
    expect(errorBody(noFile).error_metadata?.field).toBe('file');
    const badName = await upload(entry, [
      { name: 'file_name', value: '../etc/passwd' },
      { name: 'file', value: 'x', filename: 'x' },
    ]);
    expect(errorBody(badName).error_metadata?.field).toBe('file_name');
    const unknownField = await upload(entry, [
      { name: 'colour', value: 'red' },
      { name: 'file', value: 'x', filename: 'x' },
    ]);
    expect(errorBody(unknownField).error_metadata?.field).toBe('colour');
    const missing = await upload(randomUUID(), [{ name: 'file', value: 'x', filename: 'x' }]);
    expect(missing.statusCode).toBe(410);
    const other = await t.newOrg('Uploads other');
    expect(errorBody(await upload(entry, [{ name: 'file', value: 'x', filename: 'x' }], clientHeaders(other))).error_code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await upload(entry, [{ name: 'file', value: 'x', filename: 'x' }], { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
  });
});
