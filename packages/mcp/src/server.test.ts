/**
 * The MCP server against a started service: a real app listening on a port (test/support/app.ts) whose write jobs
 * run (test/support/writes.ts), a synced SANDBOX connection, and the SDK's own client talking to the server over an
 * in-memory transport, over streamable HTTP, and to `ledgerport mcp` started as a child process over stdio.
 */
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { TestApp } from '../../../test/support/app.ts';
import { startWriteTestApp } from '../../../test/support/writes.ts';
import { storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import type { ApiOptions } from './api.ts';
import { createLedgerportMcpServer, type AuditEntry } from './server.ts';
import { startHttpServer } from './main.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let api: ApiOptions;
let synced: SyncedConnection;
let client: Client;
const audited: AuditEntry[] = [];
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startWriteTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { client_id, client_secret } = t.org.credentials.sandbox;
  api = { baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, clientId: client_id, clientSecret: client_secret };
  synced = await syncedSandboxConnection(t, 'user_mcp_server');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createLedgerportMcpServer({ api, audit: (entry) => audited.push(entry) }).connect(serverSide);
  client = new Client({ name: 'ledgerport-mcp-test', version: '0.0.0' });
  await client.connect(clientSide);
}, 120_000);

afterAll(async () => {
  await client.close();
  await t.close();
});

interface ToolAnswer {
  isError: boolean;
  text: string;
}

async function call(name: string, args: Json, on: Client = client): Promise<ToolAnswer> {
  const result = await on.callTool({ name, arguments: args });
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return { isError: result.isError === true, text: content.map((c) => c.text ?? '').join('\n') };
}

async function callJson(name: string, args: Json, on: Client = client): Promise<Json> {
  const answer = await call(name, args, on);
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text) as Json;
}

async function billCount(): Promise<number> {
  const result = await t.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL",
    [synced.connection.id],
  );
  return result.rows[0]?.n ?? 0;
}

describe('@ledgerport/mcp', () => {
  it('lists its tools, each with a JSON-schema input', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'apply_write',
        'connection_status',
        'find_connections',
        'get_record',
        'list_records',
        'list_resources',
        'prepare_write',
        'use_connection',
      ].sort(),
    );
    const listRecords = tools.find((tool) => tool.name === 'list_records');
    expect(listRecords?.inputSchema.type).toBe('object');
    expect(Object.keys(listRecords?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['resource', 'connection_id', 'filter', 'sort', 'limit', 'cursor']),
    );
  });

  it('finds connections, without their access tokens, and reads a status', async () => {
    const found = await callJson('find_connections', { platform: 'sandbox' });
    const connections = found.connections as Json[];
    expect(connections.map((c) => c.id)).toContain(synced.connection.id);
    expect(JSON.stringify(found)).not.toContain(synced.token);
    const status = await callJson('connection_status', { connection_id: synced.connection.id });
    expect((status.connection as Json).id).toBe(synced.connection.id);
  });

  it('reads bills with a filter and a sort, and one bill by id', async () => {
    const all = await callJson('list_records', { resource: 'accounting/bills', connection_id: synced.connection.id, limit: 500 });
    const open = await callJson('list_records', {
      resource: 'accounting/bills',
      connection_id: synced.connection.id,
      filter: 'status = "open"',
      sort: 'due_date ASC',
      limit: 500,
    });
    const bills = open.bills as Json[];
    expect(bills.length).toBeGreaterThan(0);
    expect(bills.every((b) => b.status === 'open')).toBe(true);
    expect(bills.length).toBe((all.bills as Json[]).filter((b) => b.status === 'open').length);
    expect(bills.length).toBeLessThan((all.bills as Json[]).length);
    const dueDates = bills.map((b) => String(b.due_date));
    expect(dueDates).toEqual([...dueDates].sort());
    const one = await callJson('get_record', { resource: 'accounting/bills', id: String(bills[0]?.id), access_token: synced.token });
    expect((one.bill as Json).id).toBe(bills[0]?.id);
  });

  it('reads a report through the same reader', async () => {
    const sheets = await callJson('list_records', { resource: 'accounting/balance_sheets', connection_id: synced.connection.id });
    expect(Array.isArray(sheets.balance_sheets)).toBe(true);
  });

  it('refuses a resource path the API does not publish, naming the ones it does', async () => {
    const answer = await call('list_records', { resource: 'accounting/nothing_here', connection_id: synced.connection.id });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('accounting/bills');
    expect(answer.text).toContain('commerce/orders');
    const traversal = await call('list_records', { resource: 'accounting/../admin', connection_id: synced.connection.id });
    expect(traversal.isError).toBe(true);
  });

  it('surfaces an API error as a tool error naming its error code', async () => {
    const answer = await call('list_records', { resource: 'accounting/bills', connection_id: synced.connection.id, cursor: 'not a cursor' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^INVALID_CURSOR \(HTTP 400, INVALID_REQUEST\)/);
    expect(answer.text).toMatch(/request id \S+/);
    const badFilter = await call('list_records', { resource: 'accounting/bills', connection_id: synced.connection.id, filter: 'status === nope' });
    expect(badFilter.isError).toBe(true);
    expect(badFilter.text).toMatch(/^[A-Z_]+ \(HTTP 400/);
  });

  it('holds several named connections in one session', async () => {
    const other = await syncedSandboxConnection(t, 'user_mcp_second');
    await callJson('use_connection', { name: 'books', connection_id: synced.connection.id });
    const named = await callJson('use_connection', { name: 'other', access_token: other.token });
    expect(named.session_connections).toEqual(['books', 'other']);
    const a = await callJson('connection_status', { connection: 'books' });
    const b = await callJson('connection_status', { connection: 'other' });
    expect((a.connection as Json).id).toBe(synced.connection.id);
    expect((b.connection as Json).id).toBe(other.connection.id);
    // An accounting read on one, a commerce read on the other, in the same session.
    const bills = await callJson('list_records', { resource: 'accounting/bills', connection: 'books', limit: 1 });
    const orders = await callJson('list_records', { resource: 'commerce/orders', connection: 'other', limit: 1 });
    expect((bills.bills as Json[]).length).toBe(1);
    expect((orders.orders as Json[]).length).toBe(1);
    const unknown = await call('connection_status', { connection: 'shop' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('books, other');
  });

  describe('writes', () => {
    const bill = (memo: string, amount: number): Json => ({
      bill: { vendor_id: vendor, issue_date: today, memo, line_items: [{ account_id: expense, total_amount: amount, description: 'MCP' }] },
    });
    let vendor = '';
    let expense = '';

    beforeAll(async () => {
      vendor = (await storedWhere(t, synced.connection.id, 'vendor', (v) => v.status === 'active')).id;
      expense = (await storedWhere(t, synced.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
    });

    it('previews without writing, refuses without the token or with a token for another body, applies once with the right one', async () => {
      const before = await billCount();
      const request = { method: 'POST', path: 'accounting/bills', connection_id: synced.connection.id, body: bill('Written through MCP', 123.45) };
      const prepared = await callJson('prepare_write', request);
      expect(prepared.preview).toEqual({
        method: 'POST',
        path: '/versioned/accounting/bills',
        body: request.body,
        connection: { id: synced.connection.id, platform: 'SANDBOX', name: null },
      });
      const token = String(prepared.confirmation_token);

      const withoutToken = await call('apply_write', request);
      expect(withoutToken.isError).toBe(true);
      const emptyToken = await call('apply_write', { ...request, confirmation_token: '' });
      expect(emptyToken.isError).toBe(true);
      expect(emptyToken.text).toContain('WRITE_NOT_CONFIRMED');
      const otherBody = await call('apply_write', { ...request, body: bill('Written through MCP', 999), confirmation_token: token });
      expect(otherBody.isError).toBe(true);
      expect(otherBody.text).toContain('WRITE_NOT_CONFIRMED');
      const otherPath = await call('apply_write', { ...request, method: 'PATCH', path: 'accounting/bills/x', confirmation_token: token });
      expect(otherPath.text).toContain('WRITE_NOT_CONFIRMED');
      expect(await billCount()).toBe(before);
      expect(audited).toEqual([]);

      const applied = await callJson('apply_write', { ...request, confirmation_token: token });
      expect(applied).toMatchObject({ status: 200, replayed: false, token_id: prepared.token_id });
      const created = (applied.body as Json).bill as Json;
      expect(created).toMatchObject({ memo: 'Written through MCP', total_amount: 123.45 });
      expect(await billCount()).toBe(before + 1);
      const readBack = await callJson('get_record', { resource: 'accounting/bills', id: String(created.id), connection_id: synced.connection.id });
      expect((readBack.bill as Json).memo).toBe('Written through MCP');

      // The same body with its keys in another order is the same request.
      const reordered = { connection_id: synced.connection.id, body: request.body, path: 'accounting/bills', method: 'POST' };
      const again = await callJson('apply_write', { ...reordered, confirmation_token: token });
      expect(again).toMatchObject({ status: 200, replayed: true });
      expect(((again.body as Json).bill as Json).id).toBe(created.id);
      expect(await billCount()).toBe(before + 1);

      expect(audited).toEqual([
        expect.objectContaining({
          event: 'mcp_write_applied',
          token_id: prepared.token_id,
          method: 'POST',
          path: '/versioned/accounting/bills',
          status: 200,
          replayed: false,
        }),
        expect.objectContaining({ event: 'mcp_write_applied', token_id: prepared.token_id, status: 200, replayed: true }),
      ]);
    });

    it('audits a confirmed write the API refuses, and names its error code', async () => {
      const request = {
        method: 'POST',
        path: 'accounting/bills',
        connection_id: synced.connection.id,
        body: { bill: { vendor_id: 'no-such-vendor' } },
      };
      const prepared = await callJson('prepare_write', request);
      const answer = await call('apply_write', { ...request, confirmation_token: String(prepared.confirmation_token) });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/^[A-Z_]+ \(HTTP 4\d\d/);
      expect(audited.at(-1)).toMatchObject({ event: 'mcp_write_failed', token_id: prepared.token_id });
      expect(audited.at(-1)?.error_code).toMatch(/^[A-Z_]+$/);
    });

    it('refuses a write path the API does not publish', async () => {
      const answer = await call('prepare_write', { method: 'DELETE', path: 'accounting/company_info', connection_id: synced.connection.id });
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain('the API has no DELETE /versioned/accounting/company_info');
    });
  });

  it('serves the same tools over streamable HTTP', async () => {
    const http: Server = await startHttpServer(api, 0, '127.0.0.1');
    const port = (http.address() as AddressInfo).port;
    const remote = new Client({ name: 'ledgerport-mcp-http-test', version: '0.0.0' });
    try {
      await remote.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      const found = await callJson('find_connections', {}, remote);
      expect((found.connections as Json[]).map((c) => c.id)).toContain(synced.connection.id);
      // A request naming another host (a DNS name rebound to loopback) is refused; fetch cannot set Host, node:http can.
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      };
      const rebound = await new Promise<number>((answered, failed) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/mcp',
            method: 'POST',
            headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          },
          (res) => {
            res.resume();
            answered(res.statusCode ?? 0);
          },
        );
        req.on('error', failed);
        req.end(JSON.stringify(initialize));
      });
      expect(rebound).toBe(403);
    } finally {
      await remote.close();
      await new Promise((done) => http.close(done));
    }
  });

  it('runs as `ledgerport mcp` over stdio, configured by the environment', async () => {
    const child = new Client({ name: 'ledgerport-mcp-stdio-test', version: '0.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(import.meta.dirname, '../../../bin/ledgerport.js'), 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        LEDGERPORT_API_URL: api.baseUrl,
        LEDGERPORT_CLIENT_ID: api.clientId,
        LEDGERPORT_CLIENT_SECRET: api.clientSecret,
      },
      stderr: 'pipe',
    });
    let stderr = '';
    try {
      await child.connect(transport);
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      expect((await child.listTools()).tools.length).toBe(8);
      const bills = await callJson('list_records', { resource: 'accounting/bills', access_token: synced.token, limit: 2 }, child);
      expect((bills.bills as Json[]).length).toBe(2);

      // A confirmed write: the audit line goes to stderr (stdout carries only the protocol, which kept working).
      const vendor = (await storedWhere(t, synced.connection.id, 'vendor', (v) => v.status === 'active')).id;
      const expense = (await storedWhere(t, synced.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
      const body = { bill: { vendor_id: vendor, issue_date: today, memo: 'Through stdio', line_items: [{ account_id: expense, total_amount: 7 }] } };
      const request = { method: 'POST', path: 'accounting/bills', access_token: synced.token, body };
      const prepared = await callJson('prepare_write', request, child);
      await callJson('apply_write', { ...request, confirmation_token: String(prepared.confirmation_token) }, child);
      // stderr and stdout are separate pipes: the line may arrive after the answer.
      await new Promise<void>((seen) => {
        const check = (): void => {
          if (stderr.includes('mcp_write_applied')) seen();
          else transport.stderr?.once('data', () => setImmediate(check));
        };
        check();
      });
      const auditLine = stderr.split('\n').find((line) => line.includes('mcp_write_applied'));
      expect(JSON.parse(auditLine ?? '{}')).toMatchObject({
        event: 'mcp_write_applied',
        token_id: prepared.token_id,
        status: 200,
        connection_id: synced.connection.id,
      });
    } finally {
      await child.close();
    }
  });

  it('`ledgerport mcp` without its configuration names what is missing, on stderr, with exit code 2', () => {
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '../../../bin/ledgerport.js'), 'mcp'], {
      env: { PATH: process.env.PATH ?? '', LEDGERPORT_API_URL: api.baseUrl },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ledgerport mcp needs LEDGERPORT_CLIENT_ID, LEDGERPORT_CLIENT_SECRET');
  });
});
