/**
 * The Ledgerport MCP server: tools over a running Ledgerport API (packages/mcp/README.md).
 *
 * Every tool that reads or writes a connection's data takes the connection per call (a name given to use_connection,
 * a connection_id, or an access_token), so one session can work with several connections at once, e.g. an accounting
 * one and a commerce one. Writes are two steps: prepare_write answers a preview and a confirmation token, apply_write
 * sends the request only with that token and the identical request (src/confirm.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LedgerportError, data } from '@ledgerport/client';
import { z } from 'zod';
import { LedgerportGateway, ToolInputError, type ApiOptions, type WriteMethod } from './api.ts';
import { Confirmations } from './confirm.ts';

export interface AuditEntry {
  event: 'mcp_write_applied' | 'mcp_write_failed';
  token_id: string;
  method: string;
  path: string;
  connection_id: string;
  body: unknown;
  status: number;
  error_code: string | null;
  request_id: string | null;
  replayed: boolean;
  at: string;
}

export interface ServerOptions {
  api: ApiOptions;
  /** Shared by every session of one process (HTTP mode); default a fresh random key per server. */
  confirmations?: Confirmations;
  /** Where each applied write is recorded; default a JSON line on stderr (never stdout: the stdio protocol's). */
  audit?: (entry: AuditEntry) => void;
}

export const SERVER_NAME = 'ledgerport';
export const SERVER_VERSION = '0.1.0';

const stderrAudit = (entry: AuditEntry): void => {
  process.stderr.write(`${JSON.stringify(entry)}\n`);
};

const connectionShape = {
  connection: z.string().optional().describe('A name given to use_connection in this session'),
  connection_id: z.string().optional().describe('A connection id (find_connections lists them)'),
  access_token: z.string().optional().describe("A connection's access token"),
};
type ConnectionRef = { connection?: string | undefined; connection_id?: string | undefined; access_token?: string | undefined };

interface ResolvedConnection {
  accessToken: string;
  id: string;
  platform: string;
  name: string | null;
}

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });
const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** A tool's failure as the caller should read it: the API's error code first, then its message and request id. */
function toolError(error: unknown): CallToolResult {
  if (error instanceof LedgerportError)
    return failure(
      `${error.code} (HTTP ${error.status}, ${error.type}): ${error.message}${error.requestId === null ? '' : ` [request id ${error.requestId}]`}`,
    );
  if (error instanceof ToolInputError) return failure(error.message);
  throw error;
}

async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error);
  }
}

export function createLedgerportMcpServer(options: ServerOptions): McpServer {
  const api = new LedgerportGateway(options.api);
  const confirmations = options.confirmations ?? new Confirmations();
  const audit = options.audit ?? stderrAudit;
  // This session's named connections (use_connection) and the tokens found for connection ids.
  const named = new Map<string, ResolvedConnection>();
  const byId = new Map<string, ResolvedConnection>();

  async function resolve(ref: ConnectionRef): Promise<ResolvedConnection> {
    const given = [ref.connection, ref.connection_id, ref.access_token].filter((v) => v !== undefined && v !== '');
    if (given.length !== 1)
      throw new ToolInputError('name exactly one connection: connection (a use_connection name), connection_id or access_token');
    if (ref.connection !== undefined && ref.connection !== '') {
      const found = named.get(ref.connection);
      if (found === undefined)
        throw new ToolInputError(
          `no connection named "${ref.connection}" in this session (use_connection names one; named: ${[...named.keys()].join(', ') || 'none'})`,
        );
      return found;
    }
    if (ref.connection_id !== undefined && ref.connection_id !== '') {
      const known = byId.get(ref.connection_id);
      if (known !== undefined) return known;
      const resolved = await connectionFor(await api.accessTokenOf(ref.connection_id));
      byId.set(resolved.id, resolved);
      return resolved;
    }
    return connectionFor(ref.access_token ?? '');
  }

  async function connectionFor(accessToken: string): Promise<ResolvedConnection> {
    const c = await api.connectionOf(accessToken);
    return { accessToken, id: c.id, platform: c.platform, name: c.name };
  }

  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });

  server.registerTool(
    'find_connections',
    {
      description:
        "Lists the organisation's connections (id, platform, name, store, status), newest first. Access tokens are not shown: pass connection_id to the other tools.",
      inputSchema: {
        status: z
          .enum(['active', 'unhealthy', 'not_ready', 'needs_reauth', 'disabled', 'any'])
          .optional()
          .describe('Default: active, not_ready and unhealthy'),
        platform: z.string().optional().describe('Only this platform, e.g. SANDBOX, XERO, SHOPIFY (filtered on this page)'),
        limit: z.number().int().min(1).max(500).optional(),
        cursor: z.string().optional().describe('next_cursor of the previous page'),
      },
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      guarded(async () => {
        const page = await data(
          api.typed.GET('/versioned/connections', {
            params: { query: { ...(input.status ? { status: input.status } : {}), limit: String(input.limit ?? 50), cursor: input.cursor ?? '' } },
          }),
        );
        const connections = page.connections
          .filter((c) => input.platform === undefined || c.platform === input.platform.toUpperCase())
          .map(({ access_token: _secret, ...visible }) => visible);
        return json({ connections, next_cursor: page.next_cursor ?? null });
      }),
  );

  server.registerTool(
    'connection_status',
    {
      description: "A connection's status: health, the last syncs and what is ready to read (GET /connections/status).",
      inputSchema: connectionShape,
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      guarded(async () => {
        const connection = await resolve(input);
        return json(await data(api.typed.GET('/versioned/connections/status', { params: { query: { access_token: connection.accessToken } } })));
      }),
  );

  server.registerTool(
    'use_connection',
    {
      description: 'Remembers a connection under a name for this session (e.g. "books" and "shop"); other tools then take connection: "<name>".',
      inputSchema: { name: z.string().min(1).max(64), connection_id: connectionShape.connection_id, access_token: connectionShape.access_token },
    },
    async (input) =>
      guarded(async () => {
        const connection = await resolve({ connection_id: input.connection_id, access_token: input.access_token });
        named.set(input.name, connection);
        return json({
          name: input.name,
          connection: { id: connection.id, platform: connection.platform, name: connection.name },
          session_connections: [...named.keys()],
        });
      }),
  );

  server.registerTool(
    'list_resources',
    {
      description:
        'The resource paths the API lists (its /openapi.json): records such as accounting/bills or commerce/orders and reports such as accounting/balance_sheets.',
      annotations: { readOnlyHint: true },
    },
    async () => guarded(async () => json({ resources: (await api.listablePaths()).sort() })),
  );

  server.registerTool(
    'list_records',
    {
      description:
        'Reads a page of any resource of a connection, records or reports: resource is its path under /versioned (accounting/bills, commerce/orders, accounting/balance_sheets; list_resources names them). filter uses the API\'s filter language (docs/filtering.md), e.g. status = "open" AND due_date < 2024-06-30; sort is a field and ASC or DESC.',
      inputSchema: {
        resource: z.string().describe('e.g. accounting/bills'),
        ...connectionShape,
        filter: z.string().optional(),
        sort: z.string().optional(),
        limit: z.number().int().min(1).max(500).optional(),
        cursor: z.string().optional().describe('next_cursor of the previous page, with the same filter'),
        params: z.record(z.string(), z.string()).optional().describe("Other query parameters the resource declares (a report's period...)"),
      },
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      guarded(async () => {
        await api.operation('GET', input.resource);
        const connection = await resolve(input);
        const query = {
          ...input.params,
          access_token: connection.accessToken,
          filter: input.filter,
          sort: input.sort,
          limit: input.limit,
          cursor: input.cursor,
        };
        return json((await api.request('GET', input.resource, query)).body);
      }),
  );

  server.registerTool(
    'get_record',
    {
      description: 'Reads one record of a connection by its id: resource is the list path (accounting/bills), id the record id.',
      inputSchema: { resource: z.string(), id: z.string().min(1), ...connectionShape },
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      guarded(async () => {
        const path = `${input.resource.replace(/\/+$/, '')}/${input.id}`;
        await api.operation('GET', path);
        const connection = await resolve(input);
        return json((await api.request('GET', path, { access_token: connection.accessToken })).body);
      }),
  );

  const writeShape = {
    method: z.enum(['POST', 'PATCH', 'DELETE']),
    path: z.string().describe('Under /versioned: accounting/bills to create, accounting/bills/<id> to update or delete'),
    body: z.record(z.string(), z.unknown()).optional().describe('The JSON body, e.g. { "bill": { ... } }'),
    ...connectionShape,
  };

  server.registerTool(
    'prepare_write',
    {
      description:
        'Step 1 of every write: checks the request against the API and answers a preview (method, path, body, connection) and a confirmation_token valid for 10 minutes. Nothing is written. Show the preview to the user; apply_write with the token and the identical request writes it.',
      inputSchema: writeShape,
      annotations: { readOnlyHint: true },
    },
    async (input) =>
      guarded(async () => {
        const operation = await api.operation(input.method, input.path);
        const connection = await resolve(input);
        const request = { method: input.method, path: operation.path, connectionId: connection.id, body: input.body ?? null };
        const { token, tokenId, expiresAt } = confirmations.issue(request);
        return json({
          preview: {
            method: input.method,
            path: operation.path,
            body: request.body,
            connection: { id: connection.id, platform: connection.platform, name: connection.name },
          },
          confirmation_token: token,
          token_id: tokenId,
          expires_at: expiresAt.toISOString(),
          next: 'apply_write with this confirmation_token and exactly this method, path, body and connection',
        });
      }),
  );

  server.registerTool(
    'apply_write',
    {
      description:
        'Step 2: sends a write prepared by prepare_write. Refused unless confirmation_token is the one its preview answered for exactly this method, path, body and connection. Applying the same token again replays the first answer (one write).',
      inputSchema: { confirmation_token: z.string(), ...writeShape },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async (input) =>
      guarded(async () => {
        const operation = await api.operation(input.method, input.path);
        const connection = await resolve(input);
        const request = { method: input.method, path: operation.path, connectionId: connection.id, body: input.body ?? null };
        const verdict = confirmations.check(input.confirmation_token, request);
        if (!verdict.ok) return failure(`WRITE_NOT_CONFIRMED: ${verdict.reason}. Nothing was written.`);
        return applyConfirmed(api, audit, verdict, request, input.method, connection.accessToken);
      }),
  );

  return server;
}

async function applyConfirmed(
  api: LedgerportGateway,
  audit: (entry: AuditEntry) => void,
  verdict: { tokenId: string; idempotencyKey: string },
  request: { path: string; connectionId: string; body: unknown },
  method: WriteMethod,
  accessToken: string,
): Promise<CallToolResult> {
  const base = {
    token_id: verdict.tokenId,
    method,
    path: request.path,
    connection_id: request.connectionId,
    body: request.body,
    at: new Date().toISOString(),
  };
  try {
    const answer = await api.request(
      method,
      request.path.slice('/versioned/'.length),
      { access_token: accessToken },
      {
        ...(request.body === null ? {} : { body: request.body }),
        idempotencyKey: verdict.idempotencyKey,
      },
    );
    audit({ ...base, event: 'mcp_write_applied', status: answer.status, error_code: null, request_id: answer.requestId, replayed: answer.replayed });
    return json({ status: answer.status, replayed: answer.replayed, request_id: answer.requestId, token_id: verdict.tokenId, body: answer.body });
  } catch (error) {
    if (error instanceof LedgerportError)
      audit({ ...base, event: 'mcp_write_failed', status: error.status, error_code: error.code, request_id: error.requestId, replayed: false });
    throw error;
  }
}
