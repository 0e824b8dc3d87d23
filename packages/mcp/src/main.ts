/**
 * `ledgerport mcp`: the MCP server over stdio (default), or over streamable HTTP with `--http [--port N] [--host H]`.
 * Configured by LEDGERPORT_API_URL, LEDGERPORT_CLIENT_ID and LEDGERPORT_CLIENT_SECRET (and LEDGERPORT_API_VERSION).
 * In stdio mode stdout carries the protocol only: diagnostics and the audit trail go to stderr.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { API_VERSIONS, type ApiVersion } from '@ledgerport/client';
import type { ApiOptions } from './api.ts';
import { Confirmations } from './confirm.ts';
import { createLedgerportMcpServer } from './server.ts';

export const MCP_USAGE = `usage: ledgerport mcp [--http [--port 3333] [--host 127.0.0.1]]
  environment: LEDGERPORT_API_URL, LEDGERPORT_CLIENT_ID, LEDGERPORT_CLIENT_SECRET [, LEDGERPORT_API_VERSION]`;

export class McpConfigError extends Error {}

export function apiOptionsFrom(env: NodeJS.ProcessEnv): ApiOptions {
  const missing = ['LEDGERPORT_API_URL', 'LEDGERPORT_CLIENT_ID', 'LEDGERPORT_CLIENT_SECRET'].filter((name) => (env[name] ?? '') === '');
  if (missing.length > 0) throw new McpConfigError(`ledgerport mcp needs ${missing.join(', ')}`);
  const version = env.LEDGERPORT_API_VERSION;
  const known = API_VERSIONS.find((v) => v === version);
  if (version !== undefined && version !== '' && known === undefined)
    throw new McpConfigError(`LEDGERPORT_API_VERSION must be one of ${API_VERSIONS.join(', ')} (got "${version}")`);
  return {
    baseUrl: env.LEDGERPORT_API_URL ?? '',
    clientId: env.LEDGERPORT_CLIENT_ID ?? '',
    clientSecret: env.LEDGERPORT_CLIENT_SECRET ?? '',
    ...(known === undefined ? {} : { version: known satisfies ApiVersion }),
  };
}

/** Streamable HTTP at /mcp: one MCP server (its named connections) per session, one confirmation key per process. */
export async function startHttpServer(api: ApiOptions, port: number, host: string): Promise<Server> {
  const confirmations = new Confirmations();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing !== undefined) {
        await existing.handleRequest(req, res);
        return;
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (sessionId !== undefined || !isInitializeRequest(body)) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session: initialize first' }, id: null }));
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...hostCheck(host, (http.address() as AddressInfo).port),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createLedgerportMcpServer({ api, confirmations }).connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      process.stderr.write(`${JSON.stringify({ event: 'mcp_http_error', message: error instanceof Error ? error.message : String(error) })}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((done) => http.listen(port, host, done));
  return http;
}

/**
 * On a loopback address only requests naming that address in Host are served: a web page the user visits cannot
 * reach the server through a DNS name rebound to 127.0.0.1 (the SDK's check). Elsewhere the operator's proxy decides.
 */
function hostCheck(host: string, port: number): { enableDnsRebindingProtection?: boolean; allowedHosts?: string[] } {
  const loopback = ['127.0.0.1', 'localhost', '::1'];
  if (!loopback.includes(host)) return {};
  return { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] };
}

async function readJson(req: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Runs `ledgerport mcp <argv>` until its transport closes (stdio) or the process is stopped (HTTP). */
export async function runMcp(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '3333' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  const api = apiOptionsFrom(env);
  if (values.http) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new McpConfigError(`--port must be 0 to 65535 (got "${values.port}")`);
    const http = await startHttpServer(api, port, values.host);
    const address = http.address() as AddressInfo;
    process.stderr.write(`${JSON.stringify({ event: 'mcp_http_listening', url: `http://${values.host}:${address.port}/mcp` })}\n`);
    return;
  }
  await createLedgerportMcpServer({ api }).connect(new StdioServerTransport());
}

/** The CLI's entry: usage errors to stderr with exit code 2. */
export function mcpEntry(argv: string[]): void {
  runMcp(argv).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${MCP_USAGE}\n`);
    process.exitCode = 2;
  });
}
